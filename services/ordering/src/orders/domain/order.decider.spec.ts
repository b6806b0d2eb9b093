import { ORDER_STATUS_LABELS, type OrderPlaced, OrderStatus } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { type ChangeOrderStatus, canChangeStatus, type OrderEvent, orderDecider } from './order.decider';

const spec = deciderSpec(orderDecider);
const orderId = '11111111-1111-4111-8111-111111111111';
const storeId = '22222222-2222-4222-8222-222222222222';
const placed: OrderPlaced = {
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
  items: [{ productId: '33333333-3333-4333-8333-333333333333', productName: 'Café', sku: null, quantity: 2, unitPrice: 2500, lineTotal: 5000 }],
  subtotal: 4464,
  tax: 536,
  total: 5000,
  cashReceived: null,
  change: null,
  whatsappMessage: 'hola',
  placedBy: 'public',
  placedAt: '2026-01-01T00:00:00.000Z',
};
const placedEvent: OrderEvent = { type: 'OrderPlaced', data: placed };
const at = '2026-01-02T00:00:00.000Z';

/** The events that bring a fresh order to `status` (forward steps, or a cancellation). */
function historyTo(status: OrderStatus): OrderEvent[] {
  const path: OrderStatus[] = ['pending', 'confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed'];
  const events: OrderEvent[] = [placedEvent];
  if (status === 'cancelled') {
    events.push({ type: 'OrderStatusChanged', data: { orderId, storeId, status: 'cancelled', previousStatus: 'pending', notes: null, changedBy: 'owner', changedAt: at } });
    return events;
  }
  for (let i = 1; i <= path.indexOf(status); i++) {
    events.push({ type: 'OrderStatusChanged', data: { orderId, storeId, status: path[i], previousStatus: path[i - 1], notes: null, changedBy: 'owner', changedAt: at } });
  }
  return events;
}

const change = (status: OrderStatus): ChangeOrderStatus => ({ type: 'ChangeOrderStatus', orderId, storeId, status, notes: 'nota', changedBy: 'owner', changedAt: at });

const allowed: Array<[OrderStatus, OrderStatus]> = [
  ['pending', 'confirmed'],
  ['confirmed', 'preparing'],
  ['preparing', 'ready'],
  ['ready', 'out_for_delivery'],
  ['out_for_delivery', 'delivered'],
  ['delivered', 'completed'],
  ['pending', 'cancelled'],
  ['confirmed', 'cancelled'],
  ['preparing', 'cancelled'],
  ['ready', 'cancelled'],
  ['out_for_delivery', 'cancelled'],
];
const isAllowed = (from: OrderStatus, to: OrderStatus) => allowed.some(([f, t]) => f === from && t === to);
const pairs = OrderStatus.options.flatMap((from) => OrderStatus.options.map((to) => [from, to] as [OrderStatus, OrderStatus]));

describe('Order decider', () => {
  it('places an order once; placing it again (a retry with the same key) appends nothing', () => {
    spec.given([]).when({ type: 'PlaceOrder', order: placed }).then([placedEvent]);
    spec.given([placedEvent]).when({ type: 'PlaceOrder', order: placed }).then([]);
  });

  it.each(pairs.filter(([f, t]) => isAllowed(f, t)))('%s → %s is allowed and recorded with the previous status and the note', (from, to) => {
    expect(canChangeStatus(from, to)).toBe(true);
    spec
      .given(historyTo(from))
      .when(change(to))
      .then([{ type: 'OrderStatusChanged', data: { orderId, storeId, status: to, previousStatus: from, notes: 'nota', changedBy: 'owner', changedAt: at } }]);
  });

  it.each(pairs.filter(([f, t]) => !isAllowed(f, t)))('%s → %s is refused with 409 naming both statuses', (from, to) => {
    expect(canChangeStatus(from, to)).toBe(false);
    spec
      .given(historyTo(from))
      .when(change(to))
      .thenThrows(IllegalStateError, `No se puede pasar el pedido de ${ORDER_STATUS_LABELS[from]} a ${ORDER_STATUS_LABELS[to]}`);
  });

  it('the example message of the brief', () => {
    spec.given(historyTo('delivered')).when(change('pending')).thenThrows(IllegalStateError, 'No se puede pasar el pedido de Entregado a Pendiente');
  });

  it("another store's order, or no order, is not found", () => {
    spec.given(historyTo('pending')).when({ ...change('confirmed'), storeId: orderId }).thenThrows(NotFoundError, 'Pedido no encontrado');
    spec.given([]).when(change('confirmed')).thenThrows(NotFoundError, 'Pedido no encontrado');
  });

  it('the system cancels a pending order once; a confirmed or already cancelled order is left alone', () => {
    const expire = { type: 'ExpireOrder' as const, orderId, notes: 'vencido', changedAt: at };
    spec
      .given(historyTo('pending'))
      .when(expire)
      .then([{ type: 'OrderStatusChanged', data: { orderId, storeId, status: 'cancelled', previousStatus: 'pending', notes: 'vencido', changedBy: 'system', changedAt: at } }]);
    spec.given(historyTo('cancelled')).when(expire).then([]);
    spec.given(historyTo('confirmed')).when(expire).then([]);
  });
});
