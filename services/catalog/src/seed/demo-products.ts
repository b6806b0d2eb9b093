/** The demo store's catalogue (SEED_DEMO=1): groceries of a Guatemalan tienda, prices in quetzales. */
export interface DemoProduct {
  key: string;
  name: string;
  description: string;
  sku: string;
  price: number;
  discount: number;
  stock: number;
  category: string;
  /** Background and accent colours of the generated picture. */
  colors: [string, string];
  /** Short label drawn big on the picture. */
  label: string;
  images?: number;
  active?: boolean;
}

export const DEMO_CATEGORIES: { key: string; name: string; description: string }[] = [
  { key: 'bebidas', name: 'Bebidas', description: 'Café, aguas, jugos y refrescos' },
  { key: 'abarrotes', name: 'Abarrotes', description: 'Granos básicos y despensa' },
  { key: 'lacteos', name: 'Lácteos y huevos', description: 'Leche, crema, quesos y huevos' },
  { key: 'frutas', name: 'Frutas y verduras', description: 'Frescas del mercado' },
  { key: 'panaderia', name: 'Panadería', description: 'Pan dulce y pan francés del día' },
  { key: 'limpieza', name: 'Limpieza', description: 'Para la casa y la ropa' },
  { key: 'snacks', name: 'Snacks y dulces', description: 'Para la refacción' },
];

export const DEMO_PRODUCTS: DemoProduct[] = [
  { key: 'cafe-antigua', name: 'Café de Antigua 1 lb', description: 'Café molido de altura, tostado medio, cosechado en Antigua Guatemala.', sku: 'BEB-001', price: 75, discount: 10, stock: 24, category: 'bebidas', colors: ['#6f4e37', '#f5e6d3'], label: 'CAFÉ', images: 2 },
  { key: 'agua-pura', name: 'Agua pura 600 ml', description: 'Agua purificada en botella individual.', sku: 'BEB-002', price: 5, discount: 0, stock: 120, category: 'bebidas', colors: ['#0ea5e9', '#e0f2fe'], label: 'AGUA' },
  { key: 'jugo-naranja', name: 'Jugo de naranja 1 L', description: 'Jugo 100 % natural, sin azúcar añadida.', sku: 'BEB-003', price: 18.5, discount: 0, stock: 4, category: 'bebidas', colors: ['#f97316', '#ffedd5'], label: 'JUGO' },
  { key: 'horchata', name: 'Horchata en polvo 400 g', description: 'Para preparar la horchata de siempre, con canela y morro.', sku: 'BEB-004', price: 22, discount: 15, stock: 15, category: 'bebidas', colors: ['#d6c6a5', '#fffbeb'], label: 'HORCHATA' },
  { key: 'refresco', name: 'Refresco de uva 3 L', description: 'Refresco familiar sabor uva.', sku: 'BEB-005', price: 21, discount: 0, stock: 0, category: 'bebidas', colors: ['#7e22ce', '#f3e8ff'], label: 'UVA' },
  { key: 'frijol-negro', name: 'Frijol negro 2 lb', description: 'Frijol negro seleccionado, de cocción rápida.', sku: 'ABA-001', price: 16, discount: 0, stock: 60, category: 'abarrotes', colors: ['#1f2937', '#e5e7eb'], label: 'FRIJOL' },
  { key: 'arroz', name: 'Arroz blanco 2 lb', description: 'Arroz de grano largo, 96 % grano entero.', sku: 'ABA-002', price: 12.5, discount: 0, stock: 45, category: 'abarrotes', colors: ['#f8fafc', '#94a3b8'], label: 'ARROZ' },
  { key: 'maseca', name: 'Harina de maíz 2 lb', description: 'Para tortillas, tamalitos y atol.', sku: 'ABA-003', price: 9.75, discount: 0, stock: 3, category: 'abarrotes', colors: ['#facc15', '#fef9c3'], label: 'MAÍZ' },
  { key: 'azucar', name: 'Azúcar morena 5 lb', description: 'Azúcar de caña guatemalteca.', sku: 'ABA-004', price: 24, discount: 5, stock: 30, category: 'abarrotes', colors: ['#a16207', '#fef3c7'], label: 'AZÚCAR' },
  { key: 'aceite', name: 'Aceite vegetal 900 ml', description: 'Aceite de cocina para freír y aderezar.', sku: 'ABA-005', price: 27.9, discount: 0, stock: 12, category: 'abarrotes', colors: ['#eab308', '#fefce8'], label: 'ACEITE' },
  { key: 'pasta', name: 'Coditos 200 g', description: 'Pasta de sémola para sopa.', sku: 'ABA-006', price: 4.5, discount: 0, stock: 80, category: 'abarrotes', colors: ['#f59e0b', '#fff7ed'], label: 'PASTA' },
  { key: 'sal', name: 'Sal yodada 1 kg', description: 'Sal de mesa yodada y fluorada.', sku: 'ABA-007', price: 3.5, discount: 0, stock: 0, category: 'abarrotes', colors: ['#64748b', '#f1f5f9'], label: 'SAL' },
  { key: 'leche', name: 'Leche entera 1 L', description: 'Leche pasteurizada de vaca.', sku: 'LAC-001', price: 13, discount: 0, stock: 36, category: 'lacteos', colors: ['#38bdf8', '#f0f9ff'], label: 'LECHE' },
  { key: 'crema', name: 'Crema pura 450 g', description: 'Crema fresca para frijoles y plátanos.', sku: 'LAC-002', price: 19.5, discount: 0, stock: 5, category: 'lacteos', colors: ['#fde68a', '#fffbeb'], label: 'CREMA' },
  { key: 'queso-fresco', name: 'Queso fresco 1 lb', description: 'Queso fresco artesanal.', sku: 'LAC-003', price: 32, discount: 20, stock: 8, category: 'lacteos', colors: ['#fef08a', '#78350f'], label: 'QUESO', images: 2 },
  { key: 'huevos', name: 'Huevos cartón de 30', description: 'Huevos frescos de granja, tamaño grande.', sku: 'LAC-004', price: 42, discount: 0, stock: 18, category: 'lacteos', colors: ['#fb923c', '#fff7ed'], label: 'HUEVOS' },
  { key: 'yogur', name: 'Yogur de fresa 1 L', description: 'Yogur bebible con trozos de fresa.', sku: 'LAC-005', price: 21.5, discount: 0, stock: 2, category: 'lacteos', colors: ['#f472b6', '#fdf2f8'], label: 'YOGUR', active: false },
  { key: 'aguacate', name: 'Aguacate Hass (unidad)', description: 'Aguacate cremoso, listo para guacamol.', sku: 'FRU-001', price: 6, discount: 0, stock: 50, category: 'frutas', colors: ['#3f6212', '#ecfccb'], label: 'AGUACATE', images: 3 },
  { key: 'platano', name: 'Plátano maduro (unidad)', description: 'Plátano para freír o en mole.', sku: 'FRU-002', price: 2.5, discount: 0, stock: 70, category: 'frutas', colors: ['#ca8a04', '#fef9c3'], label: 'PLÁTANO' },
  { key: 'tomate', name: 'Tomate 1 lb', description: 'Tomate de cocina, fresco del día.', sku: 'FRU-003', price: 5.5, discount: 0, stock: 1, category: 'frutas', colors: ['#dc2626', '#fee2e2'], label: 'TOMATE' },
  { key: 'limon', name: 'Limón criollo (docena)', description: 'Limones jugosos.', sku: 'FRU-004', price: 8, discount: 0, stock: 25, category: 'frutas', colors: ['#65a30d', '#f7fee7'], label: 'LIMÓN' },
  { key: 'papaya', name: 'Papaya (unidad)', description: 'Papaya dulce, de Retalhuleu.', sku: 'FRU-005', price: 15, discount: 10, stock: 6, category: 'frutas', colors: ['#ea580c', '#ffedd5'], label: 'PAPAYA' },
  { key: 'pan-frances', name: 'Pan francés (bolsa de 10)', description: 'Horneado esta mañana.', sku: 'PAN-001', price: 10, discount: 0, stock: 20, category: 'panaderia', colors: ['#b45309', '#fef3c7'], label: 'PAN' },
  { key: 'champurradas', name: 'Champurradas (paquete de 6)', description: 'Para acompañar el café de la tarde.', sku: 'PAN-002', price: 12, discount: 0, stock: 0, category: 'panaderia', colors: ['#d97706', '#fffbeb'], label: 'CHAMPURRADAS' },
  { key: 'pan-dulce', name: 'Pan dulce surtido (6)', description: 'Conchas, cachitos y shecas.', sku: 'PAN-003', price: 15, discount: 0, stock: 9, category: 'panaderia', colors: ['#f59e0b', '#fff7ed'], label: 'SHECAS' },
  { key: 'detergente', name: 'Detergente en polvo 1 kg', description: 'Para ropa blanca y de color.', sku: 'LIM-001', price: 23, discount: 0, stock: 14, category: 'limpieza', colors: ['#2563eb', '#dbeafe'], label: 'DETERGENTE' },
  { key: 'jabon', name: 'Jabón de barra (3 unidades)', description: 'Jabón para lavar a mano.', sku: 'LIM-002', price: 11, discount: 0, stock: 33, category: 'limpieza', colors: ['#0d9488', '#ccfbf1'], label: 'JABÓN' },
  { key: 'cloro', name: 'Cloro 1 L', description: 'Desinfectante para la casa.', sku: 'LIM-003', price: 8.5, discount: 0, stock: 4, category: 'limpieza', colors: ['#0891b2', '#cffafe'], label: 'CLORO' },
  { key: 'manias', name: 'Manías con chile 100 g', description: 'Manía tostada con limón y chile.', sku: 'SNK-001', price: 6, discount: 0, stock: 40, category: 'snacks', colors: ['#b91c1c', '#fef2f2'], label: 'MANÍAS' },
  { key: 'chocolate', name: 'Chocolate de taza 4 tabletas', description: 'Chocolate artesanal de Cobán.', sku: 'SNK-002', price: 18, discount: 25, stock: 11, category: 'snacks', colors: ['#451a03', '#fde68a'], label: 'CHOCOLATE' },
  { key: 'ricitos', name: 'Boquitas de queso 150 g', description: 'Boquitas horneadas sabor queso.', sku: 'SNK-003', price: 7.5, discount: 0, stock: 55, category: 'snacks', colors: ['#f97316', '#fff7ed'], label: 'BOQUITAS' },
];

/** A few approved reviews so the product pages show ratings and comments. */
export const DEMO_RATINGS: { key: string; product: string; rating: number; comment: string; customerName: string }[] = [
  { key: 'r1', product: 'cafe-antigua', rating: 5, comment: 'El mejor café que he probado, muy aromático.', customerName: 'María López' },
  { key: 'r2', product: 'cafe-antigua', rating: 4, comment: 'Muy bueno, llegó rápido.', customerName: 'Carlos Pérez' },
  { key: 'r3', product: 'aguacate', rating: 5, comment: 'Aguacates en su punto.', customerName: 'Ana Gómez' },
  { key: 'r4', product: 'queso-fresco', rating: 4, comment: 'Fresco y suave.', customerName: 'José Hernández' },
  { key: 'r5', product: 'chocolate', rating: 5, comment: 'Sabe a chocolate de abuelita.', customerName: 'Lucía Morales' },
];

export const DEMO_COMMENTS: { key: string; product: string; comment: string; customerName: string }[] = [
  { key: 'c1', product: 'cafe-antigua', comment: '¿Lo tienen en grano entero?', customerName: 'Pedro Ramírez' },
  { key: 'c2', product: 'pan-frances', comment: '¿A qué hora sale el pan de la tarde?', customerName: 'Sofía Castillo' },
];
