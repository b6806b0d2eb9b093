import { legacyPaymentRecordMethod, type OrderPlaced, type OrderStatus, type PaymentRecordMethod, type PaymentStatus, paymentStatusOf } from '@tiendita/contracts';
import type { OrderEvent } from './order.events';

/** A payment as the order keeps it (centavos; `recordedBy` is the author's display name). */
export interface PaymentEntry {
  id: string;
  method: PaymentRecordMethod;
  amount: number;
  reference: string | null;
  cashReceived: number | null;
  change: number | null;
  recordedBy: string;
  recordedAt: string;
}

/** A refund as the order keeps it (centavos). */
export interface RefundEntry {
  id: string;
  method: PaymentRecordMethod;
  amount: number;
  reason: string | null;
  refundedBy: string;
  refundedAt: string;
}

/**
 * The payments an order starts with: none, or, for an order placed paid before payments existed
 * (no PaymentRecorded follows it), one payment of its total by its method.
 */
export function placedPayments(o: OrderPlaced): { payments: PaymentEntry[]; amountPaid: number } {
  if (o.paymentStatus !== 'paid') return { payments: [], amountPaid: 0 };
  const payment: PaymentEntry = {
    id: o.orderId,
    method: legacyPaymentRecordMethod(o.paymentMethod),
    amount: o.total,
    reference: null,
    cashReceived: o.cashReceived,
    change: o.change,
    recordedBy: o.placedBy,
    recordedAt: o.placedAt,
  };
  return { payments: [payment], amountPaid: o.total };
}

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
  paymentStatus: PaymentStatus;
  /** The payments and refunds recorded, in order (a repeated id records nothing). */
  payments: readonly PaymentEntry[];
  refunds: readonly RefundEntry[];
}

export type OrderState = { status: 'none' } | PlacedOrderState;

const noneBy = (): PaidByMethod => ({ cash: 0, card: 0, transfer: 0, other: 0 });

/** Payment status from what is owed and what was paid (the rule is contracts'). */
export { paymentStatusOf };

/** What is still owed, centavos. */
export const balanceDue = (s: PlacedOrderState): number => Math.max(0, s.order.total - s.paid);

/** The later of two ISO instants (an order's last change). */
const later = (a: string, b: string): string => (Date.parse(b) > Date.parse(a) ? b : a);

export function evolveOrder(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case 'OrderPlaced': {
      if (state.status !== 'none') return state;
      const o = event.data;
      const paidBy = noneBy();
      // Written before payments existed: a paid order is one payment of its total by its method.
      const { payments, amountPaid } = placedPayments(o);
      for (const p of payments) paidBy[p.method] += p.amount;
      return { status: 'placed', order: o, current: o.status, updatedAt: o.placedAt, paid: amountPaid, paidBy, paymentStatus: o.paymentStatus, payments, refunds: [] };
    }
    case 'OrderStatusChanged':
      if (state.status !== 'placed') return state;
      return { ...state, current: event.data.status, updatedAt: event.data.changedAt };
    case 'PaymentRecorded': {
      if (state.status !== 'placed') return state;
      const d = event.data;
      const entry: PaymentEntry = { id: d.paymentId, method: d.method, amount: d.amount, reference: d.reference, cashReceived: d.cashReceived, change: d.change, recordedBy: d.recordedBy, recordedAt: d.recordedAt };
      return {
        ...state,
        paid: state.paid + d.amount,
        paidBy: { ...state.paidBy, [d.method]: state.paidBy[d.method] + d.amount },
        paymentStatus: d.paymentStatus,
        payments: [...state.payments, entry],
        updatedAt: later(state.updatedAt, d.recordedAt),
      };
    }
    case 'PaymentRefunded': {
      if (state.status !== 'placed') return state;
      const d = event.data;
      const entry: RefundEntry = { id: d.refundId, method: d.method, amount: d.amount, reason: d.reason, refundedBy: d.refundedBy, refundedAt: d.refundedAt };
      return {
        ...state,
        paid: state.paid - d.amount,
        paidBy: { ...state.paidBy, [d.method]: state.paidBy[d.method] - d.amount },
        paymentStatus: paymentStatusOf(state.order.total, d.paidTotal, true),
        refunds: [...state.refunds, entry],
        updatedAt: later(state.updatedAt, d.refundedAt),
      };
    }
    default:
      return state;
  }
}
