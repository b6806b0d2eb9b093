import { ORDER_STATUS_LABELS, OrderStatus } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { canChangeStatus, orderDecider } from './order.decider';
import { at, change, historyTo, orderId, placed, placedEvent, placeOrder, store, storeId } from './order.fixtures';

const spec = deciderSpec(orderDecider);

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

describe('Order decider: placing an order', () => {
  it('a public order is placed pending, with its totals (IVA contained) and its WhatsApp message; placing it again appends nothing', () => {
    const [event] = spec.given([]).when(placeOrder()).events();
    expect(event).toMatchObject({ type: 'OrderPlaced', data: { orderId, status: 'pending', orderType: 'whatsapp', paymentStatus: 'pending', total: 5000, tax: 536, subtotal: 4464 } });
    expect((event.data as typeof placed).whatsappMessage).toContain('Pedido: ABC234');
    spec.given([placedEvent]).when(placeOrder()).then([]);
  });

  it("a store that is missing or inactive answers 'Tienda No Encontrada'", () => {
    spec.given([]).when(placeOrder({}, { store: null })).thenThrows(NotFoundError, 'Tienda No Encontrada');
    spec.given([]).when(placeOrder({}, { store: { ...store, isActive: false } })).thenThrows(NotFoundError, 'Tienda No Encontrada');
  });

  it('online orders off, or no WhatsApp number, refuses with 409', () => {
    const message = 'Esta tienda no está aceptando pedidos en línea por ahora.';
    spec.given([]).when(placeOrder({}, { store: { ...store, allowOnlineOrders: false } })).thenThrows(IllegalStateError, message);
    spec.given([]).when(placeOrder({}, { store: { ...store, whatsappNumber: ' ' } })).thenThrows(IllegalStateError, message);
  });

  it('the shopper’s name and phone are required; the address when the store asks for it', () => {
    const customer = { name: 'Ana', phone: null, address: null, email: null, nit: null };
    spec.given([]).when(placeOrder({ customer })).thenThrows(ValidationError, 'Datos incompletos: Por favor completa tu nombre y teléfono.');
    spec
      .given([])
      .when(placeOrder({}, { store: { ...store, requireCustomerInfo: true } }))
      .thenThrows(ValidationError, 'Datos incompletos: Por favor completa tu dirección de entrega.');
  });

  it('an empty cart, a line or a total above Q99,999,999.99 is refused', () => {
    spec.given([]).when(placeOrder({}, { lines: [] })).thenThrows(ValidationError, 'Carrito Vacío');
    const line = { ...placed.items[0], quantity: 100_000, unitPrice: 100_000_00, lineTotal: 100_000 * 100_000_00 };
    spec.given([]).when(placeOrder({}, { lines: [line] })).thenThrows(ValidationError, 'El total de una línea no puede ser mayor que Q99,999,999.99.');
    const big = { ...placed.items[0], quantity: 1, unitPrice: 6_000_000_000, lineTotal: 6_000_000_000 };
    spec.given([]).when(placeOrder({}, { lines: [big, { ...big, productId: orderId }] })).thenThrows(ValidationError, 'El total del pedido no puede ser mayor que Q99,999,999.99.');
  });

  it('a POS cash sale is completed with its payment recorded in the same events, with change', () => {
    const sale = placeOrder({ kind: 'pos', paymentMethod: 'cash', cashReceived: 6000, paymentId: storeId, placedBy: 'Dueña', placedById: 'owner-1' });
    const events = spec.given([]).when(sale).events();
    expect(events.map((e) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
    expect(events[0].data).toMatchObject({ orderType: 'pos', status: 'completed', paymentMethod: 'cash', paymentStatus: 'pending', cashReceived: 6000, change: 1000, whatsappMessage: null });
    expect(events[1].data).toMatchObject({ paymentId: storeId, method: 'cash', amount: 5000, cashReceived: 6000, change: 1000, paidTotal: 5000, paymentStatus: 'paid', recordedBy: 'Dueña' });
    // Without cash received, the total was handed over; a card sale has none.
    expect(spec.given([]).when({ ...sale, command: { ...sale.command, cashReceived: null } }).events()[1].data).toMatchObject({ cashReceived: 5000, change: 0 });
    expect(spec.given([]).when({ ...sale, command: { ...sale.command, paymentMethod: 'card' } }).events()[1].data).toMatchObject({ method: 'card', cashReceived: null, change: null });
  });

  it('too little cash, and kash or zigi, are refused with the spec’s messages', () => {
    const sale = placeOrder({ kind: 'pos', paymentMethod: 'cash', cashReceived: 4999, paymentId: storeId });
    spec.given([]).when(sale).thenThrows(ValidationError, 'Pago Insuficiente: El monto recibido es menor al total de la venta');
    spec.given([]).when({ ...sale, command: { ...sale.command, paymentMethod: 'kash' } }).thenThrows(ValidationError, 'Próximamente: el pago con Kash aún no está disponible.');
    spec.given([]).when({ ...sale, command: { ...sale.command, paymentMethod: 'zigi' } }).thenThrows(ValidationError, /^Próximamente/);
  });
});

describe('Order decider: the status flow', () => {
  it.each(pairs.filter(([f, t]) => isAllowed(f, t)))('%s → %s is allowed and recorded with the previous status, the note and the author’s name', (from, to) => {
    expect(canChangeStatus(from, to)).toBe(true);
    spec
      .given(historyTo(from))
      .when(change(to))
      .then([{ type: 'OrderStatusChanged', data: { orderId, storeId, status: to, previousStatus: from, notes: 'nota', changedBy: 'Dueña', changedAt: at } }]);
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
    spec.given(historyTo('pending')).when(change('confirmed', { storeId: orderId })).thenThrows(NotFoundError, 'Pedido no encontrado');
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
