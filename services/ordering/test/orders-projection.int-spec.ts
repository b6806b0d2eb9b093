import { ORDER_NEXT_STATUS, type OrderPlaced, type OrderStatus, type OrderStatusChanged, type PaymentRecorded, type PaymentRefunded } from '@tiendita/contracts';
import { type RecordedEventWithTx, withTransaction } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { type OrderRow, orderView, stateRow } from '../src/orders/application/order-view';
import type { OrderEvent } from '../src/orders/domain/order.events';
import { evolveOrder, type OrderState } from '../src/orders/domain/order.state';
import { ordersProjection, type OrdersTable } from '../src/read-model/orders.projection';

/**
 * The orders projection applies a batch set-based (all OrderPlaced in one statement, all status
 * changes in another). Whatever the batches, the tables must be the ones applying the events one at
 * a time gives: the live projection's batches (a few events) and a rebuild's (20,000) must agree,
 * counts rows of statuses an order only passed through included.
 */
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query('CREATE SCHEMA ordering_a; CREATE SCHEMA ordering_b');
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const tables = (schema: string): Record<OrdersTable, string> => ({
  orders: `${schema}.orders`,
  order_history: `${schema}.order_history`,
  order_counts: `${schema}.order_counts`,
  order_totals: `${schema}.order_totals`,
  order_versions: `${schema}.order_versions`,
  order_search: `${schema}.order_search`,
});


let position = 0;
function recorded(type: string, data: object, eventId = randomUUID()): RecordedEventWithTx {
  position++;
  return {
    globalPosition: position,
    streamId: `order-${(data as { orderId: string }).orderId}`,
    streamPosition: 1,
    type,
    data,
    metadata: { eventId, schemaVersion: 1, storeId: null, occurredAt: new Date().toISOString(), correlationId: null, causationId: null, actor: null },
    recordedAt: new Date(),
    transactionId: String(position),
  };
}

/** Random orders over a few days, each moved along its flow (or cancelled) by events interleaved with other orders' events. */
function history(orders: number, storeId: string): RecordedEventWithTx[] {
  const streams: RecordedEventWithTx[][] = [];
  for (let i = 0; i < orders; i++) {
    const orderId = randomUUID();
    const pos = i % 3 === 0;
    const placedAt = new Date(Date.UTC(2026, 8, 1 + (i % 60), (i * 7) % 24, 0, 0)).toISOString();
    const status: OrderStatus = pos ? 'completed' : 'pending';
    const order: OrderPlaced = {
      orderId,
      storeId,
      code: `C${i}`,
      orderType: pos ? 'pos' : 'whatsapp',
      status,
      paymentMethod: pos ? 'cash' : 'whatsapp',
      paymentStatus: pos ? 'paid' : 'pending',
      customerName: `Cliente ${i}`,
      customerPhone: pos ? null : `5555${String(i).padStart(4, '0')}`,
      customerAddress: null,
      customerEmail: null,
      customerNit: pos ? 'CF' : null,
      notes: null,
      items: [{ productId: randomUUID(), productName: 'Café', sku: null, quantity: 1 + (i % 3), unitPrice: 1500, lineTotal: 1500 * (1 + (i % 3)) }],
      subtotal: 1339 * (1 + (i % 3)),
      tax: 161 * (1 + (i % 3)),
      total: 1500 * (1 + (i % 3)),
      cashReceived: null,
      change: null,
      whatsappMessage: null,
      placedBy: 'bench',
      placedAt,
    };
    const stream = [recorded('OrderPlaced', order)];
    // Some WhatsApp orders are paid in part or in full (issue 24), and some of those refunded in part.
    const at = new Date(Date.parse(placedAt) + 30_000).toISOString();
    const paying = !pos && i % 3 === 1 ? (i % 2 ? order.total : Math.floor(order.total / 3)) : 0;
    if (paying > 0) {
      const payment: PaymentRecorded = {
        orderId, storeId, paymentId: randomUUID(), method: 'cash', amount: paying, reference: null, cashReceived: null, change: null,
        paidTotal: paying, paymentStatus: paying >= order.total ? 'paid' : 'partial', recordedBy: 'Dueña', recordedById: 'u1', recordedAt: at,
      };
      stream.push(recorded('PaymentRecorded', payment));
      if (i % 4 === 0) {
        const refund: PaymentRefunded = { orderId, storeId, refundId: randomUUID(), method: 'cash', amount: paying, reason: null, paidTotal: 0, refundedBy: 'Dueña', refundedById: 'u1', refundedAt: at };
        stream.push(recorded('PaymentRefunded', refund));
      }
    }
    let current: OrderStatus = status;
    const steps = pos ? 0 : i % 7;
    for (let k = 0; k < steps; k++) {
      const next: OrderStatus | undefined = k === 2 && i % 5 === 0 ? 'cancelled' : ORDER_NEXT_STATUS[current];
      if (!next || current === 'cancelled') break;
      const change: OrderStatusChanged = { orderId, storeId, status: next, previousStatus: current, notes: k % 2 ? 'nota' : null, changedBy: 'Dueña', changedAt: new Date(Date.parse(placedAt) + (k + 1) * 60_000).toISOString() };
      stream.push(recorded('OrderStatusChanged', change));
      current = next;
    }
    streams.push(stream);
  }
  // Interleave the streams, keeping each stream's order (a fixed pseudo-random pick among the streams with events left).
  const out: RecordedEventWithTx[] = [];
  const active = streams.map((events) => ({ events, next: 0 }));
  let seed = 7;
  while (active.length > 0) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const k = seed % active.length;
    const s = active[k];
    out.push(s.events[s.next++]);
    if (s.next === s.events.length) active.splice(k, 1);
  }
  return out;
}

async function dump(schema: string) {
  const orders = await pool.query(`SELECT id, status, updated_at, order_type, payment_status, created_at, code, total, items, payments, refunds, amount_paid FROM ${schema}.orders ORDER BY id`);
  const historyRows = await pool.query(`SELECT id, order_id, status, previous_status, notes, created_by, created_at FROM ${schema}.order_history ORDER BY id`);
  const counts = await pool.query(`SELECT store_id, day::text, status, order_type, payment_status, n FROM ${schema}.order_counts ORDER BY 1, 2, 3, 4, 5`);
  const totals = await pool.query(`SELECT store_id, status, order_type, payment_status, n FROM ${schema}.order_totals ORDER BY 1, 2, 3, 4`);
  const versions = await pool.query(`SELECT store_id, version FROM ${schema}.order_versions ORDER BY 1`);
  const search = await pool.query(`SELECT id, store_id, created_at, total, status, order_type, payment_status, search_key FROM ${schema}.order_search ORDER BY id`);
  return { orders: orders.rows, history: historyRows.rows, counts: counts.rows, totals: totals.rows, versions: versions.rows, search: search.rows };
}

it('gives the tables of one event at a time, whatever the batches (redelivered events included)', async () => {
  const storeId = randomUUID();
  const a = tables('ordering_a');
  const b = tables('ordering_b');
  await withTransaction(pool, async (tx) => {
    await ordersProjection.setup(tx, a);
    await ordersProjection.setup(tx, b);
  });
  const events = history(300, storeId);
  expect(events.filter((e) => e.type === 'OrderStatusChanged').length).toBeGreaterThan(300);

  // A: uneven batches, from one event to a few hundred, some events delivered a second time.
  let i = 0;
  let size = 1;
  while (i < events.length) {
    const batch = events.slice(i, i + size);
    if (size % 3 === 0 && i > 0) batch.push(events[i - 1]);
    await withTransaction(pool, (tx) => ordersProjection.apply(tx, batch, a));
    i += size;
    size = size >= 200 ? 1 : size * 3 + 1;
  }
  // B: one event per call.
  for (const e of events) await withTransaction(pool, (tx) => ordersProjection.apply(tx, [e], b));

  const [left, right] = [await dump('ordering_a'), await dump('ordering_b')];
  expect(left.orders).toHaveLength(300);
  const payments = events.filter((e) => e.type === 'PaymentRecorded' || e.type === 'PaymentRefunded').length;
  expect(events.filter((e) => e.type === 'PaymentRefunded').length).toBeGreaterThan(5);
  expect(left.history).toHaveLength(events.length - payments);
  expect(new Set(left.orders.map((o) => o.payment_status))).toEqual(new Set(['pending', 'partial', 'paid', 'refunded']));
  // A store's version counts its order changes: every event applied once, whatever the batches.
  expect(left.versions).toEqual([{ store_id: storeId, version: String(events.length) }]);
  expect(left).toEqual(right);
  // The search copy matches its orders row by row.
  const astray = await pool.query(
    `SELECT count(*)::int AS n FROM ordering_a.orders o FULL JOIN ordering_a.order_search s ON s.id = o.id
     WHERE s.id IS NULL OR o.id IS NULL OR (o.store_id, o.created_at, o.total, o.status, o.order_type, o.payment_status, o.search_key) IS DISTINCT FROM (s.store_id, s.created_at, s.total, s.status, s.order_type, s.payment_status, s.search_key)`,
  );
  expect(astray.rows[0].n).toBe(0);
  // The counts are the orders', per day, status, type and payment status (rows of passed-through statuses at 0).
  const counted = await pool.query(
    `SELECT k.status, k.n, coalesce(o.n, 0)::int AS actual FROM ordering_a.order_counts k
     LEFT JOIN (SELECT (created_at AT TIME ZONE 'America/Guatemala')::date AS day, status, order_type, payment_status, count(*) AS n FROM ordering_a.orders GROUP BY 1, 2, 3, 4) o
       ON o.day = k.day AND o.status = k.status AND o.order_type = k.order_type AND o.payment_status = k.payment_status`,
  );
  expect(counted.rows.some((r) => r.n === 0)).toBe(true);
  for (const r of counted.rows) expect(r.n).toBe(r.actual);
  // order_totals is order_counts without the day: the orders per status, type and payment status.
  const totalled = await pool.query(
    `SELECT k.n, coalesce(o.n, 0)::int AS actual, coalesce(c.n, 0)::int AS summed FROM ordering_a.order_totals k
     LEFT JOIN (SELECT store_id, status, order_type, payment_status, count(*) AS n FROM ordering_a.orders GROUP BY 1, 2, 3, 4) o
       ON o.store_id = k.store_id AND o.status = k.status AND o.order_type = k.order_type AND o.payment_status = k.payment_status
     LEFT JOIN (SELECT store_id, status, order_type, payment_status, sum(n) AS n FROM ordering_a.order_counts GROUP BY 1, 2, 3, 4) c
       ON c.store_id = k.store_id AND c.status = k.status AND c.order_type = k.order_type AND c.payment_status = k.payment_status`,
  );
  expect(totalled.rows.length).toBeGreaterThan(3);
  for (const r of totalled.rows) {
    expect(r.n).toBe(r.actual);
    expect(r.n).toBe(r.summed);
  }
});

it("answers a command with the row the projection writes: the order's state after its events makes the same view", async () => {
  const storeId = randomUUID();
  const t = tables('ordering_c');
  await pool.query('CREATE SCHEMA ordering_c');
  await withTransaction(pool, (tx) => ordersProjection.setup(tx, t));
  const events = history(120, storeId);
  for (let i = 0; i < events.length; i += 17) await withTransaction(pool, (tx) => ordersProjection.apply(tx, events.slice(i, i + 17), t));
  const states = new Map<string, OrderState>();
  for (const e of events) {
    const id = (e.data as { orderId: string }).orderId;
    states.set(id, evolveOrder(states.get(id) ?? { status: 'none' }, { type: e.type, data: e.data } as OrderEvent));
  }
  const rows = (await pool.query<OrderRow>('SELECT * FROM ordering_c.orders')).rows;
  expect(rows).toHaveLength(120);
  const same = (author: string) => author;
  const kinds = new Set<string>();
  for (const row of rows) {
    const state = states.get(row.id)!;
    if (state.status !== 'placed') throw new Error('sin pedido');
    kinds.add(row.payment_status);
    expect(orderView(stateRow(state), same)).toEqual(orderView(row, same));
  }
  expect(kinds).toEqual(new Set(['pending', 'partial', 'paid', 'refunded']));
});
