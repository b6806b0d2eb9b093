import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import type { PaymentRecordMethod } from '@tiendita/contracts';
import type { RecordPayment, RefundPayment } from './order.commands';
import type { OrderEvent } from './order.events';
import { orderDecider } from './order.decider';
import { at, change, historyTo, orderId, paymentEvent, paymentId, placed, placedEvent, refundIds, storeId } from './order.fixtures';

const spec = deciderSpec(orderDecider);

const pay = (amount: number, over: Partial<RecordPayment> = {}): RecordPayment => ({
  type: 'RecordPayment',
  orderId,
  storeId,
  paymentId,
  method: 'cash',
  amount,
  reference: null,
  cashReceived: null,
  recordedBy: 'Dueña',
  recordedById: 'owner-1',
  recordedAt: at,
  ...over,
});

const refund = (amount: number, over: Partial<RefundPayment> = {}): RefundPayment => ({
  type: 'RefundPayment',
  orderId,
  storeId,
  refundId: refundIds[0],
  method: 'cash',
  amount,
  reason: 'Producto dañado',
  refundedBy: 'Dueña',
  refundedById: 'owner-1',
  refundedAt: at,
  ...over,
});

const refunded = (amount: number, paidTotal: number, method: PaymentRecordMethod = 'cash', refundId = refundIds[0], reason: string | null = 'Producto dañado'): OrderEvent => ({
  type: 'PaymentRefunded',
  data: { orderId, storeId, refundId, method, amount, reason, paidTotal, refundedBy: 'Dueña', refundedById: 'owner-1', refundedAt: at },
});

describe('Order decider: payments', () => {
  it('a partial payment leaves the order partial; the rest makes it paid', () => {
    spec.given([placedEvent]).when(pay(2000)).then([paymentEvent(2000, 2000)]);
    spec
      .given([placedEvent, paymentEvent(2000, 2000)])
      .when(pay(3000, { paymentId: orderId, method: 'transfer', reference: 'BI-123' }))
      .then([paymentEvent(3000, 5000, { paymentId: orderId, method: 'transfer', reference: 'BI-123', paymentStatus: 'paid' })]);
  });

  it("beyond the balance due answers 'El pago supera el saldo pendiente' (a paid order owes nothing)", () => {
    spec.given([placedEvent]).when(pay(5001)).thenThrows(ValidationError, 'El pago supera el saldo pendiente');
    spec.given([placedEvent, paymentEvent(5000, 5000)]).when(pay(1, { paymentId: orderId })).thenThrows(ValidationError, 'El pago supera el saldo pendiente');
  });

  it('the same payment id records nothing more (a retried Idempotency-Key)', () => {
    spec.given([placedEvent, paymentEvent(2000, 2000)]).when(pay(2000)).then([]);
  });

  it('cash received gives the change; less than the amount, or with another method, is refused', () => {
    spec.given([placedEvent]).when(pay(5000, { cashReceived: 10000 })).then([paymentEvent(5000, 5000, { cashReceived: 10000, change: 5000 })]);
    spec.given([placedEvent]).when(pay(5000, { cashReceived: 4000 })).thenThrows(ValidationError, 'Pago Insuficiente: El monto recibido es menor al total de la venta');
    spec.given([placedEvent]).when(pay(5000, { method: 'card', cashReceived: 5000 })).thenThrows(ValidationError, 'El monto recibido solo se indica en pagos en efectivo.');
  });

  it('a cancelled order takes no payment (409); another store’s order is not found', () => {
    spec.given(historyTo('cancelled')).when(pay(100)).thenThrows(IllegalStateError, 'No se puede registrar un pago en un pedido cancelado.');
    spec.given([placedEvent]).when(pay(100, { storeId: orderId })).thenThrows(NotFoundError, 'Pedido no encontrado');
  });

  it('amounts are whole centavos from 1 up to Q99,999,999.99', () => {
    spec.given([placedEvent]).when(pay(0)).thenThrows(ValidationError, 'El monto debe ser un número mayor que 0 con hasta 2 decimales.');
    spec.given([placedEvent]).when(pay(10_000_000_000)).thenThrows(ValidationError, 'El monto no puede ser mayor que Q99,999,999.99.');
  });

  it('an order placed paid before payments existed counts as paid in full by its method', () => {
    const legacy = { type: 'OrderPlaced' as const, data: { ...placed, orderType: 'pos' as const, status: 'completed' as const, paymentMethod: 'card' as const, paymentStatus: 'paid' as const } };
    spec.given([legacy]).when(pay(1)).thenThrows(ValidationError, 'El pago supera el saldo pendiente');
    spec.given([legacy]).when(refund(5000, { method: 'card' })).then([refunded(5000, 0, 'card')]);
  });
});

describe('Order decider: refunds', () => {
  it('a refund never exceeds what was paid (net of earlier refunds)', () => {
    spec.given([placedEvent, paymentEvent(3000, 3000)]).when(refund(3001)).thenThrows(ValidationError, 'El reembolso supera lo pagado');
    spec.given([placedEvent]).when(refund(1)).thenThrows(ValidationError, 'El reembolso supera lo pagado');
    spec.given([placedEvent, paymentEvent(3000, 3000)]).when(refund(1000)).then([refunded(1000, 2000)]);
    spec
      .given([placedEvent, paymentEvent(3000, 3000), refunded(1000, 2000)])
      .when(refund(2001, { refundId: refundIds[1] }))
      .thenThrows(ValidationError, 'El reembolso supera lo pagado');
  });

  it('the same refund id records nothing more', () => {
    spec.given([placedEvent, paymentEvent(3000, 3000), refunded(1000, 2000)]).when(refund(1000)).then([]);
  });

  it('cancelling a paid order refunds each method paid; naming a method refunds all of it by that one', () => {
    const card = paymentEvent(2000, 5000, { paymentId: orderId, method: 'card', paymentStatus: 'paid' });
    const history = [placedEvent, paymentEvent(3000, 3000), card];
    const events = spec.given(history).when(change('cancelled')).events();
    expect(events.map((e) => e.type)).toEqual(['OrderStatusChanged', 'PaymentRefunded', 'PaymentRefunded']);
    expect(events.slice(1)).toEqual([refunded(3000, 2000, 'cash', refundIds[0], 'nota'), refunded(2000, 0, 'card', refundIds[1], 'nota')]);
    const named = spec.given(history).when(change('cancelled', { refundMethod: 'transfer', notes: null })).events();
    expect(named.slice(1)).toEqual([refunded(5000, 0, 'transfer', refundIds[0], 'Pedido cancelado')]);
  });

  it('cancelling an unpaid order, or one already refunded, refunds nothing', () => {
    expect(spec.given([placedEvent]).when(change('cancelled')).events().map((e) => e.type)).toEqual(['OrderStatusChanged']);
    const back = [placedEvent, paymentEvent(3000, 3000), refunded(3000, 0)];
    expect(spec.given(back).when(change('cancelled')).events().map((e) => e.type)).toEqual(['OrderStatusChanged']);
  });
});
