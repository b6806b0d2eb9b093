import type { OrderPlaced, PaymentRecorded } from '@tiendita/contracts';
import type { PostgresEventStore } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';

let seq = 0;

/** Lines of a sale (centavos): Café 3 × Q10.00, Pan 1 × Q3.33, Azúcar 2 × Q12.67 = Q58.67. */
export const LINES = [
  { productId: randomUUID(), productName: 'Café', sku: null, quantity: 3, unitPrice: 1000, lineTotal: 3000 },
  { productId: randomUUID(), productName: 'Pan dulce', sku: null, quantity: 1, unitPrice: 333, lineTotal: 333 },
  { productId: randomUUID(), productName: 'Azúcar', sku: null, quantity: 2, unitPrice: 1267, lineTotal: 2534 },
];

/** An OrderPlaced as ordering writes it since payments exist (paymentStatus 'pending'). */
export function orderPlaced(storeId: string, over: Partial<OrderPlaced> = {}): OrderPlaced {
  seq += 1;
  const total = LINES.reduce((s, l) => s + l.lineTotal, 0);
  return {
    orderId: randomUUID(),
    storeId,
    code: `F${String(seq).padStart(6, '0')}`,
    orderType: 'pos',
    status: 'completed',
    paymentMethod: 'cash',
    paymentStatus: 'pending',
    customerName: 'Juan Pérez',
    customerPhone: null,
    customerAddress: null,
    customerEmail: null,
    customerNit: null,
    notes: null,
    items: LINES,
    subtotal: total - 629,
    tax: 629,
    total,
    cashReceived: null,
    change: null,
    whatsappMessage: null,
    placedBy: 'owner',
    placedAt: new Date().toISOString(),
    ...over,
  };
}

export function payment(order: OrderPlaced, amount: number, paidTotal: number): PaymentRecorded {
  return {
    orderId: order.orderId,
    storeId: order.storeId,
    paymentId: randomUUID(),
    method: 'cash',
    amount,
    reference: null,
    cashReceived: null,
    change: null,
    paidTotal,
    paymentStatus: paidTotal >= order.total ? 'paid' : 'partial',
    recordedBy: 'Ana',
    recordedById: randomUUID(),
    recordedAt: new Date().toISOString(),
  };
}

/** A POS sale as ordering appends it: [OrderPlaced, PaymentRecorded] in one append. */
export async function posSale(store: PostgresEventStore, order: OrderPlaced) {
  return store.append(
    `order-${order.orderId}`,
    [
      { type: 'OrderPlaced', data: order },
      { type: 'PaymentRecorded', data: payment(order, order.total, order.total) },
    ],
    0,
    { storeId: order.storeId },
  );
}

export async function cancel(store: PostgresEventStore, order: OrderPlaced, version: number, notes: string | null) {
  return store.append(
    `order-${order.orderId}`,
    [{ type: 'OrderStatusChanged', data: { orderId: order.orderId, storeId: order.storeId, status: 'cancelled', previousStatus: order.status, notes, changedBy: 'Ana', changedAt: new Date().toISOString() } }],
    version,
    { storeId: order.storeId },
  );
}

/** Money given back on its own (POST /api/orders/{id}/refunds), not a cancellation's. */
export async function refund(store: PostgresEventStore, order: OrderPlaced, version: number, amount: number, paidTotal: number, reason: string | null) {
  const refundId = randomUUID();
  await store.append(
    `order-${order.orderId}`,
    [
      {
        type: 'PaymentRefunded',
        data: { orderId: order.orderId, storeId: order.storeId, refundId, method: 'cash', amount, reason, paidTotal, refundedBy: 'Ana', refundedById: randomUUID(), refundedAt: new Date().toISOString() },
      },
    ],
    version,
    { storeId: order.storeId },
  );
  return refundId;
}

/** A paid sale cancelled as ordering writes it: the status change, then the refund of what was paid. */
export async function cancelPaid(store: PostgresEventStore, order: OrderPlaced, version: number, notes: string) {
  const at = new Date().toISOString();
  await store.append(
    `order-${order.orderId}`,
    [
      { type: 'OrderStatusChanged', data: { orderId: order.orderId, storeId: order.storeId, status: 'cancelled', previousStatus: order.status, notes, changedBy: 'Ana', changedAt: at } },
      {
        type: 'PaymentRefunded',
        data: { orderId: order.orderId, storeId: order.storeId, refundId: randomUUID(), method: 'cash', amount: order.total, reason: notes, paidTotal: 0, refundedBy: 'Ana', refundedById: randomUUID(), refundedAt: at },
      },
    ],
    version,
    { storeId: order.storeId },
  );
}
