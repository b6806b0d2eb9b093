import type { OrderPlaced, PaymentMethod } from '@tiendita/contracts';
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
}

/** An OrderPlaced as ordering writes it: POS sales completed and paid, WhatsApp orders pending. */
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
    paymentStatus: pos ? 'paid' : 'pending',
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
