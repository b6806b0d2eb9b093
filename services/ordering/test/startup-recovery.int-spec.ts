// Ordering's start (issue 26): the stock held in inventory for checkouts the previous process lost
// (killed between the hold and the order) goes back at once, against a real PostgreSQL and a real
// inventory process; the orders it did record keep their units; nothing moves while another
// ordering process is running; and a shopper's retry afterwards is held anew, never oversold.
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { createTestDatabase, signedRequest, TEST_INTERNAL_SECRET, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { createApp as createInventory } from '../../inventory/src/app';
import { ORDERING_PROCESSES_LOCK, type OrderingProcessLease, recoverLostCheckouts } from '../src/orders/startup-recovery';

let db: TestDatabase;
let inventory: NestFastifyApplication;
let inventoryUrl: string;
let pool: pg.Pool;
let catalog: PostgresEventStore;
let ordering: PostgresEventStore;
const store = { userId: randomUUID(), storeId: randomUUID() };
const leases: OrderingProcessLease[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  inventory = await createInventory(testEnv(db.url, { RESERVATION_SWEEP_MS: '3600000' }));
  await inventory.listen({ port: 0, host: '127.0.0.1' });
  inventoryUrl = await inventory.getUrl();
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  catalog = new PostgresEventStore(pool, 'catalog');
  ordering = new PostgresEventStore(pool, 'ordering');
});

afterAll(async () => {
  for (const lease of leases) await lease.close();
  await inventory?.close();
  await pool?.end();
  await db?.drop();
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stock = async (productId: string) =>
  (await pool.query<{ on_hand: number; reserved: number }>('SELECT on_hand, reserved FROM inventory.stock_rows WHERE product_id = $1', [productId])).rows[0];

async function product(name: string, units: number): Promise<string> {
  const productId = randomUUID();
  await catalog.append(
    `product-${productId}`,
    [{ type: 'ProductCreated', data: { productId, storeId: store.storeId, name, description: null, sku: null, priceCentavos: 100, discountPercentage: 0, categoryId: null, images: [], isActive: true, initialStock: units, createdBy: store.userId } }],
    0,
  );
  await until(() => stock(productId), (r) => r !== undefined);
  await until(async () => (await pool.query('SELECT 1 FROM inventory.catalog_products WHERE product_id = $1 AND listed', [productId])).rowCount, (n) => n === 1);
  return productId;
}

/** What a checkout's first step does: the order's units held in inventory (the shop's public caller). */
const hold = (orderId: string, productId: string, quantity: number) =>
  inventory.inject(signedRequest({ method: 'POST', url: '/internal/reservations', payload: { orderId, lines: [{ productId, quantity }] }, userId: 'public', storeId: store.storeId }));

/** What its last step does: the order recorded in ordering's events (the stream is all the start looks at). */
const record = (orderId: string) =>
  ordering.append(`order-${orderId}`, [{ type: 'OrderPlaced', data: { orderId, storeId: store.storeId, status: 'pending' } }], 0, { storeId: store.storeId, actor: 'public' });

const logger = pino({ level: 'silent' });
async function start(): Promise<void> {
  const lease = await recoverLostCheckouts({ databaseUrl: db.url, pool, inventoryUrl, internalSecret: TEST_INTERNAL_SECRET, logger });
  if (lease) leases.push(lease);
}
/** The process started above stops (its lock session ends). */
async function stopLast(): Promise<void> {
  await leases.pop()?.close();
}

it('gives back at once the units of checkouts the killed process never recorded, keeps those of recorded orders, and a second start changes nothing', async () => {
  const productId = await product('Café de Huehuetenango', 5);
  const lost = randomUUID();
  const recorded = randomUUID();
  expect((await hold(lost, productId, 2)).statusCode).toBe(200);
  expect((await hold(recorded, productId, 1)).statusCode).toBe(200);
  await record(recorded);
  expect(await stock(productId)).toEqual({ on_hand: 5, reserved: 3 });

  await start();
  expect(await stock(productId)).toEqual({ on_hand: 5, reserved: 1 });
  const released = await pool.query(`SELECT data FROM inventory.events WHERE stream_id = $1 AND type = 'StockReservationReleased'`, [`stock-${productId}`]);
  expect(released.rows.map((r) => r.data)).toEqual([{ orderId: lost, productId, storeId: store.storeId, quantity: 2, reason: 'expired' }]);

  await stopLast();
  await start();
  expect(await stock(productId)).toEqual({ on_hand: 5, reserved: 1 });
  await stopLast();

  // The shopper of the lost checkout retries with the same Idempotency-Key (same order id): held anew.
  const retry = await hold(lost, productId, 2);
  expect(retry.statusCode).toBe(200);
  expect(await stock(productId)).toEqual({ on_hand: 5, reserved: 3 });
});

it('releases nothing while another ordering process runs (it could be between the hold and the order)', async () => {
  const productId = await product('Pan dulce', 2);
  const inFlight = randomUUID();
  expect((await hold(inFlight, productId, 2)).statusCode).toBe(200);
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  try {
    await other.query('SELECT pg_advisory_lock_shared($1)', [ORDERING_PROCESSES_LOCK]);
    await start();
    expect(await stock(productId)).toEqual({ on_hand: 2, reserved: 2 });
    // That process records its order: nothing was lost, nothing oversold.
    await record(inFlight);
    await stopLast();
  } finally {
    await other.end();
  }
  await start();
  expect(await stock(productId)).toEqual({ on_hand: 2, reserved: 2 });
  await stopLast();
});
