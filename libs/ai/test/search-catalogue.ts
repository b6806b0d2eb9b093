/**
 * A fixed catalogue of 64 products of a hardware-and-home shop, and the table of queries a
 * shopper types with the products each must find in its first 3 results. Shared by the search
 * quality test and `npm run bench -- ai` (search_top3_hit_rate).
 */
export interface CatalogueProduct {
  name: string;
  category: string;
  /** Quetzales, final price (after discount). */
  price: number;
  description: string;
}

export const CATALOGUE: CatalogueProduct[] = [
  { name: 'Martíllo de uña 16 oz', category: 'Herramientas', price: 65, description: 'Mango de fibra de vidrio antideslizante, cabeza de acero forjado.' },
  { name: 'Martillo de goma', category: 'Herramientas', price: 45, description: 'Para cerámica y ensambles sin marcar la superficie.' },
  { name: 'Destornillador plano 6"', category: 'Herramientas', price: 18, description: 'Punta imantada, mango ergonómico.' },
  { name: 'Destornillador Phillips #2', category: 'Herramientas', price: 19, description: 'Punta de cruz imantada, acero cromo vanadio.' },
  { name: 'Juego de llaves Allen', category: 'Herramientas', price: 55, description: 'Nueve llaves hexagonales en estuche.' },
  { name: 'Llave ajustable 10"', category: 'Herramientas', price: 85, description: 'Llave cangrejo de acero con escala en milímetros.' },
  { name: 'Alicate universal 8"', category: 'Herramientas', price: 60, description: 'Pinza de corte y sujeción con mango aislado.' },
  { name: 'Sierra de mano para madera', category: 'Herramientas', price: 95, description: 'Hoja de 20 pulgadas con dientes templados.' },
  { name: 'Cinta métrica 5 m', category: 'Herramientas', price: 35, description: 'Flexómetro con freno y clip para cinturón.' },
  { name: 'Nivel de burbuja 24"', category: 'Herramientas', price: 70, description: 'Cuerpo de aluminio con tres burbujas.' },
  { name: 'Taladro percutor 600 W', category: 'Herramientas eléctricas', price: 450, description: 'Taladro con percusión para concreto, madera y metal, incluye brocas.' },
  { name: 'Pulidora angular 4 1/2"', category: 'Herramientas eléctricas', price: 520, description: 'Esmeriladora de 850 W para cortar y desbastar metal.' },
  { name: 'Sierra circular 7 1/4"', category: 'Herramientas eléctricas', price: 890, description: 'Motor de 1400 W, corte a 45 grados.' },
  { name: 'Atornillador inalámbrico 12 V', category: 'Herramientas eléctricas', price: 399, description: 'Batería de litio recargable, luz LED.' },
  { name: 'Juego de brocas para concreto', category: 'Herramientas eléctricas', price: 75, description: 'Cinco brocas con punta de carburo de 4 a 10 mm.' },
  { name: 'Tornillo para madera 1" (100 u)', category: 'Tornillería', price: 25, description: 'Caja de cien tornillos punta fina galvanizados.' },
  { name: 'Tornillo tablayeso 1 1/4" (100 u)', category: 'Tornillería', price: 22, description: 'Tornillos negros para paneles de yeso.' },
  { name: 'Clavos de acero 2" (libra)', category: 'Tornillería', price: 15, description: 'Clavos de concreto endurecidos.' },
  { name: 'Clavos para madera 3" (libra)', category: 'Tornillería', price: 12, description: 'Clavo corriente con cabeza plana.' },
  { name: 'Tarugos plásticos 1/4" (50 u)', category: 'Tornillería', price: 10, description: 'Anclajes para pared de block y concreto.' },
  { name: 'Tuerca hexagonal 3/8" (25 u)', category: 'Tornillería', price: 14, description: 'Tuercas de acero galvanizado.' },
  { name: 'Arandela plana 3/8" (25 u)', category: 'Tornillería', price: 8, description: 'Rondanas de acero galvanizado.' },
  { name: 'Pintura de aceite blanca galón', category: 'Pinturas', price: 210, description: 'Esmalte brillante para madera y metal, secado rápido.' },
  { name: 'Pintura látex lavable galón', category: 'Pinturas', price: 165, description: 'Pintura de agua para interiores, acabado mate.' },
  { name: 'Pintura en aerosol negra', category: 'Pinturas', price: 32, description: 'Spray de secado rápido para manualidades y retoques.' },
  { name: 'Brocha de 3"', category: 'Pinturas', price: 20, description: 'Cerdas naturales para pintura de aceite.' },
  { name: 'Rodillo de felpa 9"', category: 'Pinturas', price: 38, description: 'Rodillo para paredes con mango de plástico.' },
  { name: 'Thinner litro', category: 'Pinturas', price: 28, description: 'Diluyente para pintura de aceite y limpieza de brochas.' },
  { name: 'Lija de agua grano 220', category: 'Pinturas', price: 5, description: 'Pliego de lija para acabados finos.' },
  { name: 'Foco LED 9 W luz blanca', category: 'Electricidad', price: 16, description: 'Bombilla de bajo consumo, rosca E27.' },
  { name: 'Foco LED 15 W luz cálida', category: 'Electricidad', price: 24, description: 'Bombilla ahorradora de luz amarilla.' },
  { name: 'Cable eléctrico THHN 12 (metro)', category: 'Electricidad', price: 7, description: 'Alambre de cobre con forro para instalaciones.' },
  { name: 'Extensión eléctrica 5 m', category: 'Electricidad', price: 55, description: 'Tres tomas con polo a tierra.' },
  { name: 'Tomacorriente doble', category: 'Electricidad', price: 18, description: 'Enchufe de pared blanco de 15 A.' },
  { name: 'Interruptor sencillo', category: 'Electricidad', price: 15, description: 'Apagador de pared para luz.' },
  { name: 'Cinta de aislar negra', category: 'Electricidad', price: 9, description: 'Cinta aislante de vinilo 18 m.' },
  { name: 'Linterna recargable', category: 'Electricidad', price: 89, description: 'Lámpara LED de mano con batería y cargador USB.' },
  { name: 'Tubo PVC 1/2" (6 m)', category: 'Plomería', price: 35, description: 'Tubería para agua potable.' },
  { name: 'Codo PVC 1/2"', category: 'Plomería', price: 3, description: 'Accesorio de 90 grados para tubería.' },
  { name: 'Llave de paso 1/2"', category: 'Plomería', price: 48, description: 'Válvula de bronce para cortar el agua.' },
  { name: 'Pegamento para PVC 1/8 galón', category: 'Plomería', price: 42, description: 'Cemento solvente para unir tubos.' },
  { name: 'Grifo para lavamanos', category: 'Plomería', price: 175, description: 'Chorro cromado de una llave para baño.' },
  { name: 'Cinta teflón', category: 'Plomería', price: 4, description: 'Sellador de roscas para tubería.' },
  { name: 'Manguera de jardín 15 m', category: 'Jardín', price: 120, description: 'Manguera reforzada con pistola de riego.' },
  { name: 'Pala cuadrada', category: 'Jardín', price: 95, description: 'Pala de acero con mango de madera.' },
  { name: 'Azadón', category: 'Jardín', price: 85, description: 'Para trabajar la tierra y limpiar terrenos.' },
  { name: 'Machete 22"', category: 'Jardín', price: 60, description: 'Machete de acero templado con cacha plástica.' },
  { name: 'Tijera de podar', category: 'Jardín', price: 58, description: 'Para ramas y plantas de hasta 2 cm.' },
  { name: 'Abono orgánico 25 lb', category: 'Jardín', price: 45, description: 'Fertilizante natural para plantas y hortalizas.' },
  { name: 'Carretilla de metal', category: 'Jardín', price: 650, description: 'Carreta de construcción con llanta neumática.' },
  { name: 'Escoba de plástico', category: 'Limpieza', price: 22, description: 'Cerdas suaves para interiores.' },
  { name: 'Trapeador de algodón', category: 'Limpieza', price: 30, description: 'Mopa absorbente con palo de madera.' },
  { name: 'Cubeta plástica 12 L', category: 'Limpieza', price: 25, description: 'Balde resistente con asa de metal.' },
  { name: 'Cloro galón', category: 'Limpieza', price: 20, description: 'Blanqueador y desinfectante.' },
  { name: 'Detergente en polvo 1 kg', category: 'Limpieza', price: 27, description: 'Jabón para ropa con aroma floral.' },
  { name: 'Guantes de hule', category: 'Limpieza', price: 14, description: 'Guantes de látex para limpieza y jardinería.' },
  { name: 'Candado de acero 40 mm', category: 'Seguridad', price: 48, description: 'Candado con dos llaves y arco endurecido.' },
  { name: 'Chapa para puerta principal', category: 'Seguridad', price: 235, description: 'Cerradura de doble cilindro con tres llaves.' },
  { name: 'Casco de seguridad', category: 'Seguridad', price: 40, description: 'Casco de obra con suspensión ajustable.' },
  { name: 'Lentes de protección', category: 'Seguridad', price: 19, description: 'Gafas transparentes contra impactos y polvo.' },
  { name: 'Mascarilla contra polvo (10 u)', category: 'Seguridad', price: 30, description: 'Respirador desechable para lijado y obra.' },
  { name: 'Cemento gris 42.5 kg', category: 'Construcción', price: 82, description: 'Saco de cemento para concreto y repello.' },
  { name: 'Block de concreto 15 cm', category: 'Construcción', price: 6, description: 'Block estructural para muros.' },
  { name: 'Varilla de hierro 3/8"', category: 'Construcción', price: 38, description: 'Barra corrugada de 6 metros para columnas.' },
];

/** A shopper's query and the product names any of which must appear in the first 3 results. */
export interface QueryCase {
  query: string;
  expect: string[];
  /** What it checks. */
  kind: 'accent' | 'typo' | 'plural' | 'category' | 'price' | 'description' | 'name';
}

export const QUERIES: QueryCase[] = [
  { query: 'martillo', expect: ['Martíllo de uña 16 oz', 'Martillo de goma'], kind: 'accent' },
  { query: 'MARTILLO DE UÑA', expect: ['Martíllo de uña 16 oz'], kind: 'accent' },
  { query: 'martillos', expect: ['Martíllo de uña 16 oz', 'Martillo de goma'], kind: 'plural' },
  { query: 'tornilo', expect: ['Tornillo para madera 1" (100 u)', 'Tornillo tablayeso 1 1/4" (100 u)'], kind: 'typo' },
  { query: 'tornillos para madera', expect: ['Tornillo para madera 1" (100 u)'], kind: 'plural' },
  { query: 'destornilador', expect: ['Destornillador plano 6"', 'Destornillador Phillips #2'], kind: 'typo' },
  { query: 'taladro', expect: ['Taladro percutor 600 W'], kind: 'name' },
  { query: 'taldro', expect: ['Taladro percutor 600 W'], kind: 'typo' },
  { query: 'pulidora', expect: ['Pulidora angular 4 1/2"'], kind: 'name' },
  { query: 'esmeriladora', expect: ['Pulidora angular 4 1/2"'], kind: 'description' },
  { query: 'focos', expect: ['Foco LED 9 W luz blanca', 'Foco LED 15 W luz cálida'], kind: 'plural' },
  { query: 'luz calida', expect: ['Foco LED 15 W luz cálida'], kind: 'accent' },
  { query: 'extension electrica', expect: ['Extensión eléctrica 5 m'], kind: 'accent' },
  { query: 'pintura blanca', expect: ['Pintura de aceite blanca galón'], kind: 'name' },
  { query: 'pinturas', expect: ['Pintura de aceite blanca galón', 'Pintura látex lavable galón', 'Pintura en aerosol negra'], kind: 'category' },
  { query: 'brochas', expect: ['Brocha de 3"'], kind: 'plural' },
  { query: 'jardin', expect: ['Manguera de jardín 15 m', 'Pala cuadrada', 'Azadón', 'Machete 22"', 'Tijera de podar', 'Abono orgánico 25 lb', 'Carretilla de metal'], kind: 'category' },
  { query: 'plomeria', expect: ['Tubo PVC 1/2" (6 m)', 'Codo PVC 1/2"', 'Llave de paso 1/2"', 'Pegamento para PVC 1/8 galón', 'Grifo para lavamanos', 'Cinta teflón'], kind: 'category' },
  { query: 'limpieza', expect: ['Escoba de plástico', 'Trapeador de algodón', 'Cubeta plástica 12 L', 'Cloro galón', 'Detergente en polvo 1 kg', 'Guantes de hule'], kind: 'category' },
  { query: 'seguridad', expect: ['Candado de acero 40 mm', 'Chapa para puerta principal', 'Casco de seguridad', 'Lentes de protección', 'Mascarilla contra polvo (10 u)'], kind: 'category' },
  { query: 'herramientas electricas', expect: ['Taladro percutor 600 W', 'Pulidora angular 4 1/2"', 'Sierra circular 7 1/4"', 'Atornillador inalámbrico 12 V', 'Juego de brocas para concreto'], kind: 'category' },
  { query: 'manguera', expect: ['Manguera de jardín 15 m'], kind: 'name' },
  { query: 'mangera', expect: ['Manguera de jardín 15 m'], kind: 'typo' },
  { query: 'carretila', expect: ['Carretilla de metal'], kind: 'typo' },
  { query: 'candados', expect: ['Candado de acero 40 mm'], kind: 'plural' },
  { query: 'cerradura', expect: ['Chapa para puerta principal'], kind: 'description' },
  { query: 'fertilizante para plantas', expect: ['Abono orgánico 25 lb'], kind: 'description' },
  { query: 'bateria recargable', expect: ['Atornillador inalámbrico 12 V', 'Linterna recargable'], kind: 'description' },
  { query: 'menos de 10', expect: ['Lija de agua grano 220', 'Codo PVC 1/2"', 'Cinta teflón', 'Block de concreto 15 cm', 'Cable eléctrico THHN 12 (metro)', 'Arandela plana 3/8" (25 u)', 'Cinta de aislar negra', 'Tarugos plásticos 1/4" (50 u)'], kind: 'price' },
  { query: 'entre Q20 y Q25', expect: ['Brocha de 3"', 'Cloro galón', 'Tornillo tablayeso 1 1/4" (100 u)', 'Foco LED 15 W luz cálida', 'Escoba de plástico', 'Tornillo para madera 1" (100 u)', 'Cubeta plástica 12 L'], kind: 'price' },
  { query: 'herramientas baratas', expect: ['Destornillador plano 6"', 'Destornillador Phillips #2', 'Cinta métrica 5 m'], kind: 'price' },
  { query: 'taladro de menos de 500', expect: ['Taladro percutor 600 W'], kind: 'price' },
  { query: 'pintura menos de 50', expect: ['Pintura en aerosol negra', 'Brocha de 3"', 'Rodillo de felpa 9"', 'Thinner litro', 'Lija de agua grano 220'], kind: 'price' },
  { query: 'algo barato de limpieza', expect: ['Guantes de hule', 'Cloro galón', 'Escoba de plástico'], kind: 'price' },
  { query: 'cemento', expect: ['Cemento gris 42.5 kg'], kind: 'name' },
  { query: 'varillas de hierro', expect: ['Varilla de hierro 3/8"'], kind: 'plural' },
  { query: 'clavos', expect: ['Clavos de acero 2" (libra)', 'Clavos para madera 3" (libra)'], kind: 'name' },
  { query: 'guantes', expect: ['Guantes de hule'], kind: 'name' },
  { query: 'tijeras', expect: ['Tijera de podar'], kind: 'plural' },
  { query: 'teflon', expect: ['Cinta teflón'], kind: 'accent' },
  { query: 'azadon', expect: ['Azadón'], kind: 'accent' },
];
