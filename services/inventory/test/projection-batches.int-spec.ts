import type { OrderPlaced } from '@tiendita/contracts';
import { type RecordedEventWithTx, withTransaction } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { productsProjection, type ProductsTable } from '../src/read-model/products.projection';
import { stockProjection, type StockTable } from '../src/read-model/stock.projection';

/**
 * Inventory's read models apply a checkout's events set-based: the stock projection a run of holds,
 * releases and sales in one statement (each ledger line with the on hand and held after it, and its
 * ordinal) and a run of OrderPlaced in one; catalog_products each product's stock moves of a run at
 * once. Whatever the batches, the tables must be those of one event at a time.
 */
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query('CREATE SCHEMA inventory_a; CREATE SCHEMA inventory_b');
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

const stockTables = (schema: string): Record<StockTable, string> => ({
  stock_items: `${schema}.stock_items`,
  adjustments: `${schema}.adjustments`,
  movements: `${schema}.movements`,
  order_codes: `${schema}.order_codes`,
  owner_names: `${schema}.owner_names`,
});
const productTables = (schema: string): Record<ProductsTable, string> => ({
  catalog_products: `${schema}.catalog_products`,
  catalog_categories: `${schema}.catalog_categories`,
  catalog_product_counts: `${schema}.catalog_product_counts`,
});


let position = 0;
function recorded(type: string, data: object, streamId: string): RecordedEventWithTx {
  position++;
  return {
    globalPosition: position,
    streamId,
    streamPosition: position,
    type,
    data,
    metadata: { eventId: randomUUID(), schemaVersion: 1, storeId: (data as { storeId?: string }).storeId ?? null, occurredAt: new Date(Date.UTC(2026, 9, 1, 0, 0, 0, position)).toISOString(), correlationId: null, causationId: null, actor: 'test' },
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
 * One store's products opened with some stock, then orders that hold units of a few products each
 * (a StockReserved per line, then OrderPlaced), some released (cancelled or expired) and some sold,
 * counts by the owner, minimums, a category and products whose ProductCreated comes after their
 * stock events; every move one the write model could have decided (never more held than on hand).
 */
function history(storeId: string): RecordedEventWithTx[] {
  const random = prng(5);
  const categoryId = randomUUID();
  const products = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), onHand: 20 + i, held: 0, listed: false }));
  const stream = (p: { id: string }) => `stock-${p.id}`;
  const listed = (p: (typeof products)[number], i: number) => {
    p.listed = true;
    return recorded(
      'ProductCreated',
      { productId: p.id, storeId, name: `Producto ${i}`, description: null, sku: `P-${i}`, priceCentavos: 1000, discountPercentage: 0, categoryId: i % 2 ? categoryId : null, images: [], isActive: true, initialStock: p.onHand, createdBy: 'owner' },
      `product-${p.id}`,
    );
  };
  const events: RecordedEventWithTx[] = [
    recorded('CategoryCreated', { categoryId, storeId, name: 'Bebidas', description: null }, `category-${categoryId}`),
    recorded('UserRegistered', { userId: randomUUID(), email: 'a@b.c', passwordHash: 'x', firstName: 'Dueña', lastName: 'Tienda', storeId, registeredAt: '2026-10-01T00:00:00.000Z' }, 'user-1'),
  ];
  products.forEach((p, i) => {
    if (i < 7) events.push(listed(p, i));
    events.push(recorded('StockItemOpened', { productId: p.id, storeId, stock: p.onHand }, stream(p)));
  });
  const open: { orderId: string; lines: { p: (typeof products)[number]; quantity: number }[] }[] = [];
  for (let k = 0; k < 150; k++) {
    const roll = random(10);
    if (roll < 5) {
      // An order of up to three lines: its holds, then (most of the time) its OrderPlaced.
      const orderId = randomUUID();
      const lines: { p: (typeof products)[number]; quantity: number }[] = [];
      for (const p of new Set([products[random(10)], products[random(10)], products[random(10)]])) {
        const quantity = 1 + random(3);
        if (p.onHand - p.held < quantity) continue;
        p.held += quantity;
        lines.push({ p, quantity });
        events.push(recorded('StockReserved', { orderId, productId: p.id, storeId, quantity, expiresAt: '2026-10-01T00:10:00.000Z' }, stream(p)));
      }
      if (lines.length === 0) continue;
      open.push({ orderId, lines });
      if (random(4) > 0) {
        const placed = { orderId, storeId, code: `C${k}`, items: [] } as unknown as OrderPlaced;
        events.push(recorded('OrderPlaced', placed, `order-${orderId}`));
        events.push(recorded('OrderStatusChanged', { orderId, storeId, status: 'confirmed', previousStatus: 'pending', notes: null, changedBy: 'x', changedAt: '2026-10-01T00:00:00.000Z' }, `order-${orderId}`));
      }
    } else if (roll < 8 && open.length > 0) {
      // An open order released (cancelled or expired) or sold, line by line.
      const [order] = open.splice(random(open.length), 1);
      const sold = roll === 7;
      for (const { p, quantity } of order.lines) {
        p.held -= quantity;
        if (sold) {
          p.onHand -= quantity;
          events.push(recorded('StockSold', { orderId: order.orderId, productId: p.id, storeId, quantity, onHand: p.onHand }, stream(p)));
        } else events.push(recorded('StockReservationReleased', { orderId: order.orderId, productId: p.id, storeId, quantity, reason: random(2) ? 'cancelled' : 'expired' }, stream(p)));
      }
    } else if (roll === 8) {
      const p = products[random(10)];
      const newStock = p.held + random(15);
      events.push(
        recorded(
          'StockAdjusted',
          { adjustmentId: randomUUID(), productId: p.id, storeId, adjustmentType: 'correction', oldStock: p.onHand, newStock, adjustment: newStock - p.onHand, reason: 'conteo', adjustedBy: 'Dueña Tienda' },
          stream(p),
        ),
      );
      p.onHand = newStock;
    } else {
      const p = products[random(10)];
      if (!p.listed && random(2)) events.push(listed(p, products.indexOf(p)));
      else events.push(recorded('StockMinimumSet', { productId: p.id, storeId, minimum: random(30) }, stream(p)));
    }
  }
  return events;
}

async function dump(schema: string) {
  const q = async (sql: string) => (await pool.query(sql.replaceAll('$s', schema))).rows;
  return {
    items: await q('SELECT * FROM $s.stock_items ORDER BY product_id'),
    movements: await q('SELECT * FROM $s.movements ORDER BY event_id'),
    adjustments: await q('SELECT * FROM $s.adjustments ORDER BY id'),
    codes: await q('SELECT * FROM $s.order_codes ORDER BY order_id'),
    names: await q('SELECT * FROM $s.owner_names ORDER BY user_id'),
    products: await q('SELECT * FROM $s.catalog_products ORDER BY product_id'),
    counts: await q('SELECT * FROM $s.catalog_product_counts ORDER BY 1, 2, 3'),
  };
}

it('a checkout\'s holds, releases, sales and orders in any batches give the tables of one event at a time', async () => {
  const storeId = randomUUID();
  await withTransaction(pool, async (tx) => {
    for (const schema of ['inventory_a', 'inventory_b']) {
      await stockProjection.setup!(tx, stockTables(schema));
      await productsProjection.setup!(tx, productTables(schema));
    }
  });
  const events = history(storeId);
  expect(events.filter((e) => e.type === 'StockReserved').length).toBeGreaterThan(100);
  expect(events.filter((e) => e.type === 'StockSold').length).toBeGreaterThan(5);
  expect(events.filter((e) => e.type === 'StockReservationReleased').length).toBeGreaterThan(10);
  // Each projection reads its sources' events; a subscription hands it one source's events at a time.
  const stockSources = new Set(['StockItemOpened', 'StockAdjusted', 'StockReserved', 'StockReservationReleased', 'StockSold', 'StockMinimumSet', 'OrderPlaced', 'OrderStatusChanged', 'UserRegistered']);
  const apply = async (batch: RecordedEventWithTx[], schema: string) => {
    const stock = batch.filter((e) => stockSources.has(e.type));
    const products = batch.filter((e) => !['OrderPlaced', 'OrderStatusChanged', 'UserRegistered'].includes(e.type));
    await withTransaction(pool, async (tx) => {
      if (stock.length) await stockProjection.apply(tx, stock, stockTables(schema));
      if (products.length) await productsProjection.apply(tx, products, productTables(schema));
    });
  };

  // A: uneven batches, from one event to a few hundred.
  let i = 0;
  let size = 1;
  while (i < events.length) {
    await apply(events.slice(i, i + size), 'inventory_a');
    i += size;
    size = size >= 200 ? 1 : size * 3 + 1;
  }
  // B: one event per call.
  for (const e of events) await apply([e], 'inventory_b');

  const [left, right] = [await dump('inventory_a'), await dump('inventory_b')];
  expect(left.movements.length).toBe(events.filter((e) => e.type.startsWith('Stock') && e.type !== 'StockMinimumSet').length);
  expect(left.codes.length).toBe(events.filter((e) => e.type === 'OrderPlaced').length);
  expect(left).toEqual(right);
  // Each product's ledger is numbered 1, 2, 3… and its last line has the row's on hand and held.
  const ledger = await pool.query(
    `SELECT s.product_id, s.stock, s.reserved, s.movements, m.new_stock, m.reserved AS last_reserved, (SELECT count(*)::int FROM inventory_a.movements x WHERE x.product_id = s.product_id) AS lines
     FROM inventory_a.stock_items s JOIN inventory_a.movements m ON m.product_id = s.product_id AND m.product_seq = s.movements`,
  );
  expect(ledger.rows).toHaveLength(10);
  for (const r of ledger.rows) expect({ stock: r.new_stock, reserved: r.last_reserved, movements: r.lines }).toEqual({ stock: r.stock, reserved: r.reserved, movements: r.movements });
  // catalog_products holds what the ledger does.
  const rows = await pool.query(
    `SELECT count(*)::int AS n FROM inventory_a.stock_items s JOIN inventory_a.catalog_products p USING (product_id) WHERE (s.stock, s.reserved, s.adjustments_count) IS DISTINCT FROM (p.stock, p.reserved, p.adjustments_count)`,
  );
  expect(rows.rows[0].n).toBe(0);
});
