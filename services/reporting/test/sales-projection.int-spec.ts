import type { OrderPlaced, OrderStatus } from '@tiendita/contracts';
import { checkpointDdl, ProjectionRunner, type EventTransport, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { salesProjection, type SalesTable } from '../src/read-model/sales.projection';
import { orderPlaced } from './support/orders';
import { advanceTransactionIds, projectionHarness, recorded } from './support/projection-harness';

/**
 * The sales projection folds a whole batch in memory and writes it with one statement per table.
 * Whatever the batching (one event per batch as live, 20,000 as a rebuild, anything between), the
 * rows must be the ones applying the events one by one leaves: a verified rebuild compares them.
 * A rebuild applies ranges of the events table in SQL instead (applyRange): the same rows again,
 * and again when it runs the stages of its ranges as a pipeline on several connections (rangeStages).
 */
let db: TestDatabase;
let pool: pg.Pool;
/** For rebuilds: their reader, writer and one connection per further stage. */
let rebuildPool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  rebuildPool = new pg.Pool({ connectionString: db.url, max: 6 });
  // The events carry made-up transaction ids: move the cluster past them (the safe read bound).
  await advanceTransactionIds(pool, 3000);
});
afterAll(async () => {
  await rebuildPool?.end();
  await pool?.end();
  await db?.drop();
});

const KEYS: Record<SalesTable, string> = {
  orders: 'order_id',
  sales_hourly: 'store_id, day, hour, order_type, payment_method',
  sales_daily: 'store_id, day, order_type, payment_method',
  product_sales_daily: 'store_id, day, product_id',
  product_sales_monthly: 'store_id, month, product_id',
  sales_versions: 'store_id',
};

const SOURCE = 'sales_source';
const { fresh, applyInBatches, storeEvents, applyInRanges, rows } = projectionHarness(() => pool, salesProjection, KEYS, SOURCE);

/**
 * A rebuild of the projection (from the stored events, ranges of `rangeSize` events) by the runner,
 * into `schema`: its ranges' stages run as a pipeline, stage 0 of later ranges beside the later
 * stages of earlier ones.
 */
async function rebuildInStages(schema: string, rangeSize: number): Promise<Record<SalesTable, string>> {
  const t = await fresh(schema);
  await pool.query(checkpointDdl(schema));
  const transport: EventTransport = { kind: 'postgres', subscribe: () => Promise.reject(new Error('sin suscripciones en esta prueba')), close: async () => undefined };
  const projection = { ...salesProjection, sources: [SOURCE] } as Projection;
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const runner = new ProjectionRunner({ pool: rebuildPool, schema, transport, projections: [projection], rebuildRangeSize: rangeSize, logger: quiet });
  await runner.rebuild('sales', { verify: false });
  const scratch = await pool.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = $1 AND tablename LIKE 'sales\\_\\_range\\_%'`, [schema]);
  expect(scratch.rows[0].n).toBe(0);
  return t;
}

const STORES = [randomUUID(), randomUUID()];
const PRODUCTS = Array.from({ length: 3 }, (_, i) => ({ productId: randomUUID(), names: [`Producto ${i}`, `Producto ${i} (nuevo)`] }));
const STATUSES: OrderStatus[] = ['pending', 'confirmed', 'delivered', 'completed', 'cancelled'];

/** A history: orders placed (some twice, as a redelivery would), status changes (some for orders never placed). */
const historyArb = fc
  .array(
    fc.oneof(
      fc.record({
        kind: fc.constant('place' as const),
        store: fc.integer({ min: 0, max: 1 }),
        pos: fc.boolean(),
        status: fc.constantFrom<OrderStatus>('pending', 'completed', 'cancelled'),
        // Around the turn of a month and of a Guatemalan day (06:00 UTC).
        at: fc.integer({ min: Date.parse('2026-02-27T00:00:00Z') / 60000, max: Date.parse('2026-03-02T12:00:00Z') / 60000 }),
        lines: fc.array(fc.record({ product: fc.integer({ min: 0, max: 2 }), renamed: fc.boolean(), quantity: fc.integer({ min: 1, max: 5 }), price: fc.integer({ min: 0, max: 9000 }) }), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ kind: fc.constant('change' as const), target: fc.nat(), status: fc.constantFrom(...STATUSES), ghost: fc.boolean() }),
      fc.record({ kind: fc.constant('again' as const), target: fc.nat() }),
    ),
    { maxLength: 40 },
  )
  .map((steps) => {
    const placed: OrderPlaced[] = [];
    const data: { type: string; data: unknown }[] = [];
    for (const s of steps) {
      if (s.kind === 'place') {
        const o = orderPlaced({
          storeId: STORES[s.store],
          orderType: s.pos ? 'pos' : 'whatsapp',
          paymentMethod: s.pos ? 'cash' : null,
          placedAt: new Date(s.at * 60000).toISOString(),
          // Two lines of one product in an order, and renamed products, on purpose.
          lines: s.lines.map((l) => ({ productId: PRODUCTS[l.product].productId, productName: PRODUCTS[l.product].names[l.renamed ? 1 : 0], quantity: l.quantity, unitPrice: l.price })),
        });
        const order = { ...o, status: s.status };
        placed.push(order);
        data.push({ type: 'OrderPlaced', data: order });
      } else if (s.kind === 'change') {
        const target = placed.length && !s.ghost ? placed[s.target % placed.length] : null;
        const orderId = target?.orderId ?? randomUUID();
        data.push({ type: 'OrderStatusChanged', data: { orderId, storeId: target?.storeId ?? STORES[0], status: s.status, previousStatus: 'pending', notes: null, changedBy: 'owner', changedAt: new Date(Date.parse('2026-03-03T00:00:00Z') + data.length * 60000).toISOString() } });
      } else if (placed.length) {
        const again = placed[s.target % placed.length];
        data.push({ type: 'OrderPlaced', data: { ...again, customerName: 'Otra entrega' } });
      }
    }
    return recorded(data, 1000, STORES[0]);
  });

it('leaves the same rows whatever the batching, including repeated orders, changes of unknown orders and renamed products', async () => {
  await fc.assert(
    fc.asyncProperty(historyArb, fc.array(fc.integer({ min: 1, max: 15 }), { minLength: 1, maxLength: 6 }), async (events, sizes) => {
      const one = await fresh('sales_one');
      await applyInBatches(one, events, [1]);
      const batched = await fresh('sales_batched');
      await applyInBatches(batched, events, sizes);
      const whole = await fresh('sales_whole');
      await applyInBatches(whole, events, [events.length || 1]);
      const expected = await rows(one);
      expect(await rows(batched)).toEqual(expected);
      expect(await rows(whole)).toEqual(expected);
      await storeEvents(events);
      const ranged = await fresh('sales_ranged');
      await applyInRanges(ranged, events, sizes);
      expect(await rows(ranged)).toEqual(expected);
      const range = await fresh('sales_range');
      await applyInRanges(range, events, [events.length || 1]);
      expect(await rows(range)).toEqual(expected);
      expect(await rows(await rebuildInStages('sales_piped', sizes[0]))).toEqual(expected);
    }),
    { numRuns: 40 },
  );
  // 40 histories × 3 schemas: ~10 s alone, over jest's 30 s beside the other suites on a loaded machine.
}, 120_000);

it('refuses an event that breaks its contract in SQL as in JavaScript, and writes nothing of its range', async () => {
  const good = orderPlaced({ storeId: STORES[0], orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-01T12:00:00.000Z', lines: [{ productId: PRODUCTS[0].productId, productName: 'Producto 0', quantity: 1, unitPrice: 500 }] });
  // SQL reads each member once and checks what it read: a broken line names the event as apply
  // does; a non-integer amount or a malformed id is refused by its cast, with PostgreSQL's message.
  const cases: [unknown, RegExp][] = [
    [{ ...good, orderId: randomUUID(), items: [{ ...good.items[0], quantity: 0 }] }, /OrderPlaced no cumple su contrato/],
    [{ ...good, orderId: randomUUID(), items: [] }, /OrderPlaced no cumple su contrato/],
    [{ ...good, orderId: randomUUID(), orderType: 'telegram' }, /OrderPlaced no cumple su contrato/],
    [{ ...good, orderId: randomUUID(), placedAt: 'now' }, /OrderPlaced no cumple su contrato/],
    [{ ...good, orderId: randomUUID(), total: 500.5 }, /bigint/],
    [{ ...good, orderId: 'pedido-1' }, /uuid/],
  ];
  for (const [bad, sqlError] of cases) {
    const events: RecordedEventWithTx[] = [good, bad].map((data, i) => ({
      globalPosition: i + 1,
      transactionId: String(2000 + i),
      streamId: `order-${i}`,
      streamPosition: 1,
      type: 'OrderPlaced',
      data,
      metadata: { eventId: randomUUID(), schemaVersion: 1, storeId: STORES[0], occurredAt: new Date().toISOString(), correlationId: null, causationId: null, actor: null },
      recordedAt: new Date(),
    }));
    const js = await fresh('sales_bad_js');
    await expect(applyInBatches(js, events, [2])).rejects.toThrow();
    await storeEvents(events);
    const sql = await fresh('sales_bad_sql');
    await expect(applyInRanges(sql, events, [2])).rejects.toThrow(sqlError);
    expect((await pool.query(`SELECT count(*)::int AS n FROM ${sql.orders}`)).rows[0].n).toBe(0);
  }
});
