import { type RecordedEventWithTx, withTransaction } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { CATALOG_TABLES, type CatalogTables } from '../src/read-model/catalog-tables';
import { catalogProjection } from '../src/read-model/catalog.projection';

/**
 * Catalog's stock projection applies a run of stock moves (StockAdjusted, StockReserved,
 * StockReservationReleased) set-based: each product's moves composed and applied once. Whatever the
 * batches, the rows must be those of one event at a time, the floor at 0 of every step included.
 */
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query('CREATE SCHEMA catalog_a; CREATE SCHEMA catalog_b');
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const tables = (schema: string): CatalogTables => Object.fromEntries(CATALOG_TABLES.map((name) => [name, `${schema}.${name}`])) as CatalogTables;


let position = 0;
function recorded(type: string, data: { productId: string; storeId: string }): RecordedEventWithTx {
  position++;
  return {
    globalPosition: position,
    streamId: `stock-${data.productId}`,
    streamPosition: position,
    type,
    data,
    metadata: { eventId: randomUUID(), schemaVersion: 1, storeId: data.storeId, occurredAt: new Date(Date.UTC(2026, 9, 1, 0, 0, position)).toISOString(), correlationId: null, causationId: null, actor: 'test' },
    recordedAt: new Date(),
    transactionId: String(position),
  };
}

/** A fixed pseudo-random sequence (32-bit LCG), so a failure repeats. */
function prng(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return (s >>> 8) % n;
  };
}

/**
 * Products of one store, some created before their stock events, some after and some never (their
 * level waits for them), moved by holds, releases, adjustments and sales in any order: a release or
 * a negative adjustment can take a level below what it holds, so the floor at 0 is met often.
 * Answers the events and each product's level as one event at a time leaves it.
 */
function history(storeId: string): { events: RecordedEventWithTx[]; levels: Map<string, number> } {
  const random = prng(11);
  const products = Array.from({ length: 12 }, () => randomUUID());
  const created = (productId: string, i: number) =>
    recorded('ProductCreated', {
      productId,
      storeId,
      name: `Producto ${i}`,
      description: null,
      sku: `P${i}`,
      priceCentavos: 1000 + i,
      discountPercentage: 0,
      categoryId: null,
      images: [],
      isActive: true,
      initialStock: 3,
      createdBy: 'owner',
    } as never);
  const events: RecordedEventWithTx[] = products.slice(0, 4).map(created);
  const levels = new Map<string, number>();
  const orderId = randomUUID();
  for (let k = 0; k < 600; k++) {
    const productId = products[random(products.length)];
    const quantity = 1 + random(4);
    const level = levels.get(productId);
    switch (random(9)) {
      case 0:
      case 1:
      case 2:
      case 3:
        events.push(recorded('StockReserved', { orderId, productId, storeId, quantity, expiresAt: '2026-10-01T00:10:00.000Z' } as never));
        levels.set(productId, Math.max(level === undefined ? 0 : level - quantity, 0));
        break;
      case 4:
      case 5: {
        events.push(recorded('StockReservationReleased', { orderId, productId, storeId, quantity, reason: random(2) ? 'cancelled' : 'expired' } as never));
        levels.set(productId, Math.max(level === undefined ? quantity : level + quantity, 0));
        break;
      }
      case 6: {
        const adjustment = random(13) - 6;
        const newStock = 2 + random(10);
        events.push(
          recorded('StockAdjusted', { adjustmentId: randomUUID(), productId, storeId, adjustmentType: 'correction', oldStock: newStock - adjustment, newStock, adjustment, reason: 'conteo', adjustedBy: 'Dueña' } as never),
        );
        levels.set(productId, Math.max(level === undefined ? newStock : level + adjustment, 0));
        break;
      }
      case 7:
        // Read by other projections only: it must not end a run of moves here, nor move anything.
        events.push(recorded('StockSold', { orderId, productId, storeId, quantity, onHand: 0 } as never));
        break;
      default:
        // Events that are no stock moves, between the runs.
        if (random(2) === 0 && products.indexOf(productId) >= 4 && products.indexOf(productId) < 10 && !events.some((e) => e.type === 'ProductCreated' && (e.data as { productId: string }).productId === productId)) {
          events.push(created(productId, products.indexOf(productId)));
        } else events.push(recorded('StockMinimumSet', { productId, storeId, minimum: random(8) } as never));
    }
  }
  return { events, levels };
}

async function dump(schema: string) {
  const products = await pool.query(`SELECT id, stock, stock_minimum, public_json FROM ${schema}.products ORDER BY id`);
  const levels = await pool.query(`SELECT product_id, store_id, stock, minimum FROM ${schema}.stock_levels ORDER BY product_id`);
  return { products: products.rows, levels: levels.rows };
}

it('a run of stock moves in one batch gives the rows of one event at a time (levels floored at 0 at every step)', async () => {
  const storeId = randomUUID();
  const a = tables('catalog_a');
  const b = tables('catalog_b');
  await withTransaction(pool, async (tx) => {
    await catalogProjection.setup!(tx, a);
    await catalogProjection.setup!(tx, b);
  });
  const { events, levels } = history(storeId);
  expect(events.filter((e) => e.type === 'StockReserved').length).toBeGreaterThan(200);

  // A: uneven batches, from one event to a few hundred.
  let i = 0;
  let size = 1;
  while (i < events.length) {
    const batch = events.slice(i, i + size);
    await withTransaction(pool, (tx) => catalogProjection.apply(tx, batch, a));
    i += size;
    size = size >= 200 ? 1 : size * 3 + 1;
  }
  // B: one event per call.
  for (const e of events) await withTransaction(pool, (tx) => catalogProjection.apply(tx, [e], b));

  const [left, right] = [await dump('catalog_a'), await dump('catalog_b')];
  expect(left).toEqual(right);
  // Each level is the one of the moves one at a time, and each product row shows it (its shop JSON too).
  expect(Object.fromEntries(left.levels.map((r) => [r.product_id, r.stock]))).toEqual(Object.fromEntries(levels));
  expect(left.products.length).toBeGreaterThan(4);
  for (const p of left.products) {
    expect(p.stock).toBe(levels.get(p.id) ?? 3);
    expect(JSON.parse(p.public_json).stock).toBe(p.stock);
  }
});

it('a hold that meets an empty level stays at 0 and a later release counts from 0, within one batch', async () => {
  const storeId = randomUUID();
  const t = tables('catalog_a');
  const productId = randomUUID();
  const orderId = randomUUID();
  const events = [
    recorded('StockItemOpened', { productId, storeId, stock: 2 } as never),
    recorded('StockReserved', { orderId, productId, storeId, quantity: 3, expiresAt: '2026-10-01T00:10:00.000Z' } as never),
    recorded('StockReservationReleased', { orderId, productId, storeId, quantity: 1, reason: 'expired' } as never),
    recorded('StockReserved', { orderId, productId, storeId, quantity: 1, expiresAt: '2026-10-01T00:10:00.000Z' } as never),
    recorded('StockAdjusted', { adjustmentId: randomUUID(), productId, storeId, adjustmentType: 'restock', oldStock: 0, newStock: 5, adjustment: 5, reason: 'x', adjustedBy: 'Dueña' } as never),
  ];
  await withTransaction(pool, (tx) => catalogProjection.apply(tx, events, t));
  // 2 → max(2−3, 0) = 0 → 1 → 0 → 5
  expect((await pool.query(`SELECT stock FROM ${t.stock_levels} WHERE product_id = $1`, [productId])).rows).toEqual([{ stock: 5 }]);
});

it("the shop's JSON written with a run's stock is made again when a later event of the batch changes the product", async () => {
  const storeId = randomUUID();
  const t = tables('catalog_a');
  const [early, late] = [randomUUID(), randomUUID()];
  const orderId = randomUUID();
  const product = (productId: string) =>
    recorded('ProductCreated', {
      productId,
      storeId,
      name: 'Antes',
      description: null,
      sku: null,
      priceCentavos: 1000,
      discountPercentage: 0,
      categoryId: null,
      images: [],
      isActive: true,
      initialStock: 10,
      createdBy: 'owner',
    } as never);
  const reserved = (productId: string) => recorded('StockReserved', { orderId, productId, storeId, quantity: 2, expiresAt: '2026-10-01T00:10:00.000Z' } as never);
  const renamed = (productId: string) => recorded('ProductUpdated', { productId, storeId, changes: { name: 'Después' } } as never);
  const opened = (productId: string) => recorded('StockItemOpened', { productId, storeId, stock: 10 } as never);
  await withTransaction(pool, (tx) => catalogProjection.apply(tx, [product(early), product(late), opened(early), opened(late)], t));
  // One batch: `early` renamed before its hold, `late` after it.
  await withTransaction(pool, (tx) => catalogProjection.apply(tx, [renamed(early), reserved(early), reserved(late), renamed(late)], t));
  const rows = await pool.query(`SELECT id, stock, public_json FROM ${t.products} WHERE id = ANY($1::uuid[])`, [[early, late]]);
  expect(rows.rows).toHaveLength(2);
  for (const r of rows.rows) {
    expect(r.stock).toBe(8);
    expect(JSON.parse(r.public_json)).toMatchObject({ name: 'Después', stock: 8 });
  }
});
