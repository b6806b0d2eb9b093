import { DEFAULT_TAX_RATE } from './vat';

/** The 22 departments of Guatemala, in the order the register form lists them. */
export const DEPARTMENTS = [
  'Alta Verapaz', 'Baja Verapaz', 'Chimaltenango', 'Chiquimula', 'El Progreso', 'Escuintla', 'Guatemala',
  'Huehuetenango', 'Izabal', 'Jalapa', 'Jutiapa', 'Petén', 'Quetzaltenango', 'Quiché', 'Retalhuleu',
  'Sacatepéquez', 'San Marcos', 'Santa Rosa', 'Sololá', 'Suchitepéquez', 'Totonicapán', 'Zacapa',
] as const;
export type Department = (typeof DEPARTMENTS)[number];

/** The 14 business types, with their Spanish label and preset category names. */
export const BUSINESS_TYPES = [
  { value: 'electronics', label: 'Electrónica', presets: ['Celulares', 'Computadoras', 'Accesorios', 'Audio'] },
  { value: 'fashion', label: 'Moda y Ropa', presets: ['Ropa de Mujer', 'Ropa de Hombre', 'Calzado', 'Accesorios'] },
  { value: 'grocery', label: 'Abarrotes y Supermercado', presets: ['Granos Básicos', 'Lácteos', 'Bebidas', 'Limpieza'] },
  { value: 'hardware', label: 'Ferretería', presets: ['Herramientas', 'Electricidad', 'Plomería', 'Pinturas'] },
  { value: 'restaurant', label: 'Restaurante y Comida', presets: ['Desayunos', 'Almuerzos', 'Bebidas', 'Postres'] },
  { value: 'pharmacy', label: 'Farmacia', presets: ['Medicamentos', 'Cuidado Personal', 'Vitaminas', 'Bebés'] },
  { value: 'beauty', label: 'Belleza y Cuidado Personal', presets: ['Maquillaje', 'Cuidado del Cabello', 'Cuidado de la Piel', 'Perfumes'] },
  { value: 'jewelry', label: 'Joyería y Accesorios', presets: ['Anillos', 'Collares', 'Aretes', 'Relojes'] },
  { value: 'automotive', label: 'Automotriz', presets: ['Repuestos', 'Lubricantes', 'Llantas', 'Accesorios'] },
  { value: 'home', label: 'Hogar y Decoración', presets: ['Muebles', 'Cocina', 'Decoración', 'Jardín'] },
  { value: 'sports', label: 'Deportes', presets: ['Ropa Deportiva', 'Calzado Deportivo', 'Equipo', 'Suplementos'] },
  { value: 'books', label: 'Librería y Papelería', presets: ['Libros', 'Útiles Escolares', 'Oficina', 'Arte'] },
  { value: 'pets', label: 'Mascotas', presets: ['Alimento', 'Accesorios', 'Higiene', 'Juguetes'] },
  { value: 'other', label: 'Otro', presets: ['Productos', 'Servicios', 'Categoría 1', 'Categoría 2'] },
] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number]['value'];
export const BUSINESS_TYPE_VALUES = BUSINESS_TYPES.map((b) => b.value) as [BusinessType, ...BusinessType[]];

/** The preset category names of a business type (none for a type that is not one of the 14). */
export function businessTypePresets(businessType: string | null | undefined): readonly string[] {
  return BUSINESS_TYPES.find((b) => b.value === businessType)?.presets ?? [];
}

/** Paths a subdomain may not take: it would shadow an owner route, an API or a public route. */
export const RESERVED_SUBDOMAINS = [
  'api', 'tienda', 'login', 'register', 'forgot-password', 'reset-password', 'dashboard', 'products', 'orders',
  'pos', 'reports', 'inventory', 'settings', 'profile', 'admin', 'assets', 'uploads', 'objects', 'temp-uploads', 'static',
  'public', 'health', 'logout', 'www', 'app', 'demo-admin', 'favicon.ico', 'robots.txt', 'sitemap.xml',
] as const;

/** Store defaults of the spec. */
export const STORE_DEFAULTS = {
  primaryColor: '#0ea5e9',
  secondaryColor: '#0284c7',
  accentColor: '#dc2626',
  isActive: true,
  allowOnlineOrders: true,
  requireCustomerInfo: false,
  aiDescriptionLength: 'normal',
} as const;

export const STORE_SETTINGS_DEFAULTS = {
  taxRate: DEFAULT_TAX_RATE,
  currency: 'GTQ',
  kashEnabled: false,
  zigiEnabled: false,
  printReceipts: true,
} as const;

/**
 * Subdomain derived while typing the store name: accents folded first ('Ñandú' → 'nandu', so
 * Spanish names keep their letters), then the spec's rule: lowercase, drop everything but a-z, 0-9
 * and whitespace, whitespace to hyphens, cut to 50 characters.
 */
export function deriveSubdomain(storeName: string): string {
  return storeName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9\s]/g, '')
    .replace(/\s+/g, '-')
    .slice(0, 50);
}
