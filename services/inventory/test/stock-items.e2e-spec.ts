import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { InventoryMessages } from '@tiendita/contracts';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase, signedRequest, testEnv } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../src/app';

/** Inventory's part of the product form: stock items opened from ProductCreated, and the form's correction command. */
let db: TestDatabase;
let app: NestFastifyApplication;
let pool: pg.Pool;
const owner = { userId: randomUUID(), storeId: randomUUID() };

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createApp(testEnv(db.url));
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
});

afterAll(async () => {
  await app?.close();
  await pool?.end();
  await db?.drop();
});

const set = (productId: string, body: object, who = owner) => {
  const url = `/internal/stock-items/${productId}/set`;
  return app.inject(signedRequest({ method: 'POST', url, payload: body, ...who }));
};
const streamTypes = async (productId: string) =>
  (await pool.query<{ type: string }>('SELECT type FROM inventory.events WHERE stream_id = $1 ORDER BY stream_position', [`stock-${productId}`])).rows.map((r) => r.type);

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

it("opens a product's stock item from catalog's ProductCreated, once however often it is delivered", async () => {
  const productId = randomUUID();
  const catalog = new PostgresEventStore(pool, 'catalog');
  await catalog.append(
    `product-${productId}`,
    [
      {
        type: 'ProductCreated',
        data: { productId, storeId: owner.storeId, name: 'Café', description: null, sku: null, priceCentavos: 100, discountPercentage: 0, categoryId: null, images: [], isActive: true, initialStock: 9, createdBy: owner.userId },
      },
    ],
    0,
  );
  const types = await until(() => streamTypes(productId), (t) => t.length > 0);
  expect(types).toEqual(['StockItemOpened']);
  const opened = await pool.query('SELECT data FROM inventory.events WHERE stream_id = $1', [`stock-${productId}`]);
  expect(opened.rows[0].data).toEqual({ productId, storeId: owner.storeId, stock: 9 });
});

it('records a correction once per adjustment id, and never goes below 0', async () => {
  const productId = randomUUID();
  const adjustmentId = randomUUID();
  const body = { adjustmentId, newStock: 4, adjustmentType: 'correction', reason: 'Corrección desde el formulario de producto', openingStock: 10 };
  const first = await set(productId, body);
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({ productId, stock: 4, adjusted: true });
  const again = await set(productId, body);
  expect(again.json()).toMatchObject({ stock: 4, adjusted: false });
  expect(await streamTypes(productId)).toEqual(['StockItemOpened', 'StockAdjusted']);

  const negative = await set(productId, { ...body, adjustmentId: randomUUID(), newStock: -1 });
  expect(negative.statusCode).toBe(400);
  expect(negative.json().message).toBe(InventoryMessages.stockNegative);
  const badType = await set(productId, { ...body, adjustmentId: randomUUID(), adjustmentType: 'robo' });
  expect(badType.json().message).toBe('Tipo de ajuste inválido');
  const noReason = await set(productId, { ...body, adjustmentId: randomUUID(), reason: ' ' });
  expect(noReason.json().message).toBe('La razón es requerida');

  const rows = await until(
    () => pool.query('SELECT adjustment_type, old_stock, new_stock, adjustment FROM inventory.adjustments WHERE product_id = $1', [productId]),
    (r) => r.rows.length > 0,
  );
  expect(rows.rows).toEqual([{ adjustment_type: 'correction', old_stock: 10, new_stock: 4, adjustment: -6 }]);
});

it("another store's stock item is not found, and an unknown one without an opening stock too", async () => {
  const productId = randomUUID();
  await set(productId, { adjustmentId: randomUUID(), newStock: 1, adjustmentType: 'correction', reason: 'x', openingStock: 2 });
  const foreign = await set(productId, { adjustmentId: randomUUID(), newStock: 0, adjustmentType: 'correction', reason: 'x' }, { userId: randomUUID(), storeId: randomUUID() });
  expect(foreign.statusCode).toBe(404);
  const unknown = await set(randomUUID(), { adjustmentId: randomUUID(), newStock: 0, adjustmentType: 'correction', reason: 'x' });
  expect(unknown.statusCode).toBe(404);
});

it('refuses calls without the signature', async () => {
  const res = await app.inject({ method: 'POST', url: `/internal/stock-items/${randomUUID()}/set`, payload: {} });
  expect(res.statusCode).toBe(401);
});
