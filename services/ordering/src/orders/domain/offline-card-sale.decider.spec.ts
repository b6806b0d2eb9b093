import { isCardPendingConfirmation } from '@tiendita/contracts';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import type { OrderPlaced } from '@tiendita/contracts';
import type { RecordPayment } from './order.commands';
import { orderDecider } from './order.decider';
import { at, orderId, paymentId, placeOrder, storeId } from './order.fixtures';

// Issue 28: a card sale made while the POS was offline could not be checked with the terminal.
const spec = deciderSpec(orderDecider);
const offline = { deviceSaleId: orderId, localNumber: 'TK7-0007', soldAt: at };
const sale = (paymentMethod: 'card' | 'cash') =>
  placeOrder({ kind: 'pos', paymentMethod, cashReceived: null, paymentId, placedBy: 'Dueña', placedById: 'owner-1', offline });

describe('Order decider: card sales made offline', () => {
  it('are placed completed with the payment pending and no payment recorded: the owner sees them pending confirmation', () => {
    const events = spec.given([]).when(sale('card')).events();
    expect(events.map((e) => e.type)).toEqual(['OrderPlaced']);
    const order = events[0].data as OrderPlaced;
    expect(order).toMatchObject({ orderType: 'pos', status: 'completed', paymentMethod: 'card', paymentStatus: 'pending', cashReceived: null, change: null, offline });
    expect(isCardPendingConfirmation(order)).toBe(true);
  });

  it('the owner confirms one by recording the card payment of its total: then it is paid', () => {
    const placed = spec.given([]).when(sale('card')).events();
    const pay: RecordPayment = { type: 'RecordPayment', orderId, storeId, paymentId, method: 'card', amount: 5000, reference: 'Voucher 123', cashReceived: null, recordedBy: 'Dueña', recordedById: 'owner-1', recordedAt: at };
    const [payment] = spec.given(placed).when(pay).events();
    expect(payment.data).toMatchObject({ method: 'card', amount: 5000, paidTotal: 5000, paymentStatus: 'paid' });
  });

  it('an offline cash sale, and a card sale online, are paid at once as before', () => {
    expect(spec.given([]).when(sale('cash')).events().map((e) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
    const online = placeOrder({ kind: 'pos', paymentMethod: 'card', cashReceived: null, paymentId, placedBy: 'Dueña', placedById: 'owner-1' });
    expect(spec.given([]).when(online).events().map((e) => e.type)).toEqual(['OrderPlaced', 'PaymentRecorded']);
  });
});
