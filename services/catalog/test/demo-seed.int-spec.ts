import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase, testCallerHeaders, testEnv } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { createApp } from '../src/app';
import { DemoSeed } from '../src/seed/demo-seed';
import { DEMO_PRODUCTS } from '../src/seed/demo-products';

/** SEED_DEMO=1: the demo store gets its catalogue once, with real pictures, however often it runs. */
let db: TestDatabase;
let app: NestFastifyApplication;
let pool: pg.Pool;
let dataDir: string;
const storeId = randomUUID();
/** /health while the seed waits for the store, and once it has finished. */
let healthWhileSeeding: unknown;

beforeAll(async () => {
  db = await createTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'tiendita-seed-'));
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  app = await createApp(testEnv(db.url, { SEED_DEMO: '1', DATA_DIR: dataDir }));
  healthWhileSeeding = (await app.inject({ method: 'GET', url: '/health' })).json();
  // Identity's seed creates the store 'demo'; catalog waits for it to reach its stores projection.
  const identity = new PostgresEventStore(pool, 'identity');
  await identity.migrate();
  await identity.append(`store-${storeId}`, [{ type: 'StoreCreated', data: demoStore() }], 0, { storeId });
  await app.get(DemoSeed).done;
}, 120_000);

afterAll(async () => {
  await app?.close();
  await pool?.end();
  await db?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string) => app.inject({ method: 'GET', url, headers: testCallerHeaders({ method: 'GET', path: url }) });

it('/health says ready: false while the seed runs (the supervisor opens the gateway after it), then ready: true', async () => {
  expect(healthWhileSeeding).toEqual({ status: 'ok', service: 'catalog', ready: false });
  const res = await app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok', service: 'catalog', ready: true });
});

it('gives the demo shop categories and ~30 products with varied stock, discounts and an inactive one', async () => {
  const list = (await get('/api/public/products/demo?limit=100')).json();
  const active = DEMO_PRODUCTS.filter((p) => p.active !== false).length;
  expect(DEMO_PRODUCTS.length).toBeGreaterThanOrEqual(30);
  expect(list.total).toBe(active);
  const stocks = list.products.map((p: { stock: number }) => p.stock);
  expect(stocks).toContain(0);
  expect(stocks.some((s: number) => s > 0 && s <= 5)).toBe(true);
  expect(list.products.some((p: { discountPercentage: number }) => p.discountPercentage > 0)).toBe(true);
  const categories = (await get('/api/public/categories/demo')).json();
  expect(categories.length).toBeGreaterThanOrEqual(5);
});

it('the pictures are real PNG or WebP files in the upload storage, with shop variants', async () => {
  const list = (await get('/api/public/products/demo?limit=5')).json();
  for (const product of list.products) {
    const res = await get(product.imageUrl);
    expect(res.statusCode).toBe(200);
    const meta = await sharp(res.rawPayload).metadata();
    expect(['png', 'webp']).toContain(meta.format);
    expect(meta.width).toBe(800);
    const variant = await get(`${product.imageUrl}?w=400`);
    expect(variant.headers['content-type']).toBe('image/webp');
  }
});

it('a few approved ratings and comments show on the product page', async () => {
  const list = (await get('/api/public/products/demo?search=Antigua')).json();
  const details = (await get(`/api/public/products/${list.products[0].id}/details`)).json();
  expect(details.totalRatings).toBe(2);
  expect(details.averageRating).toBe(4.5);
  expect(details.comments).toHaveLength(1);
});

it('running again creates nothing new', async () => {
  const count = async () => Number((await pool.query('SELECT count(*) AS n FROM catalog.events')).rows[0].n);
  const before = await count();
  await app.get(DemoSeed).run();
  expect(await count()).toBe(before);
});

function demoStore() {
  return {
    storeId,
    ownerId: randomUUID(),
    name: 'Tienda Demo',
    subdomain: 'demo',
    businessType: 'grocery',
    description: 'La tienda de ejemplo',
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
