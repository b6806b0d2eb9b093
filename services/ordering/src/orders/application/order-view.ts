import type { OrderLine, OrderStatus, OrderView, PaymentRecordMethod, PublicOrderResponse } from '@tiendita/contracts';
import { toQuetzales } from '@tiendita/contracts';
import type { OrderPlaced } from '@tiendita/contracts';
import type { PaymentEntry, PlacedOrderState, RefundEntry } from '../domain/order.state';
import { whatsappUrl } from './pricing';

export type { PaymentEntry, RefundEntry } from '../domain/order.state';

/** A row of ordering.orders. */
export interface OrderRow {
  id: string;
  store_id: string;
  code: string;
  customer_name: string | null;
  customer_phone: string | null;
  customer_address: string | null;
  customer_email: string | null;
  customer_nit: string | null;
  subtotal: string;
  tax: string;
  total: string;
  status: OrderStatus;
  order_type: 'whatsapp' | 'pos';
  payment_method: OrderView['paymentMethod'];
  payment_status: OrderView['paymentStatus'];
  notes: string | null;
  whatsapp_message: string | null;
  items: OrderLine[];
  cash_received: string | null;
  change: string | null;
  payments: PaymentEntry[];
  refunds: RefundEntry[];
  amount_paid: string;
  created_at: Date;
  updated_at: Date;
}

/**
 * The order's row as the orders projection writes it after the same events, from the write model's
 * state: a command answers with it at once instead of waiting for the projection to catch up.
 */
export function stateRow(s: PlacedOrderState): OrderRow {
  const o = s.order;
  return {
    id: o.orderId,
    store_id: o.storeId,
    code: o.code,
    customer_name: o.customerName,
    customer_phone: o.customerPhone,
    customer_address: o.customerAddress,
    customer_email: o.customerEmail,
    customer_nit: o.customerNit,
    subtotal: String(o.subtotal),
    tax: String(o.tax),
    total: String(o.total),
    status: s.current,
    order_type: o.orderType,
    payment_method: o.paymentMethod,
    payment_status: s.paymentStatus,
    notes: o.notes,
    whatsapp_message: o.whatsappMessage,
    items: o.items,
    cash_received: o.cashReceived === null ? null : String(o.cashReceived),
    change: o.change === null ? null : String(o.change),
    payments: [...s.payments],
    refunds: [...s.refunds],
    amount_paid: String(s.paid),
    created_at: new Date(o.placedAt),
    updated_at: new Date(s.updatedAt),
  };
}

const money = (v: string | number | null): number | null => (v === null ? null : toQuetzales(Number(v)));

export function lineView(l: OrderLine) {
  const view = { productId: l.productId, productName: l.productName, sku: l.sku, quantity: l.quantity, price: toQuetzales(l.unitPrice), lineTotal: toQuetzales(l.lineTotal) };
  // An offline sale at an old price (issue 28): the catalogue's price then, beside the one charged.
  return l.listPrice === undefined ? view : { ...view, listPrice: toQuetzales(l.listPrice) };
}

/** Every author an order's row names (payments and refunds), for AuthorNames.display. */
export function rowAuthors(rows: readonly OrderRow[]): string[] {
  return rows.flatMap((r) => [...(r.payments ?? []).map((p) => p.recordedBy), ...(r.refunds ?? []).map((p) => p.refundedBy)]);
}

/** The order as the owner API answers it (quetzales); `name` turns a recorded author into a display name. */
export function orderView(r: OrderRow, name: (author: string) => string): OrderView {
  const total = Number(r.total);
  const paid = Number(r.amount_paid ?? 0);
  return {
    id: r.id,
    storeId: r.store_id,
    code: r.code,
    customerName: r.customer_name,
    customerPhone: r.customer_phone,
    customerAddress: r.customer_address,
    customerEmail: r.customer_email,
    customerNit: r.customer_nit,
    subtotal: toQuetzales(Number(r.subtotal)),
    tax: toQuetzales(Number(r.tax)),
    total: toQuetzales(total),
    status: r.status,
    orderType: r.order_type,
    paymentMethod: r.payment_method,
    paymentStatus: r.payment_status,
    notes: r.notes,
    whatsappMessage: r.whatsapp_message,
    items: r.items.map(lineView),
    cashReceived: money(r.cash_received),
    change: money(r.change),
    payments: (r.payments ?? []).map((p) => ({
      id: p.id,
      method: p.method,
      amount: toQuetzales(p.amount),
      reference: p.reference,
      cashReceived: money(p.cashReceived),
      change: money(p.change),
      recordedBy: name(p.recordedBy),
      recordedAt: p.recordedAt,
    })),
    refunds: (r.refunds ?? []).map((p) => ({ id: p.id, method: p.method, amount: toQuetzales(p.amount), reason: p.reason, refundedBy: name(p.refundedBy), refundedAt: p.refundedAt })),
    amountPaid: toQuetzales(paid),
    balanceDue: toQuetzales(Math.max(0, total - paid)),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** The shopper's answer to a public order, from its event (not waiting for the owner's list). */
export function publicAnswer(o: OrderPlaced, whatsappNumber: string | null): PublicOrderResponse {
  const message = o.whatsappMessage ?? '';
  return {
    id: o.orderId,
    code: o.code,
    status: 'pending',
    items: o.items.map(lineView),
    subtotal: toQuetzales(o.subtotal),
    tax: toQuetzales(o.tax),
    total: toQuetzales(o.total),
    whatsappMessage: message,
    whatsappUrl: whatsappUrl(whatsappNumber, message),
  };
}
