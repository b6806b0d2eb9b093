/**
 * The heading and one-line description of owner screens: the screen draws them, and the first screen
 * (owner-first-screen.ts) paints the same text in the same place before the app's JavaScript has run.
 */
export const SCREEN_HEADERS: Record<string, { title: string; description: string }> = {
  '/orders': { title: 'Pedidos', description: 'Los pedidos de tu tienda en línea, de WhatsApp y del punto de venta, con su estado y sus pagos.' },
};
