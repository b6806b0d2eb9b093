/** '1 pedido', '3 pedidos'. */
export const ordersText = (n: number) => `${n} ${n === 1 ? 'pedido' : 'pedidos'}`;
/** '1 pago', '3 pagos'. */
export const paymentsText = (n: number) => `${n} ${n === 1 ? 'pago' : 'pagos'}`;
export { REPORT_CHANNEL_LABELS as CHANNEL_LABELS } from '@tiendita/contracts';
