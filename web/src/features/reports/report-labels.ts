/** '1 pedido', '3 pedidos'. */
export const ordersText = (n: number) => `${n} ${n === 1 ? 'pedido' : 'pedidos'}`;
/** '1 pago', '3 pagos'. */
export const paymentsText = (n: number) => `${n} ${n === 1 ? 'pago' : 'pagos'}`;
/** The channels as the report screens name them. */
export const CHANNEL_LABELS: Record<'whatsapp' | 'pos', string> = { whatsapp: 'WhatsApp', pos: 'Punto de venta' };
