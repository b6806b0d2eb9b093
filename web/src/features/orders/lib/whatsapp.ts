import { whatsappLink } from '@tiendita/contracts';
import { formatMoney } from '../../../lib/format';
import type { OrderStatus, OrderView } from '../api/types';

const STATUS_LINES: Record<OrderStatus, string> = {
  pending: 'recibimos tu pedido y lo revisaremos en breve.',
  confirmed: 'tu pedido fue confirmado. Pronto empezaremos a prepararlo.',
  preparing: 'estamos preparando tu pedido.',
  ready: '¡tu pedido está listo! Puedes pasar a recogerlo o lo enviaremos en breve.',
  out_for_delivery: 'tu pedido va en camino.',
  delivered: 'tu pedido fue entregado. ¡Gracias por tu compra!',
  completed: 'tu pedido está completado. ¡Gracias por comprar con nosotros!',
  cancelled: 'tu pedido fue cancelado. Si tienes dudas, escríbenos por aquí.',
};

/** The Spanish message to the customer about an order's (new) status. */
export function statusMessage(order: Pick<OrderView, 'code' | 'customerName' | 'total'>, status: OrderStatus, storeName?: string): string {
  const name = order.customerName?.trim() ? ` ${order.customerName.trim()}` : '';
  const from = storeName ? ` Te saluda ${storeName}.` : '';
  return `Hola${name},${from} Sobre tu pedido ${order.code} (total ${formatMoney(order.total)}): ${STATUS_LINES[status]}`;
}

/** A wa.me link to the customer with the status message prefilled, or null without a phone. */
export function customerWhatsappUrl(order: Pick<OrderView, 'code' | 'customerName' | 'total' | 'customerPhone'>, status: OrderStatus, storeName?: string): string | null {
  return whatsappLink(order.customerPhone, statusMessage(order, status, storeName));
}
