import { MAX_AMOUNT_CENTAVOS, ORDER_STATUS_LABELS, OrderMessages, type OrderPlaced, type OrderStatus, type PaymentRecordMethod, canChangeOrderStatus } from '@tiendita/contracts';
import { assertNever, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { DEFAULT_TAX_RATE, totals, whatsappMessage } from '../application/pricing';
import type { ChangeOrderStatus, ExpireOrder, OrderCommand, PlaceOrder, RecordPayment, RefundPayment } from './order.commands';
import type { OrderEvent } from './order.events';
import { balanceDue, type OrderState, paymentStatusOf, type PlacedOrderState } from './order.state';

/** Whether the status flow of spec §4 allows `from` → `to` (the table lives in contracts). */
export const canChangeStatus = canChangeOrderStatus;

export function illegalChangeMessage(from: OrderStatus, to: OrderStatus): string {
  return `No se puede pasar el pedido de ${ORDER_STATUS_LABELS[from]} a ${ORDER_STATUS_LABELS[to]}`;
}

const invalid = (message: string, field: string): ValidationError => new ValidationError(message, { fields: { [field]: message } });

/** Every rule of an order: placement, status flow, payments and refunds. Pure: the events, or a typed error. */
export function decideOrder(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case 'PlaceOrder':
      return state.status === 'none' ? placeOrder(command) : [];
    case 'ChangeOrderStatus':
      return changeStatus(command, placedIn(state, command.storeId));
    case 'ExpireOrder':
      return state.status === 'placed' && state.current === 'pending' ? expire(command, state) : [];
    case 'RecordPayment':
      return recordPayment(command, placedIn(state, command.storeId));
    case 'RefundPayment':
      return refundPayment(command, placedIn(state, command.storeId));
    default:
      return assertNever(command);
  }
}

/** The order, if it exists in the caller's store; another store's order is not found (never tell which). */
function placedIn(state: OrderState, storeId: string): PlacedOrderState {
  if (state.status !== 'placed' || state.order.storeId !== storeId) throw new NotFoundError(OrderMessages.orderNotFound);
  return state;
}

function placeOrder({ command: c, snapshot }: PlaceOrder): OrderEvent[] {
  const store = snapshot.store;
  if (c.kind === 'public') {
    if (!store || !store.isActive) throw new NotFoundError(OrderMessages.storeNotFound);
    // Orders go to the store's WhatsApp: without a number there is nowhere to send them (issue 13).
    if (!store.allowOnlineOrders || !store.whatsappNumber?.trim()) throw new IllegalStateError(OrderMessages.onlineOrdersOff);
    if (!c.customer.name || !c.customer.phone) throw invalid(OrderMessages.customerRequired, 'name');
    if (store.requireCustomerInfo && !c.customer.address) throw invalid(OrderMessages.addressRequired, 'address');
  } else if (c.paymentMethod === 'kash' || c.paymentMethod === 'zigi') {
    const label = c.paymentMethod === 'kash' ? 'Kash' : 'Zigi';
    throw new ValidationError(`${OrderMessages.comingSoon}: el pago con ${label} aún no está disponible.`, { fields: { paymentMethod: OrderMessages.comingSoon } });
  }
  const lines = snapshot.lines;
  if (lines.length === 0) throw invalid(OrderMessages.emptyCart, 'items');
  if (lines.some((l) => l.lineTotal > MAX_AMOUNT_CENTAVOS)) throw invalid(OrderMessages.lineTooLarge, 'items');
  const sums = totals(lines, store?.taxRate ?? DEFAULT_TAX_RATE);
  if (sums.total > MAX_AMOUNT_CENTAVOS) throw invalid(OrderMessages.totalTooLarge, 'items');
  const base = {
    orderId: c.orderId,
    storeId: c.storeId,
    code: c.code,
    customerName: c.customer.name ?? OrderMessages.defaultPosCustomer,
    customerPhone: c.customer.phone,
    customerAddress: c.customer.address,
    customerEmail: c.customer.email,
    customerNit: c.customer.nit,
    notes: c.notes,
    items: lines,
    ...sums,
    placedBy: c.placedBy,
    placedAt: c.placedAt,
  };
  if (c.kind === 'public') {
    const message = whatsappMessage({ code: c.code, lines, total: sums.total, name: base.customerName, phone: c.customer.phone ?? '', address: c.customer.address, notes: c.notes });
    const order: OrderPlaced = { ...base, orderType: 'whatsapp', status: 'pending', paymentMethod: 'whatsapp', paymentStatus: 'pending', cashReceived: null, change: null, whatsappMessage: message };
    return [{ type: 'OrderPlaced', data: order }];
  }
  // A POS sale is completed and paid at once: its payment is recorded in the same append.
  const method = c.paymentMethod === 'card' ? 'card' : 'cash';
  let cashReceived: number | null = null;
  let change: number | null = null;
  if (method === 'cash') {
    cashReceived = c.cashReceived ?? sums.total;
    if (cashReceived > MAX_AMOUNT_CENTAVOS) throw invalid(OrderMessages.amountTooLarge, 'cashReceived');
    if (cashReceived < sums.total) throw invalid(OrderMessages.insufficientPayment, 'cashReceived');
    change = cashReceived - sums.total;
  }
  const order: OrderPlaced = { ...base, orderType: 'pos', status: 'completed', paymentMethod: method, paymentStatus: 'pending', cashReceived, change, whatsappMessage: null };
  if (c.offline) order.offline = c.offline;
  // A card sale made offline was never checked with the terminal's bank: it is recorded with its payment
  // pending, for the owner to confirm by recording the payment (issue 28, isCardPendingConfirmation).
  if (c.offline && method === 'card') return [{ type: 'OrderPlaced', data: order }];
  return [
    { type: 'OrderPlaced', data: order },
    {
      type: 'PaymentRecorded',
      data: {
        orderId: c.orderId,
        storeId: c.storeId,
        paymentId: c.paymentId ?? c.orderId,
        method,
        amount: sums.total,
        reference: null,
        cashReceived,
        change,
        paidTotal: sums.total,
        paymentStatus: 'paid',
        recordedBy: c.placedBy,
        recordedById: c.placedById,
        recordedAt: c.placedAt,
      },
    },
  ];
}

function changeStatus(c: ChangeOrderStatus, s: PlacedOrderState): OrderEvent[] {
  if (!canChangeStatus(s.current, c.status)) throw new IllegalStateError(illegalChangeMessage(s.current, c.status), { from: s.current, to: c.status });
  const changed: OrderEvent = {
    type: 'OrderStatusChanged',
    data: { orderId: c.orderId, storeId: c.storeId, status: c.status, previousStatus: s.current, notes: c.notes, changedBy: c.changedBy, changedAt: c.changedAt },
  };
  if (c.status !== 'cancelled' || s.paid <= 0) return [changed];
  // Cancelling a paid order gives the money back: one refund by the method named, else one per method paid.
  const refunds: Array<[PaymentRecordMethod, number]> = c.refundMethod ? [[c.refundMethod, s.paid]] : refundsByMethod(s);
  const ids = c.refundIds ?? [];
  let paid = s.paid;
  const events: OrderEvent[] = [changed];
  refunds.forEach(([method, amount], i) => {
    paid -= amount;
    const refundId = ids[i];
    if (!refundId) throw new Error('Falta el id de un reembolso');
    events.push({
      type: 'PaymentRefunded',
      data: { orderId: c.orderId, storeId: c.storeId, refundId, method, amount, reason: c.notes ?? 'Pedido cancelado', paidTotal: paid, refundedBy: c.changedBy, refundedById: c.changedById, refundedAt: c.changedAt },
    });
  });
  return events;
}

/** The net paid spread over the methods it came by (a method refunded beyond its payments counts for nothing). */
function refundsByMethod(s: PlacedOrderState): Array<[PaymentRecordMethod, number]> {
  let left = s.paid;
  const out: Array<[PaymentRecordMethod, number]> = [];
  for (const method of ['cash', 'card', 'transfer', 'other'] as const) {
    const amount = Math.min(left, Math.max(0, s.paidBy[method]));
    if (amount > 0) out.push([method, amount]);
    left -= amount;
  }
  if (left > 0) out.push(['other', left]);
  return out;
}

function expire(c: ExpireOrder, s: PlacedOrderState): OrderEvent[] {
  return [
    {
      type: 'OrderStatusChanged',
      data: { orderId: c.orderId, storeId: s.order.storeId, status: 'cancelled', previousStatus: 'pending', notes: c.notes, changedBy: 'system', changedAt: c.changedAt },
    },
  ];
}

function checkAmount(amount: number): void {
  if (!Number.isInteger(amount) || amount < 1) throw invalid(OrderMessages.amountInvalid, 'amount');
  if (amount > MAX_AMOUNT_CENTAVOS) throw invalid(OrderMessages.amountTooLarge, 'amount');
}

function recordPayment(c: RecordPayment, s: PlacedOrderState): OrderEvent[] {
  if (s.payments.some((p) => p.id === c.paymentId)) return [];
  if (s.current === 'cancelled') throw new IllegalStateError(OrderMessages.paymentOnCancelled);
  checkAmount(c.amount);
  if (c.amount > balanceDue(s)) throw invalid(OrderMessages.paymentOverBalance, 'amount');
  let change: number | null = null;
  if (c.cashReceived !== null) {
    if (c.method !== 'cash') throw invalid(OrderMessages.cashReceivedOnlyCash, 'cashReceived');
    if (c.cashReceived > MAX_AMOUNT_CENTAVOS) throw invalid(OrderMessages.amountTooLarge, 'cashReceived');
    if (c.cashReceived < c.amount) throw invalid(OrderMessages.insufficientPayment, 'cashReceived');
    change = c.cashReceived - c.amount;
  }
  const paidTotal = s.paid + c.amount;
  return [
    {
      type: 'PaymentRecorded',
      data: {
        orderId: c.orderId,
        storeId: c.storeId,
        paymentId: c.paymentId,
        method: c.method,
        amount: c.amount,
        reference: c.reference,
        cashReceived: c.cashReceived,
        change,
        paidTotal,
        paymentStatus: paymentStatusOf(s.order.total, paidTotal, s.refunds.length > 0),
        recordedBy: c.recordedBy,
        recordedById: c.recordedById,
        recordedAt: c.recordedAt,
      },
    },
  ];
}

function refundPayment(c: RefundPayment, s: PlacedOrderState): OrderEvent[] {
  if (s.refunds.some((r) => r.id === c.refundId)) return [];
  checkAmount(c.amount);
  if (c.amount > s.paid) throw invalid(OrderMessages.refundOverPaid, 'amount');
  return [
    {
      type: 'PaymentRefunded',
      data: {
        orderId: c.orderId,
        storeId: c.storeId,
        refundId: c.refundId,
        method: c.method,
        amount: c.amount,
        reason: c.reason,
        paidTotal: s.paid - c.amount,
        refundedBy: c.refundedBy,
        refundedById: c.refundedById,
        refundedAt: c.refundedAt,
      },
    },
  ];
}
