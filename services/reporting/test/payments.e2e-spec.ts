/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read loosely, like fetch().json() */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PostgresEventStore } from '@tiendita/eventsourcing';
import type { ProjectionHost } from '@tiendita/service-kit';
import { signedRequest } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { appendToOrder, changeStatus, orderPlaced, paymentRecorded, paymentRefunded, place } from './support/orders';
import { useReportingApp } from './support/reporting-app';

/**
 * Money by payment method comes from the payments themselves (issue 24): the cash close of a day
 * counts what changed hands that day whatever the channel, refunds in cash leave the drawer, and
 * an order placed before payments existed (paymentStatus 'paid', no PaymentRecorded) is one
 * payment of its total by its method.
 */
const NOW = new Date('2026-11-28T20:00:00.000Z'); // 14:00 in Guatemala, Saturday 28 November 2026
const TODAY = '2026-11-28';
const at = (gtTime: string, day = TODAY) => new Date(Date.parse(`${day}T${gtTime}:00.000Z`) + 6 * 3_600_000).toISOString();

const ctx = useReportingApp(NOW);
let app: NestFastifyApplication;
let pool: pg.Pool;
let ordering: PostgresEventStore;
let host: ProjectionHost;
beforeAll(() => ({ app, pool, ordering, host } = ctx));

const get = async (url: string, storeId: string) => {
  const res = await app.inject(signedRequest({ method: 'GET', url, userId: randomUUID(), storeId }));
  expect(res.statusCode).toBe(200);
  return res.json();
};

async function settled(result: { position: { transactionId: string; globalPosition: number } }) {
  for (const projection of ['sales', 'payments']) await host.waitForPosition(result.position, { source: 'ordering', projection, timeoutMs: 10_000 });
}

const LINE = { productId: randomUUID(), productName: 'Café de Antigua 1 lb' };

it('a WhatsApp order paid in cash on delivery is in the drawer; a partial payment and a cash refund count as they happened', async () => {
  const storeId = randomUUID();
  // A WhatsApp order placed yesterday, delivered today and paid in cash at the door: Q136.75.
  const wa = orderPlaced({ storeId, orderType: 'whatsapp', paymentMethod: 'whatsapp', placedAt: at('18:30', '2026-11-27'), lines: [{ ...LINE, quantity: 1, unitPrice: 13_675 }] });
  await place(ordering, wa);
  await changeStatus(ordering, wa, 'confirmed', 'pending', 1, at('09:00'));
  await appendToOrder(ordering, wa, 2, [
    { type: 'OrderStatusChanged', data: { orderId: wa.orderId, storeId, status: 'delivered', previousStatus: 'confirmed', notes: null, changedBy: 'Rosa López', changedAt: at('11:00') } },
    { type: 'PaymentRecorded', data: paymentRecorded(wa, { method: 'cash', amount: 13_675, paidTotal: 13_675, at: at('11:00'), cashReceived: 15_000 }) },
  ]);
  // Today's WhatsApp order of Q100, Q40 paid by card so far.
  const partial = orderPlaced({ storeId, orderType: 'whatsapp', paymentMethod: null, placedAt: at('10:00'), lines: [{ ...LINE, quantity: 4, unitPrice: 2_500 }] });
  await place(ordering, partial);
  await appendToOrder(ordering, partial, 1, [{ type: 'PaymentRecorded', data: paymentRecorded(partial, { method: 'card', amount: 4_000, paidTotal: 4_000, at: at('10:05') }) }]);
  // A POS sale paid in cash (placed pending, its payment in the same append), then cancelled and refunded in cash.
  const sale = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', paymentStatus: 'pending', placedAt: at('12:00'), lines: [{ ...LINE, quantity: 2, unitPrice: 2_500 }] });
  await ordering.append(`order-${sale.orderId}`, [
    { type: 'OrderPlaced', data: sale },
    { type: 'PaymentRecorded', data: paymentRecorded(sale, { method: 'cash', amount: 5_000, paidTotal: 5_000, at: at('12:00'), cashReceived: 5_000 }) },
  ], 0, { storeId });
  // A transfer paid in full with its bank reference.
  const transfer = orderPlaced({ storeId, orderType: 'whatsapp', paymentMethod: null, placedAt: at('12:30'), lines: [{ ...LINE, quantity: 1, unitPrice: 3_000 }] });
  await place(ordering, transfer);
  await appendToOrder(ordering, transfer, 1, [{ type: 'PaymentRecorded', data: paymentRecorded(transfer, { method: 'transfer', amount: 3_000, paidTotal: 3_000, at: at('12:35') }) }]);
  await settled(
    await appendToOrder(ordering, sale, 2, [
      { type: 'OrderStatusChanged', data: { orderId: sale.orderId, storeId, status: 'cancelled', previousStatus: 'completed', notes: 'Devolución', changedBy: 'Rosa López', changedAt: at('13:00') } },
      { type: 'PaymentRefunded', data: paymentRefunded(sale, { method: 'cash', amount: 5_000, paidTotal: 0, at: at('13:00'), reason: 'Devolución' }) },
    ]),
  );

  const close = await get(`/api/reports/cash-close?date=${TODAY}`, storeId);
  // Cash: Q136.75 from the WhatsApp order + Q50 of the sale − Q50 given back; Q40 by card and Q30 by transfer.
  expect(close).toMatchObject({ date: TODAY, expectedCash: 136.75, totalReceived: 256.75, totalRefunded: 50, countedCash: null });
  expect(close.paymentsByMethod).toEqual([
    { paymentMethod: 'cash', payments: 2, orders: 2, received: 186.75, refunds: 1, refunded: 50, amount: 136.75 },
    { paymentMethod: 'card', payments: 1, orders: 1, received: 40, refunds: 0, refunded: 0, amount: 40 },
    { paymentMethod: 'transfer', payments: 1, orders: 1, received: 30, refunds: 0, refunded: 0, amount: 30 },
  ]);
  // The same money under the name clients read before payments existed.
  expect(close.salesByPaymentMethod).toEqual([
    { paymentMethod: 'cash', orders: 2, amount: 136.75 },
    { paymentMethod: 'card', orders: 1, amount: 40 },
    { paymentMethod: 'transfer', orders: 1, amount: 30 },
  ]);
  // Today's sales: the partial order and the transfer (the WhatsApp order was placed yesterday, the sale was cancelled).
  expect(close).toMatchObject({ totalSales: 130, orderCount: 2 });
  // Every movement of the day, newest first.
  expect(close.movementCount).toBe(5);
  expect(close.movements.map((m: any) => [m.kind, m.paymentMethod, m.amount, m.orderCode, m.orderType, m.author])).toEqual([
    ['refund', 'cash', 50, sale.code, 'pos', 'Rosa López'],
    ['payment', 'transfer', 30, transfer.code, 'whatsapp', 'Rosa López'],
    ['payment', 'cash', 50, sale.code, 'pos', 'Rosa López'],
    ['payment', 'cash', 136.75, wa.code, 'whatsapp', 'Rosa López'],
    ['payment', 'card', 40, partial.code, 'whatsapp', 'Rosa López'],
  ]);
  // Yesterday's drawer did not get the WhatsApp order's cash: it was paid today.
  expect(await get('/api/reports/cash-close?date=2026-11-27', storeId)).toMatchObject({ expectedCash: 0, totalReceived: 0, totalSales: 136.75, orderCount: 1, paymentsByMethod: [] });

  // Counting the drawer: the difference is against the cash from the payments.
  const counted = await app.inject(signedRequest({ method: 'POST', url: '/api/reports/cash-close', payload: { countedCash: 130 }, userId: randomUUID(), storeId }));
  expect(counted.statusCode).toBe(201);
  expect(counted.json()).toMatchObject({ expectedCash: 136.75, countedCash: 130, difference: -6.75 });

  // Reports: money by method from the payments, net of refunds, whatever the channel.
  const today = await get('/api/reports?period=today', storeId);
  expect(today.salesByPaymentMethod).toEqual(close.paymentsByMethod);
  expect(today).toMatchObject({ amountReceived: 206.75, totalSales: 130, orderCount: 2, cancelledOrders: 1, cancelledAmount: 50 });
  const byId = Object.fromEntries(today.recentOrders.map((o: any) => [o.id, o]));
  expect(byId[partial.orderId]).toMatchObject({ paymentStatus: 'partial', amountPaid: 40, paymentMethod: 'card', paymentMethods: ['card'] });
  expect(byId[sale.orderId]).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', amountPaid: 0, paymentMethods: ['cash'] });
  expect(byId[transfer.orderId]).toMatchObject({ paymentStatus: 'paid', amountPaid: 30, paymentMethods: ['transfer'] });
  const week = await get('/api/reports?period=week', storeId);
  expect(week.recentOrders.find((o: any) => o.id === wa.orderId)).toMatchObject({ status: 'delivered', paymentStatus: 'paid', amountPaid: 136.75, paymentMethods: ['cash'] });
});

it('reads an order placed paid before payments existed as one payment of its total by its method, until a PaymentRecorded replaces it', async () => {
  const storeId = randomUUID();
  const cash = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: at('09:00'), lines: [{ ...LINE, quantity: 1, unitPrice: 2_000 }] });
  const zigi = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'zigi', placedAt: at('09:30'), lines: [{ ...LINE, quantity: 1, unitPrice: 1_500 }] });
  const unpaid = orderPlaced({ storeId, orderType: 'whatsapp', paymentMethod: 'whatsapp', placedAt: at('10:00'), lines: [{ ...LINE, quantity: 1, unitPrice: 9_900 }] });
  const free = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: at('10:10'), lines: [{ ...LINE, quantity: 1, unitPrice: 0 }] });
  // A legacy card sale that later got a PaymentRecorded of its own: it is counted once, as recorded.
  const card = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'card', placedAt: at('10:30'), lines: [{ ...LINE, quantity: 1, unitPrice: 4_000 }] });
  for (const o of [cash, zigi, unpaid, free]) await place(ordering, o);
  await settled(await place(ordering, card));
  const before = await get(`/api/reports/cash-close?date=${TODAY}`, storeId);
  expect(before).toMatchObject({ expectedCash: 20, totalReceived: 75 });
  expect(before.paymentsByMethod.map((m: any) => [m.paymentMethod, m.payments, m.amount])).toEqual([['card', 1, 40], ['cash', 1, 20], ['other', 1, 15]]);
  expect(before.movements.map((m: any) => [m.orderCode, m.kind, m.at])).toEqual([[card.code, 'payment', card.placedAt], [zigi.code, 'payment', zigi.placedAt], [cash.code, 'payment', cash.placedAt]]);
  // The legacy 'whatsapp' method is never a payment method in the figures.
  expect((await get('/api/reports?period=today', storeId)).salesByPaymentMethod.map((m: any) => m.paymentMethod)).toEqual(['card', 'cash', 'other']);

  await settled(await appendToOrder(ordering, card, 1, [{ type: 'PaymentRecorded', data: paymentRecorded(card, { method: 'transfer', amount: 4_000, paidTotal: 4_000, at: at('11:00') }) }]));
  const after = await get(`/api/reports/cash-close?date=${TODAY}`, storeId);
  expect(after).toMatchObject({ expectedCash: 20, totalReceived: 75 });
  expect(after.paymentsByMethod.map((m: any) => [m.paymentMethod, m.payments, m.amount])).toEqual([['transfer', 1, 40], ['cash', 1, 20], ['other', 1, 15]]);
  const report = await get('/api/reports?period=today', storeId);
  expect(report.recentOrders.find((o: any) => o.id === unpaid.orderId)).toMatchObject({ paymentStatus: 'pending', amountPaid: 0, paymentMethod: null, paymentMethods: [] });
  expect(report.recentOrders.find((o: any) => o.id === free.orderId)).toMatchObject({ paymentStatus: 'paid', amountPaid: 0 });
  expect(report.recentOrders.find((o: any) => o.id === zigi.orderId)).toMatchObject({ paymentStatus: 'paid', paymentMethods: ['other'] });
});

it('a rebuild of the payments projection from zero (other batches) leaves the rows the live one left', async () => {
  const snapshot = async () => ({
    payments: (await pool.query('SELECT * FROM reporting.payments ORDER BY entry_id')).rows,
    daily: (await pool.query('SELECT * FROM reporting.payments_daily ORDER BY store_id, day, method')).rows,
    versions: (await pool.query('SELECT * FROM reporting.payments_versions ORDER BY store_id')).rows,
  });
  const before = await snapshot();
  expect(before.payments.length).toBe(8); // 4 payments and a refund; 2 legacy payments and the payment that replaced a third
  const result = await host.runner.rebuild('payments', { verify: true });
  expect(result.verified).toBe(true);
  expect(await snapshot()).toEqual(before);
});
