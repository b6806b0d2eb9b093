import { PostgresEventStore, PostgresTransport, ProjectionRunner } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { projections } from '../src/projections';

/**
 * The catalog's read models fed with events (catalog's own, inventory's stock, identity's stores),
 * read back as rows; and a rebuild from position 0 gives exactly the live rows.
 */
let db: TestDatabase;
let pool: pg.Pool;
let transport: PostgresTransport;
let runner: ProjectionRunner;
let catalog: PostgresEventStore;
let inventory: PostgresEventStore;
let identity: PostgresEventStore;

const storeId = randomUUID();
const categoryId = randomUUID();
const productId = randomUUID();
const otherProduct = randomUUID();
const reviewId = randomUUID();
const meta = { storeId, actor: 'owner' };

const created = (id: string, overrides: object = {}) => ({
  type: 'ProductCreated',
  data: {
    productId: id,
    storeId,
    name: 'Café',
    description: null,
    sku: 'CAF',
    priceCentavos: 7550,
    discountPercentage: 10,
    categoryId,
    images: ['/objects/a.png', '/objects/b.png'],
    isActive: true,
    initialStock: 5,
    createdBy: 'owner',
    ...overrides,
  },
});

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 6 });
  catalog = new PostgresEventStore(pool, 'catalog');
  inventory = new PostgresEventStore(pool, 'inventory');
  identity = new PostgresEventStore(pool, 'identity');
  for (const s of [catalog, inventory, identity]) await s.migrate();
  transport = new PostgresTransport({ pool, schema: 'catalog', connectionString: db.url });
  runner = new ProjectionRunner({ pool, schema: 'catalog', transport, projections });
  await runner.start();
});

afterAll(async () => {
  await runner?.stop();
  await transport?.close();
  await pool?.end();
  await db?.drop();
});

/** Waits until every projection's checkpoint has reached the last event of each of its sources. */
async function settle(): Promise<void> {
  const pending = async () => {
    const r = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (VALUES ('catalog.catalog_views', 'catalog'), ('catalog.catalog_views', 'inventory'), ('catalog.shop_stores', 'identity')) AS g(grp, src)
       LEFT JOIN catalog.subscription_checkpoints c ON c.group_name = g.grp AND c.source = g.src AND c.partition = 0
       WHERE (COALESCE(c.transaction_id, '0'::xid8), COALESCE(c.global_position, 0)) <
             CASE g.src
               WHEN 'catalog' THEN (SELECT (transaction_id, global_position) FROM catalog.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1)
               WHEN 'inventory' THEN (SELECT (transaction_id, global_position) FROM inventory.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1)
               ELSE (SELECT (transaction_id, global_position) FROM identity.events ORDER BY transaction_id DESC, global_position DESC LIMIT 1)
             END`,
    );
    return r.rows[0].n;
  };
  const deadline = Date.now() + 10_000;
  while ((await pending()) > 0 && Date.now() < deadline) await runner.caughtUp();
}

it('projects stores, products with their stock and price history, categories, reviews and counters', async () => {
  await identity.append(`store-${storeId}`, [{ type: 'StoreCreated', data: storeCreated() }], 0, meta);
  // Stock can arrive before the product it belongs to (two sources): the product picks it up.
  await inventory.append(`stock-${productId}`, [{ type: 'StockItemOpened', data: { productId, storeId, stock: 5 } }], 0, meta);
  await catalog.append(`category-${categoryId}`, [{ type: 'CategoryCreated', data: { categoryId, storeId, name: 'Bebidas', description: null } }], 0, meta);
  await catalog.append(`product-${productId}`, [created(productId)], 0, meta);
  await catalog.append(`product-${otherProduct}`, [created(otherProduct, { isActive: false, categoryId: null })], 0, meta);
  await inventory.append(
    `stock-${productId}`,
    [{ type: 'StockAdjusted', data: { adjustmentId: randomUUID(), productId, storeId, adjustmentType: 'correction', oldStock: 5, newStock: 2, adjustment: -3, reason: 'x', adjustedBy: 'owner' } }],
    1,
    meta,
  );
  await catalog.append(
    `product-${productId}`,
    [
      { type: 'ProductPriceChanged', data: { productId, storeId, oldPriceCentavos: 7550, newPriceCentavos: 8000, oldDiscountPercentage: 10, newDiscountPercentage: 0, changeReason: 'sube', changedBy: 'owner' } },
      { type: 'ProductUpdated', data: { productId, storeId, changes: { name: 'Café molido', images: ['/objects/b.png'] } } },
    ],
    1,
    meta,
  );
  await catalog.append(`review-${reviewId}`, [
    { type: 'RatingSubmitted', data: { ratingId: reviewId, productId, storeId, rating: 4, comment: null, customerName: 'Ana', customerEmail: null } },
    { type: 'ReviewApproved', data: { reviewId, kind: 'rating', productId, storeId, moderatedBy: 'owner' } },
  ], 0, meta);
  await settle();

  const product = (await pool.query('SELECT * FROM catalog.products WHERE id = $1', [productId])).rows[0];
  expect(product).toMatchObject({
    name: 'Café molido',
    price_centavos: '8000',
    final_price_centavos: '8000',
    stock: 2,
    category_name: 'Bebidas',
    images: ['/objects/b.png'],
    rating_sum: 4,
    rating_count: 1,
  });
  expect(JSON.parse(product.public_json)).toMatchObject({ id: productId, name: 'Café molido', price: 80, finalPrice: 80, stock: 2, imageUrl: '/objects/b.png', categoryName: 'Bebidas' });
  const history = await pool.query('SELECT old_price_centavos, new_price_centavos, change_reason FROM catalog.price_history WHERE product_id = $1 ORDER BY created_at, old_price_centavos NULLS FIRST', [productId]);
  expect(history.rows).toEqual([
    { old_price_centavos: null, new_price_centavos: '7550', change_reason: null },
    { old_price_centavos: '7550', new_price_centavos: '8000', change_reason: 'sube' },
  ]);
  const counts = await pool.query('SELECT category_id, active FROM catalog.product_counts WHERE store_id = $1', [storeId]);
  expect(counts.rows).toEqual([{ category_id: categoryId, active: 1 }]);
  expect((await pool.query('SELECT subdomain, is_active FROM catalog.stores WHERE id = $1', [storeId])).rows).toEqual([{ subdomain: 'tienda-proyeccion', is_active: true }]);
});

it("copies what the shop's first screen shows of a store (colours, address, phone, hours, WhatsApp) from its events; a cleared field becomes null", async () => {
  const store = randomUUID();
  await identity.append(
    `store-${store}`,
    [{ type: 'StoreCreated', data: { ...storeCreated(), storeId: store, subdomain: 'primera-pantalla', address: '6a avenida', phone: '2222 3333', whatsappNumber: '55555555' } }],
    0,
    { storeId: store, actor: 'owner' },
  );
  await identity.append(
    `store-${store}`,
    [{ type: 'StoreUpdated', data: { storeId: store, changes: { primaryColor: '#16a34a', businessHours: 'Lunes a viernes', phone: null }, updatedAt: new Date().toISOString() } }],
    1,
    { storeId: store, actor: 'owner' },
  );
  await settle();
  const row = (await pool.query('SELECT primary_color, secondary_color, accent_color, address, phone, business_hours, whatsapp_number FROM catalog.stores WHERE id = $1', [store])).rows[0];
  expect(row).toEqual({
    primary_color: '#16a34a',
    secondary_color: '#0284c7',
    accent_color: '#dc2626',
    address: '6a avenida',
    phone: null,
    business_hours: 'Lunes a viernes',
    whatsapp_number: '55555555',
  });
});

it("a product whose category arrives after it (under Kafka they travel on different partitions) gets the category's name when it comes", async () => {
  const store = randomUUID();
  const other = randomUUID();
  const grains = randomUUID();
  const dairy = randomUUID();
  const [rice, milk, forged] = [randomUUID(), randomUUID(), randomUUID()];
  const at = { storeId: store, actor: 'owner' };
  await catalog.append(`product-${rice}`, [created(rice, { storeId: store, name: 'Arroz', categoryId: grains })], 0, at);
  await catalog.append(`product-${milk}`, [created(milk, { storeId: store, name: 'Leche', categoryId: null })], 0, at);
  await catalog.append(`product-${milk}`, [{ type: 'ProductUpdated', data: { productId: milk, storeId: store, changes: { categoryId: dairy } } }], 1, at);
  // Another store's product naming this store's category learns nothing from it.
  await catalog.append(`product-${forged}`, [created(forged, { storeId: other, name: 'Ajeno', categoryId: grains })], 0, { storeId: other, actor: 'owner' });
  await settle();
  expect((await pool.query('SELECT category_name FROM catalog.products WHERE id = $1', [rice])).rows[0]).toEqual({ category_name: null });

  await catalog.append(`category-${grains}`, [{ type: 'CategoryCreated', data: { categoryId: grains, storeId: store, name: 'Granos', description: null } }], 0, at);
  await catalog.append(`category-${dairy}`, [{ type: 'CategoryCreated', data: { categoryId: dairy, storeId: store, name: 'Lácteos', description: null } }], 0, at);
  await settle();
  const rows = await pool.query('SELECT id, category_name, public_json FROM catalog.products WHERE id = ANY($1::uuid[])', [[rice, milk, forged]]);
  const byId = new Map(rows.rows.map((r) => [r.id, r]));
  expect(byId.get(rice)).toMatchObject({ category_name: 'Granos' });
  expect(JSON.parse(byId.get(rice).public_json)).toMatchObject({ name: 'Arroz', categoryId: grains, categoryName: 'Granos' });
  expect(byId.get(milk)).toMatchObject({ category_name: 'Lácteos' });
  expect(JSON.parse(byId.get(milk).public_json)).toMatchObject({ name: 'Leche', categoryId: dairy, categoryName: 'Lácteos' });
  expect(byId.get(forged)).toMatchObject({ category_name: null });
});

it('a rebuild from position 0 matches the live read models row for row, then swaps them in', async () => {
  await catalog.append(`product-${otherProduct}`, [{ type: 'ProductActivated', data: { productId: otherProduct, storeId } }], 1, meta);
  await catalog.append(`product-${productId}`, [{ type: 'ProductDeleted', data: { productId, storeId } }], 3, meta);
  await settle();
  const result = await runner.rebuild('catalog_views');
  expect(result.verified).toBe(true);
  const counts = await pool.query('SELECT category_id, active FROM catalog.product_counts WHERE store_id = $1 AND active <> 0', [storeId]);
  expect(counts.rows).toEqual([{ category_id: '00000000-0000-0000-0000-000000000000', active: 1 }]);
  expect((await runner.rebuild('shop_stores')).verified).toBe(true);
});

function storeCreated() {
  return {
    storeId,
    ownerId: randomUUID(),
    name: 'Tienda Proyección',
    subdomain: 'tienda-proyeccion',
    businessType: 'grocery',
    description: null,
    phone: null,
    email: null,
    address: null,
    department: null,
    website: null,
    whatsappNumber: null,
    businessHours: null,
    isActive: true,
    allowOnlineOrders: true,
    requireCustomerInfo: false,
    logoUrl: null,
    primaryColor: '#0ea5e9',
    secondaryColor: '#0284c7',
    accentColor: '#dc2626',
    aiDescriptionLength: 'normal',
    createdAt: new Date().toISOString(),
  };
}
