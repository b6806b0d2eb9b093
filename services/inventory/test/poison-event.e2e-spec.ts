import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode, InventoryMessages, type ProductCreated } from '@tiendita/contracts';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { ProjectionHost } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase, signedRequest, testEnv } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../src/app';
import { STOCK_ITEMS_PAUSED_MESSAGE, STOCK_ITEMS_REACTION } from '../src/stock/reactions/catalog-products.consumer';

/**
 * A poison event on catalog's stream pauses inventory's stock-items reaction alone: it is retried a
 * few times, dead-lettered and recorded paused, while the products projection (which reads the same
 * catalog events) and the stock projection keep catching up; a command that would wait for the
 * paused reaction answers 503 at once.
 */
let db: TestDatabase;
let app: NestFastifyApplication;
let pool: pg.Pool;
let catalog: PostgresEventStore;
const owner = { userId: randomUUID(), storeId: randomUUID() };

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createApp(testEnv(db.url));
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  catalog = new PostgresEventStore(pool, 'catalog');
});

afterAll(async () => {
  await app?.close();
  catalog?.close();
  await pool?.end();
  await db?.drop();
});

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

function created(productId: string, name: string, initialStock: number): ProductCreated {
  return {
    productId,
    storeId: owner.storeId,
    name,
    description: null,
    sku: null,
    priceCentavos: 1000,
    discountPercentage: 0,
    categoryId: null,
    images: [],
    isActive: true,
    initialStock,
    createdBy: owner.userId,
  };
}

const appendCreated = (data: ProductCreated) => catalog.append(`product-${data.productId}`, [{ type: 'ProductCreated', data }], 0, { storeId: owner.storeId });
const stockRow = async (productId: string) => (await pool.query('SELECT on_hand FROM inventory.stock_rows WHERE product_id = $1', [productId])).rows[0] ?? null;
const reactionState = async () => (await pool.query(`SELECT status, kind, last_error FROM inventory.projections WHERE name = $1`, [STOCK_ITEMS_REACTION])).rows[0];

it('a ProductCreated whose stock item cannot open pauses the stock-items reaction only; the other projections catch up', async () => {
  const before = randomUUID();
  const poisoned = randomUUID();
  const after = randomUUID();
  await appendCreated(created(before, 'Café', 3));
  expect(await until(() => stockRow(before), (r) => r !== null)).toEqual({ on_hand: 3 });

  // A stock below 0 passes the event's schema but OpenStockItem refuses it, every time.
  await appendCreated(created(poisoned, 'Azúcar', -5));
  await appendCreated(created(after, 'Arroz', 7));

  // Retried (3 attempts with a growing wait), then dead-lettered and paused, durably.
  const state = await until(reactionState, (s) => s?.status === 'paused');
  expect(state).toEqual({ status: 'paused', kind: 'reaction', last_error: expect.stringContaining(InventoryMessages.stockNegative) });
  const dead = await pool.query(`SELECT projection, source, stream_id, type, error, attempts FROM inventory.dead_letters`);
  expect(dead.rows).toEqual([{ projection: STOCK_ITEMS_REACTION, source: 'catalog', stream_id: `product-${poisoned}`, type: 'ProductCreated', error: InventoryMessages.stockNegative, attempts: 3 }]);
  const host = app.get(ProjectionHost);
  expect(host.runner.isPaused(STOCK_ITEMS_REACTION)).toBe(true);

  // Inventory's products projection reads the same catalog events and has all three products.
  await host.caughtUp('catalog_products');
  const products = await pool.query(`SELECT name FROM inventory.catalog_products WHERE store_id = $1 ORDER BY name`, [owner.storeId]);
  expect(products.rows.map((r) => r.name)).toEqual(['Arroz', 'Azúcar', 'Café']);
  const others = await pool.query(`SELECT name, status FROM inventory.projections WHERE name <> $1 ORDER BY name`, [STOCK_ITEMS_REACTION]);
  expect(others.rows).toEqual([
    { name: 'catalog_products', status: 'running' },
    { name: 'orders', status: 'running' },
    { name: 'stock', status: 'running' },
  ]);

  // The stock projection keeps following inventory's own events: an adjustment of an open item shows at once.
  const adjusted = await app.inject(
    signedRequest({ method: 'POST', url: '/api/inventory/adjust', payload: { productId: before, newStock: 10, adjustmentType: 'correction', reason: 'Conteo' }, ...owner }),
  );
  expect(adjusted.statusCode).toBe(200);
  expect(adjusted.json()).toMatchObject({ message: 'Inventario actualizado', productId: before, stock: 10 });
  expect((await pool.query('SELECT stock FROM inventory.stock_items WHERE product_id = $1', [before])).rows[0]).toEqual({ stock: 10 });

  // The product after the poison has no stock item yet: a command on it does not wait 5 s for nothing.
  expect(await stockRow(after)).toBeNull();
  const startedAt = Date.now();
  const waiting = await app.inject(
    signedRequest({ method: 'POST', url: '/api/inventory/adjust', payload: { productId: after, newStock: 2, adjustmentType: 'correction', reason: 'Conteo' }, ...owner }),
  );
  expect(Date.now() - startedAt).toBeLessThan(2_000);
  expect(waiting.statusCode).toBe(503);
  expect(waiting.json()).toEqual({ message: STOCK_ITEMS_PAUSED_MESSAGE, code: ErrorCode.unavailable, details: { projection: STOCK_ITEMS_REACTION } });
}, 60_000);
