import type { OrderPlaced, PaymentMethod, PaymentRecorded, PaymentRecordMethod, PaymentRefunded } from '@tiendita/contracts';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

let seq = 0;

export interface OrderSpec {
  storeId: string;
  orderType: 'whatsapp' | 'pos';
  paymentMethod: PaymentMethod | null;
  placedAt: string;
  lines: { productId: string; productName: string; quantity: number; unitPrice: number }[];
  customerName?: string;
  paymentStatus?: OrderPlaced['paymentStatus'];
}

/**
 * An OrderPlaced as ordering wrote it before payments existed: POS sales completed and paid,
 * WhatsApp orders pending (`paymentStatus` overrides it: ordering now places every order pending).
 */
export function orderPlaced(spec: OrderSpec): OrderPlaced {
  seq += 1;
  const items = spec.lines.map((l) => ({ productId: l.productId, productName: l.productName, sku: null, quantity: l.quantity, unitPrice: l.unitPrice, lineTotal: l.quantity * l.unitPrice }));
  const total = items.reduce((s, i) => s + i.lineTotal, 0);
  const pos = spec.orderType === 'pos';
  return {
    orderId: randomUUID(),
    storeId: spec.storeId,
    code: `P${String(seq).padStart(6, '0')}`,
    orderType: spec.orderType,
    status: pos ? 'completed' : 'pending',
    paymentMethod: spec.paymentMethod,
    paymentStatus: spec.paymentStatus ?? (pos ? 'paid' : 'pending'),
    customerName: spec.customerName ?? (pos ? 'Cliente de mostrador' : 'María Pérez'),
    customerPhone: pos ? null : '50212345678',
    customerAddress: null,
    customerEmail: null,
    customerNit: null,
    notes: null,
    items,
    subtotal: total,
    tax: 0,
    total,
    cashReceived: null,
    change: null,
    whatsappMessage: null,
    placedBy: pos ? 'owner' : 'public',
    placedAt: spec.placedAt,
  };
}

/** Ordering's real event store (schema 'ordering'), as the ordering service writes it. */
export function orderingStore(pool: pg.Pool): PostgresEventStore {
  return new PostgresEventStore(pool, 'ordering');
}

export async function place(store: PostgresEventStore, order: OrderPlaced) {
  return store.append(`order-${order.orderId}`, [{ type: 'OrderPlaced', data: order }], 0, { storeId: order.storeId, occurredAt: order.placedAt });
}

export async function changeStatus(store: PostgresEventStore, order: OrderPlaced, status: OrderPlaced['status'], previousStatus: OrderPlaced['status'], version: number, at: string) {
  return store.append(
    `order-${order.orderId}`,
    [{ type: 'OrderStatusChanged', data: { orderId: order.orderId, storeId: order.storeId, status, previousStatus, notes: null, changedBy: 'owner', changedAt: at } }],
    version,
    { storeId: order.storeId, occurredAt: at },
  );
}

/** A payment as ordering records it (PaymentRecorded); centavos. */
export function paymentRecorded(order: OrderPlaced, p: { method: PaymentRecordMethod; amount: number; paidTotal: number; at: string; by?: string; cashReceived?: number }): PaymentRecorded {
  return {
    orderId: order.orderId,
    storeId: order.storeId,
    paymentId: randomUUID(),
    method: p.method,
    amount: p.amount,
    reference: p.method === 'transfer' ? 'BI-778812' : null,
    cashReceived: p.cashReceived ?? null,
    change: p.cashReceived === undefined ? null : p.cashReceived - p.amount,
    paidTotal: p.paidTotal,
    paymentStatus: p.paidTotal >= order.total ? 'paid' : 'partial',
    recordedBy: p.by ?? 'Rosa López',
    recordedById: randomUUID(),
    recordedAt: p.at,
  };
}

/** A refund as ordering records it (PaymentRefunded); centavos. */
export function paymentRefunded(order: OrderPlaced, r: { method: PaymentRecordMethod; amount: number; paidTotal: number; at: string; reason?: string }): PaymentRefunded {
  return {
    orderId: order.orderId,
    storeId: order.storeId,
    refundId: randomUUID(),
    method: r.method,
    amount: r.amount,
    reason: r.reason ?? null,
    paidTotal: r.paidTotal,
    refundedBy: 'Rosa López',
    refundedById: randomUUID(),
    refundedAt: r.at,
  };
}

/** Appends events to an order's stream at the version it is at. */
export async function appendToOrder(store: PostgresEventStore, order: OrderPlaced, version: number, events: { type: string; data: unknown }[]) {
  return store.append(`order-${order.orderId}`, events, version, { storeId: order.storeId });
}
