import { type OrderPlaced, type OrderStatus, paymentStatusOf } from '@tiendita/contracts';
import type { ChangeOrderStatus, PlaceOrder, StoreSnapshot } from './order.commands';
import type { OrderEvent } from './order.events';

// Shared by the decider's specs: one store, one order, its events.

export const orderId = '11111111-1111-4111-8111-111111111111';
export const storeId = '22222222-2222-4222-8222-222222222222';
export const productId = '33333333-3333-4333-8333-333333333333';
export const paymentId = '44444444-4444-4444-8444-444444444444';
export const refundIds = ['55555555-5555-4555-8555-555555555551', '55555555-5555-4555-8555-555555555552', '55555555-5555-4555-8555-555555555553', '55555555-5555-4555-8555-555555555554'];
export const at = '2026-01-02T00:00:00.000Z';

export const placed: OrderPlaced = {
  orderId,
  storeId,
  code: 'ABC234',
  orderType: 'whatsapp',
  status: 'pending',
  paymentMethod: 'whatsapp',
  paymentStatus: 'pending',
  customerName: 'Ana',
  customerPhone: '55551234',
  customerAddress: null,
  customerEmail: null,
  customerNit: null,
  notes: null,
  items: [{ productId, productName: 'Café', sku: null, quantity: 2, unitPrice: 2500, lineTotal: 5000 }],
  subtotal: 4464,
  tax: 536,
  total: 5000,
  cashReceived: null,
  change: null,
  whatsappMessage: 'hola',
  placedBy: 'Ana',
  placedAt: '2026-01-01T00:00:00.000Z',
};
export const placedEvent: OrderEvent = { type: 'OrderPlaced', data: placed };

export const store: StoreSnapshot = { id: storeId, isActive: true, allowOnlineOrders: true, whatsappNumber: '5555-1234', requireCustomerInfo: false, taxRate: 0.12 };

/** A checkout's PlaceOrder: a public order of two coffees unless told otherwise. */
export function placeOrder(over: Partial<PlaceOrder['command']> = {}, snapshot: Partial<PlaceOrder['snapshot']> = {}): PlaceOrder {
  return {
    type: 'PlaceOrder',
    command: {
      kind: 'public',
      orderId,
      storeId,
      code: 'ABC234',
      customer: { name: 'Ana', phone: '55551234', address: null, email: null, nit: null },
      notes: null,
      paymentMethod: null,
      cashReceived: null,
      paymentId: null,
      placedBy: 'Ana',
      placedById: 'public',
      placedAt: placed.placedAt,
      ...over,
    },
    snapshot: { store, lines: placed.items, ...snapshot },
  };
}

const changed = (status: OrderStatus, previousStatus: OrderStatus): OrderEvent => ({
  type: 'OrderStatusChanged',
  data: { orderId, storeId, status, previousStatus, notes: null, changedBy: 'Dueña', changedAt: at },
});

/** The events that bring a fresh order to `status` (forward steps, or a cancellation). */
export function historyTo(status: OrderStatus): OrderEvent[] {
  const path: OrderStatus[] = ['pending', 'confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed'];
  if (status === 'cancelled') return [placedEvent, changed('cancelled', 'pending')];
  const events: OrderEvent[] = [placedEvent];
  for (let i = 1; i <= path.indexOf(status); i++) events.push(changed(path[i], path[i - 1]));
  return events;
}

export const change = (status: OrderStatus, over: Partial<ChangeOrderStatus> = {}): ChangeOrderStatus => ({
  type: 'ChangeOrderStatus',
  orderId,
  storeId,
  status,
  notes: 'nota',
  changedBy: 'Dueña',
  changedById: 'owner-1',
  changedAt: at,
  refundIds,
  ...over,
});

/** A PaymentRecorded as the decider writes it. */
export function paymentEvent(amount: number, paidTotal: number, over: Record<string, unknown> = {}): OrderEvent {
  return {
    type: 'PaymentRecorded',
    data: {
      orderId,
      storeId,
      paymentId,
      method: 'cash',
      amount,
      reference: null,
      cashReceived: null,
      change: null,
      paidTotal,
      paymentStatus: paymentStatusOf(placed.total, paidTotal, false),
      recordedBy: 'Dueña',
      recordedById: 'owner-1',
      recordedAt: at,
      ...over,
    },
  } as OrderEvent;
}
