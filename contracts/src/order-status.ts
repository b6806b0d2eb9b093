// The order status flow, the payment statuses and the Spanish names the screens, the receipt, the
// exports and the services print for them: one home (issue 24). zod-free, so the browser can import
// it from `@tiendita/contracts/constants` without the schemas; the types below cost nothing at run time.
import type { OrderStatus, OrderType, PaymentMethod, PaymentRecordMethod, PaymentStatus } from './ordering-events';

/** The forward flow of spec 001 §4, in order (cancelled is off the flow). */
export const ORDER_STATUS_FLOW: readonly OrderStatus[] = ['pending', 'confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed'];

/** Every order status, the flow first and then cancelled. */
export const ORDER_STATUSES: readonly OrderStatus[] = [...ORDER_STATUS_FLOW, 'cancelled'];

/** The forward step of each status (spec §4). */
export const ORDER_NEXT_STATUS: Partial<Record<OrderStatus, OrderStatus>> = {
  pending: 'confirmed',
  confirmed: 'preparing',
  preparing: 'ready',
  ready: 'out_for_delivery',
  out_for_delivery: 'delivered',
  delivered: 'completed',
};

/** Statuses from which an order can no longer be cancelled (spec §4). */
export const ORDER_NOT_CANCELLABLE: readonly OrderStatus[] = ['completed', 'cancelled', 'delivered'];

/** Whether an order may go from one status to another: its next forward step, or cancelled unless it is completed, cancelled or delivered. */
export function canChangeOrderStatus(from: OrderStatus, to: OrderStatus): boolean {
  if (to === 'cancelled') return !ORDER_NOT_CANCELLABLE.includes(from);
  return ORDER_NEXT_STATUS[from] === to;
}

/** The statuses an owner may move an order to: the next forward step, then cancel when allowed. */
export function allowedNextStatuses(status: OrderStatus): OrderStatus[] {
  const next: OrderStatus[] = [];
  const forward = ORDER_NEXT_STATUS[status];
  if (forward) next.push(forward);
  if (!ORDER_NOT_CANCELLABLE.includes(status)) next.push('cancelled');
  return next;
}

/** Spanish names of the statuses (screens, receipt, exports, messages). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pendiente',
  confirmed: 'Confirmado',
  preparing: 'En preparación',
  ready: 'Listo',
  out_for_delivery: 'En camino',
  delivered: 'Entregado',
  completed: 'Completado',
  cancelled: 'Cancelado',
};

/** Colour of each status chip (antd preset colour names). */
export const ORDER_STATUS_COLORS: Record<OrderStatus, string> = {
  pending: 'gold',
  confirmed: 'blue',
  preparing: 'geekblue',
  ready: 'cyan',
  out_for_delivery: 'purple',
  delivered: 'lime',
  completed: 'green',
  cancelled: 'red',
};

/** Spanish names of the payment statuses. */
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: 'Pendiente',
  partial: 'Pago parcial',
  paid: 'Pagado',
  refunded: 'Reembolsado',
  failed: 'Fallido',
};

/** Colour of each payment status chip (antd preset colour names). */
export const PAYMENT_STATUS_COLORS: Record<PaymentStatus, string> = {
  pending: 'gold',
  partial: 'orange',
  paid: 'green',
  refunded: 'purple',
  failed: 'red',
};

/** The payment statuses the orders list filters by (GET /api/orders?paymentStatus=…). */
export const PAYMENT_STATUS_FILTERS: readonly PaymentStatus[] = ['pending', 'partial', 'paid', 'refunded'];

/** Spanish names of the payment methods: those a payment is recorded with, and the legacy ones of old orders. */
export const PAYMENT_METHOD_LABELS: Record<PaymentRecordMethod | PaymentMethod, string> = {
  cash: 'Efectivo',
  card: 'Tarjeta',
  transfer: 'Transferencia',
  other: 'Otro',
  whatsapp: 'WhatsApp',
  kash: 'Kash',
  zigi: 'Zigi',
};

/** The methods a payment or a refund is recorded with, in the order the screens offer them. */
export const PAYMENT_RECORD_METHODS: readonly PaymentRecordMethod[] = ['cash', 'card', 'transfer', 'other'];

/** The Spanish name of a payment method ('' for none). */
export function paymentMethodLabel(method: PaymentRecordMethod | PaymentMethod | null | undefined): string {
  return method ? PAYMENT_METHOD_LABELS[method] : '';
}

/**
 * How a legacy order's payment method counts as a recorded payment: an OrderPlaced written before
 * payments existed (paymentStatus 'paid', no PaymentRecorded) is one payment of its total by this
 * method (cash and card stay; 'whatsapp', 'kash' and 'zigi' are 'other').
 */
export function legacyPaymentRecordMethod(method: PaymentMethod | null): PaymentRecordMethod {
  return method === 'cash' || method === 'card' ? method : 'other';
}

/** Spanish names of the order types. */
export const ORDER_TYPE_LABELS: Record<OrderType, string> = { whatsapp: 'WhatsApp', pos: 'POS' };
