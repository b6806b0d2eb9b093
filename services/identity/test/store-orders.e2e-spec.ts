import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import { createTestDatabase, signedRequest, testCallerHeaders, testEnv, type TestDatabase } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { createApp } from '../src/app';

// GET /api/store's totalOrders (spec 001 §3, store stats) counts the orders ordering has placed for
// the store, read from ordering's events (identity.store_orders), never another store's.

let db: TestDatabase;
let app: NestFastifyApplication;
let ordering: PostgresEventStore;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createApp(testEnv(db.url));
  ordering = new PostgresEventStore(app.get<Pool>(PG_POOL), 'ordering');
  await ordering.migrate();
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

async function register(subdomain: string): Promise<{ userId: string; storeId: string }> {
  const res = await app.inject(
    signedRequest({
      method: 'POST',
      url: '/internal/auth/register',
      payload: {
        firstName: 'Ana',
        lastName: 'López',
        email: `${subdomain}@example.com`,
        password: 'secreto1',
        storeName: `Tienda ${subdomain}`,
        subdomain,
        businessType: 'grocery',
        storeDepartment: 'Guatemala',
      },
    }),
  );
  expect(res.statusCode).toBe(201);
  return { userId: res.json().user.id, storeId: res.json().store.id };
}

/** An order of ordering's stream, as ordering appends it (only what identity reads matters here). */
async function placeOrder(storeId: string, status: 'pending' | 'completed' = 'pending') {
  const orderId = randomUUID();
  const placed = await ordering.append(
    `order-${orderId}`,
    [{ type: 'OrderPlaced', data: { orderId, storeId, code: orderId.slice(0, 6).toUpperCase(), orderType: status === 'pending' ? 'whatsapp' : 'pos', status, items: [], total: 1000, subtotal: 893, tax: 107 } }],
    0,
    { storeId },
  );
  return { orderId, position: placed.position };
}

async function totalOrders(owner: { userId: string; storeId: string }): Promise<number> {
  const res = await app.inject({ method: 'GET', url: '/api/store', headers: testCallerHeaders({ method: 'GET', path: '/api/store', ...owner }) });
  expect(res.statusCode).toBe(200);
  return res.json().totalOrders;
}

describe('GET /api/store totalOrders', () => {
  it('counts every order placed for the store (status changes add nothing), and only its own', async () => {
    const ana = await register('tienda-ana');
    const otra = await register('tienda-otra');
    expect(await totalOrders(ana)).toBe(0);

    const first = await placeOrder(ana.storeId);
    await placeOrder(ana.storeId, 'completed');
    await placeOrder(otra.storeId);
    const changed = await ordering.append(
      `order-${first.orderId}`,
      [{ type: 'OrderStatusChanged', data: { orderId: first.orderId, storeId: ana.storeId, status: 'cancelled', previousStatus: 'pending', notes: null, changedBy: 'system', changedAt: new Date().toISOString() } }],
      1,
      { storeId: ana.storeId },
    );
    await app.get(ProjectionHost).waitForPosition(changed.position, { source: 'ordering', projection: 'store_orders' });

    expect(await totalOrders(ana)).toBe(2);
    expect(await totalOrders(otra)).toBe(1);
  });
});
