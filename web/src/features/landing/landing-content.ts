/** Marketing claims of spec 000 §1, shown on the hero, the statistics band and the closing call to action. */
export const MARKETING_STATS = [
  { value: '2,500+', label: 'Negocios confían en nosotros' },
  { value: '150K+', label: 'Productos vendidos' },
  { value: 'Q5M+', label: 'En ventas procesadas' },
  { value: '98%', label: 'Clientes satisfechos' },
] as const;

export const TRIAL_DAYS = 14;

export const SALES_EMAIL = 'ventas@tiendita.gt';
export const SUPPORT_EMAIL = 'soporte@tiendita.gt';
export const CONTACT_EMAIL = 'hola@tiendita.gt';

export function mailto(address: string, subject: string): string {
  return `mailto:${address}?subject=${encodeURIComponent(subject)}`;
}

export const FEATURES = [
  {
    key: 'catalogue',
    title: 'Catálogo Digital',
    text: 'Muestra tus productos con fotos, precios y descripciones en una tienda en línea con su propia dirección.',
    more: 'Organiza tus productos por categorías, aplica descuentos y comparte el enlace de tu tienda en redes sociales.',
  },
  {
    key: 'whatsapp',
    title: 'Pedidos por WhatsApp',
    text: 'Tus clientes arman su pedido y te llega a WhatsApp con un mensaje listo con cada producto y el total.',
    more: 'Sin aplicaciones extra: confirma, prepara y entrega cada pedido desde tu panel.',
  },
  {
    key: 'pos',
    title: 'Sistema POS',
    text: 'Vende en tu local con un punto de venta rápido que emite facturas y calcula el cambio.',
    more: 'Cobra en efectivo, con tarjeta o por transferencia; cada venta descuenta tu inventario.',
  },
  {
    key: 'inventory',
    title: 'Control de Inventario',
    text: 'Conoce tus existencias al día y recibe alertas cuando un producto se está agotando.',
    more: 'Registra entradas, salidas y ajustes, y consulta el historial de cada movimiento.',
  },
  {
    key: 'reports',
    title: 'Reportes y Analytics',
    text: 'Mira tus ventas del día, de la semana y del mes, y descubre cuáles productos se venden más.',
    more: 'Reportes por período con la hora de Guatemala, listos para descargar.',
  },
  {
    key: 'mobile',
    title: '100% Móvil',
    text: 'Administra tu negocio desde el celular: tu tienda y tu panel se ven bien en cualquier pantalla.',
    more: 'Tus clientes compran desde el teléfono, incluso con conexiones lentas.',
  },
] as const;
