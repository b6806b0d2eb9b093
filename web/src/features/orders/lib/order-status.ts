import type { OrderStatus, OrderType, PaymentMethod, PaymentStatus } from '../api/types';

/** Spanish names of the order statuses of spec 001 §4. */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pendiente',
  confirmed: 'Confirmado',
  preparing: 'En preparación',
  ready: 'Listo',
  out_for_delivery: 'En camino',
  delivered: 'Entregado',
  completed: 'Completado',
  cancelled: 'Cancelado',
};

export const STATUS_COLORS: Record<OrderStatus, string> = {
  pending: 'gold',
  confirmed: 'blue',
  preparing: 'geekblue',
  ready: 'cyan',
  out_for_delivery: 'purple',
  delivered: 'lime',
  completed: 'green',
  cancelled: 'red',
};

export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = { pending: 'Pendiente', paid: 'Pagado', failed: 'Fallido' };
export const PAYMENT_STATUS_COLORS: Record<PaymentStatus, string> = { pending: 'gold', paid: 'green', failed: 'red' };
export const ORDER_TYPE_LABELS: Record<OrderType, string> = { whatsapp: 'WhatsApp', pos: 'POS' };
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  cash: 'Efectivo',
  card: 'Tarjeta',
  kash: 'Kash',
  zigi: 'Zigi',
  whatsapp: 'WhatsApp',
};

/** The forward flow of spec 001 §4, in order. */
export const STATUS_FLOW: readonly OrderStatus[] = ['pending', 'confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed'];

const FORWARD: Partial<Record<OrderStatus, OrderStatus>> = {
  pending: 'confirmed',
  confirmed: 'preparing',
  preparing: 'ready',
  ready: 'out_for_delivery',
  out_for_delivery: 'delivered',
  delivered: 'completed',
};

const NOT_CANCELLABLE: readonly OrderStatus[] = ['completed', 'cancelled', 'delivered'];

/** The states an owner may move an order to: the next forward step, and cancel except from completed, cancelled, delivered. */
export function allowedNextStatuses(status: OrderStatus): OrderStatus[] {
  const next: OrderStatus[] = [];
  const forward = FORWARD[status];
  if (forward) next.push(forward);
  if (!NOT_CANCELLABLE.includes(status)) next.push('cancelled');
  return next;
}

/** The last 8 characters of an order id, as the list shows it. */
export function shortId(id: string): string {
  return id.slice(-8);
}
