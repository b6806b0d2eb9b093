import type { OrderPlaced, PaymentRecordMethod } from '@tiendita/contracts';
import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { paymentsProjection, type PaymentsTable } from '../src/read-model/payments.projection';
import { orderPlaced, paymentRecorded, paymentRefunded } from './support/orders';
import { advanceTransactionIds, projectionHarness, recorded } from './support/projection-harness';

/**
 * The payments projection leaves the same rows whatever the batching of the live runner, and its
 * SQL path (a rebuild's ranges) leaves them too: legacy paid orders, the payment that replaces one
 * in the same batch or a later one, repeated events, refunds, sales of Q0.
 */
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  // The events carry made-up transaction ids: move the cluster past them (the safe read bound).
  await advanceTransactionIds(pool, 6000);
});
afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const KEYS: Record<PaymentsTable, string> = { payments: 'entry_id', payments_daily: 'store_id, day, method', payments_versions: 'store_id' };
const { fresh, applyInBatches, storeEvents, applyInRanges, rows } = projectionHarness(() => pool, paymentsProjection, KEYS, 'payments_source');

const STORES = [randomUUID(), randomUUID()];
const METHODS: PaymentRecordMethod[] = ['cash', 'card', 'transfer', 'other'];
const PRODUCT = { productId: randomUUID(), productName: 'Frijol 1 lb' };

/** A history of placements (legacy paid or pending), payments, refunds and repeated deliveries, around a Guatemalan midnight. */
const historyArb = fc
  .array(
    fc.oneof(
      fc.record({ kind: fc.constant('place' as const), store: fc.integer({ min: 0, max: 1 }), paid: fc.boolean(), legacy: fc.constantFrom('cash', 'card', 'zigi', 'whatsapp', null), price: fc.integer({ min: 0, max: 9000 }) }),
      fc.record({ kind: fc.constant('pay' as const), target: fc.nat(), method: fc.constantFrom(...METHODS), amount: fc.integer({ min: 1, max: 5000 }) }),
      fc.record({ kind: fc.constant('refund' as const), target: fc.nat(), method: fc.constantFrom(...METHODS), amount: fc.integer({ min: 1, max: 5000 }) }),
      fc.record({ kind: fc.constant('again' as const), target: fc.nat() }),
    ),
    { maxLength: 30 },
  )
  .map((steps) => {
    const placed: OrderPlaced[] = [];
    const events: { type: string; data: unknown }[] = [];
    // Every event a minute later, from 23:50 in Guatemala: some days change under the batches.
    const at = () => new Date(Date.parse('2026-03-02T05:50:00Z') + events.length * 60_000).toISOString();
    for (const s of steps) {
      if (s.kind === 'place') {
        const o = orderPlaced({ storeId: STORES[s.store], orderType: 'pos', paymentMethod: s.legacy, paymentStatus: s.paid ? 'paid' : 'pending', placedAt: at(), lines: [{ ...PRODUCT, quantity: 1, unitPrice: s.price }] });
        placed.push(o);
        events.push({ type: 'OrderPlaced', data: o });
      } else if (placed.length === 0) continue;
      else if (s.kind === 'pay') events.push({ type: 'PaymentRecorded', data: paymentRecorded(placed[s.target % placed.length], { method: s.method, amount: s.amount, paidTotal: s.amount, at: at() }) });
      else if (s.kind === 'refund') events.push({ type: 'PaymentRefunded', data: paymentRefunded(placed[s.target % placed.length], { method: s.method, amount: s.amount, paidTotal: 0, at: at() }) });
      else if (events.length) events.push(events[s.target % events.length]); // delivered again
    }
    return recorded(events, 5000, STORES[0]);
  });

it('leaves the same rows whatever the batching, live or in SQL ranges', async () => {
  await fc.assert(
    fc.asyncProperty(historyArb, fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 5 }), async (events, sizes) => {
      const one = await fresh('pay_one');
      await applyInBatches(one, events, [1]);
      const expected = await rows(one);
      const batched = await fresh('pay_batched');
      await applyInBatches(batched, events, sizes);
      expect(await rows(batched)).toEqual(expected);
      await storeEvents(events);
      const ranged = await fresh('pay_ranged');
      await applyInRanges(ranged, events, sizes);
      expect(await rows(ranged)).toEqual(expected);
      const whole = await fresh('pay_whole');
      await applyInRanges(whole, events, [events.length || 1]);
      expect(await rows(whole)).toEqual(expected);
    }),
    { numRuns: 20 },
  );
}, 120_000);

it('a legacy paid order is one payment of its total by its method until a payment replaces it; a Q0 sale and a pending one are none', async () => {
  const legacy = orderPlaced({ storeId: STORES[0], orderType: 'pos', paymentMethod: 'zigi', placedAt: '2026-03-02T05:59:00Z', lines: [{ ...PRODUCT, quantity: 2, unitPrice: 1250 }] });
  const free = orderPlaced({ storeId: STORES[0], orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-02T06:00:00Z', lines: [{ ...PRODUCT, quantity: 1, unitPrice: 0 }] });
  const pending = orderPlaced({ storeId: STORES[0], orderType: 'whatsapp', paymentMethod: 'whatsapp', placedAt: '2026-03-02T06:01:00Z', lines: [{ ...PRODUCT, quantity: 1, unitPrice: 700 }] });
  const events: RecordedEventWithTx[] = recorded([{ type: 'OrderPlaced', data: legacy }, { type: 'OrderPlaced', data: free }, { type: 'OrderPlaced', data: pending }], 5100, STORES[0]);
  const t = await fresh('pay_legacy');
  await applyInBatches(t, events, [3]);
  expect((await rows(t)).payments).toEqual([expect.objectContaining({ entry_id: legacy.orderId, kind: 'legacy', method: 'other', amount: '2500', author: 'owner' })]);
  // 23:59 on 1 March in Guatemala.
  expect((await pool.query(`SELECT day::text, method, payments, received FROM ${t.payments_daily}`)).rows).toEqual([{ day: '2026-03-01', method: 'other', payments: 1, received: '2500' }]);

  const replaced = recorded([{ type: 'PaymentRecorded', data: paymentRecorded(legacy, { method: 'card', amount: 2500, paidTotal: 2500, at: '2026-03-02T15:00:00Z' }) }], 5200, STORES[0]);
  await applyInBatches(t, replaced, [1]);
  expect((await rows(t)).payments).toEqual([expect.objectContaining({ order_id: legacy.orderId, kind: 'payment', method: 'card', amount: '2500', author: 'Rosa López' })]);
  expect((await pool.query(`SELECT day::text, method, payments, received FROM ${t.payments_daily} ORDER BY day`)).rows).toEqual([
    { day: '2026-03-01', method: 'other', payments: 0, received: '0' },
    { day: '2026-03-02', method: 'card', payments: 1, received: '2500' },
  ]);
});

it('refuses a payment that breaks its contract in SQL as in JavaScript, and writes nothing of its range', async () => {
  const order = orderPlaced({ storeId: STORES[0], orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-02T12:00:00Z', lines: [{ ...PRODUCT, quantity: 1, unitPrice: 500 }] });
  const good = paymentRecorded(order, { method: 'cash', amount: 500, paidTotal: 500, at: '2026-03-02T12:00:00Z' });
  for (const bad of [{ ...good, paymentId: randomUUID(), method: 'kash' }, { ...good, paymentId: randomUUID(), amount: 0 }, { ...good, paymentId: randomUUID(), recordedAt: 'ayer' }, { ...good, paymentId: 'pago-1' }]) {
    const events = recorded([{ type: 'PaymentRecorded', data: good }, { type: 'PaymentRecorded', data: bad }], 5300, STORES[0]);
    const js = await fresh('pay_bad_js');
    await expect(applyInBatches(js, events, [2])).rejects.toThrow();
    await storeEvents(events);
    const sql = await fresh('pay_bad_sql');
    await expect(applyInRanges(sql, events, [2])).rejects.toThrow();
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${sql.payments}`)).rows[0].n).toBe(0);
  }
});
