import { legacyPaymentRecordMethod, type OrderPlaced, type OrderStatus, type PaymentRecordMethod, type PaymentStatus } from '@tiendita/contracts';
import type { OrderEvent } from './order.events';

/** Net paid by each method, centavos (payments − refunds). */
export type PaidByMethod = Record<PaymentRecordMethod, number>;

export interface PlacedOrderState {
  status: 'placed';
  order: OrderPlaced;
  current: OrderStatus;
  updatedAt: string;
  /** Net paid (payments − refunds), centavos. */
  paid: number;
  paidBy: PaidByMethod;
  /** Ids of the payments and refunds recorded (a repeated one records nothing). */
  paymentIds: readonly string[];
  refundIds: readonly string[];
}

export type OrderState = { status: 'none' } | PlacedOrderState;

const noneBy = (): PaidByMethod => ({ cash: 0, card: 0, transfer: 0, other: 0 });

/** Payment status from what is owed and what was paid: nothing paid is pending (refunded once something came back), all of it is paid. */
export function paymentStatusOf(total: number, paid: number, refunded: boolean): PaymentStatus {
  if (paid <= 0) return refunded ? 'refunded' : 'pending';
  return paid >= total ? 'paid' : 'partial';
}

/** What is still owed, centavos. */
export const balanceDue = (s: PlacedOrderState): number => Math.max(0, s.order.total - s.paid);

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderPlaced': {
      if (state.status !== 'none') return state;
      const o = event.data;
      const paidBy = noneBy();
      // Written before payments existed: a paid order is one payment of its total by its method.
      if (o.paymentStatus === 'paid') paidBy[legacyPaymentRecordMethod(o.paymentMethod)] = o.total;
      const paid = o.paymentStatus === 'paid' ? o.total : 0;
      return { status: 'placed', order: o, current: o.status, updatedAt: o.placedAt, paid, paidBy, paymentIds: [], refundIds: [] };
    }
    case 'OrderStatusChanged':
      if (state.status !== 'placed') return state;
      return { ...state, current: event.data.status, updatedAt: event.data.changedAt };
    case 'PaymentRecorded': {
      if (state.status !== 'placed') return state;
      const d = event.data;
      return { ...state, paid: state.paid + d.amount, paidBy: { ...state.paidBy, [d.method]: state.paidBy[d.method] + d.amount }, paymentIds: [...state.paymentIds, d.paymentId] };
    }
    case 'PaymentRefunded': {
      if (state.status !== 'placed') return state;
      const d = event.data;
      return { ...state, paid: state.paid - d.amount, paidBy: { ...state.paidBy, [d.method]: state.paidBy[d.method] - d.amount }, refundIds: [...state.refundIds, d.refundId] };
    }
    default:
      return state;
  }
}
