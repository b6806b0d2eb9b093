import { PostgresTransport, type Projection, ProjectionRunner } from '@tiendita/eventsourcing';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { projections as catalogProjections } from '../../catalog/src/projections';
import { projections as identityProjections } from '../../identity/src/projections';
import { projections as inventoryProjections } from '../../inventory/src/projections';
import { projections as orderingProjections } from '../../ordering/src/projections';
import { projections as reportingProjections } from '../src/projections';

/**
 * Rebuilding every projection of every service (as `npm run replay` does, from another process,
 * while the services run) replays the history into read models only: the subscription e-mail is
 * not sent again, no order is placed (no WhatsApp link), cancelled or expired by the sweep that
 * runs meanwhile, no stock moves, and no event is appended anywhere.
 */
let stack: Stack;
let owner: StackClient;

beforeAll(async () => {
  stack = await startStack({
    services: ['identity', 'inventory', 'catalog', 'ordering', 'reporting'],
    // The expiry sweep runs all the time; an order is due after an hour.
    serviceEnv: { ordering: { ORDER_EXPIRY_SWEEP_MS: '100', ORDER_HOLD_HOURS: '1' } },
  });
  owner = stack.client();
}, 180_000);
afterAll(() => stack?.stop());

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const mailDir = () => join(stack.dataDir, 'mail');
const mails = () => (existsSync(mailDir()) ? readdirSync(mailDir()).length : 0);
const eventCounts = async () =>
  Object.fromEntries(
    await Promise.all(
      ['identity', 'catalog', 'ordering', 'inventory', 'reporting'].map(async (s) => [s, Number((await stack.pool.query(`SELECT count(*) AS n FROM ${s}.events`)).rows[0].n)] as const),
    ),
  );

it('a rebuild of every projection sends no e-mail again, places, cancels or expires no order, moves no stock and appends no event', async () => {
  const shop = await registerAndLogin(owner, { whatsappNumber: '5555-1234' });
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.stores WHERE id = $1', [shop.storeId])).rowCount, (n) => n === 1);
  const created = await owner.post('/api/products', { name: 'Café de Antigua', price: 50, stock: 10, categoryId: 'none', images: [], isActive: true });
  expect(created.status).toBe(201);
  const productId: string = created.body.id;
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.products WHERE id = $1', [productId])).rowCount, (n) => n === 1);
  await until(async () => (await stack.pool.query('SELECT 1 FROM inventory.stock_rows WHERE product_id = $1', [productId])).rowCount, (n) => n === 1);

  // A subscription (its confirmation e-mail), a WhatsApp order left pending, one cancelled, and a POS sale.
  const subscribed = await stack.client().post(`/api/public/subscribe/${shop.subdomain}`, { name: 'Ana López', email: 'ana@example.com' });
  // 201: a request, confirmed by its mailed link (double opt-in, issue 26).
  expect(subscribed.status).toBe(201);
  await until(async () => mails(), (n) => n === 1);
  const customerData = { name: 'María Pérez', phone: '5555-0000', address: 'Zona 1' };
  const pending = await stack.client().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId, quantity: 2 }] });
  expect(pending.status).toBe(201);
  expect(pending.body.whatsappUrl).toMatch(/^https:\/\/wa\.me\/50255551234\?text=/);
  const cancelled = await stack.client().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId, quantity: 1 }] });
  expect((await owner.put(`/api/orders/${cancelled.body.id}/status`, { status: 'cancelled' })).status).toBe(200);
  expect((await owner.post('/api/orders', { items: [{ productId, quantity: 3 }], paymentMethod: 'cash', cashReceived: 200 })).status).toBe(201);
  await until(async () => (await owner.get('/api/stats')).body, (s) => s.todayOrders === 2 && s.whatsappOrders === 1);
  await until(
    async () => (await stack.pool.query('SELECT on_hand, reserved FROM inventory.stock_rows WHERE product_id = $1', [productId])).rows[0],
    (r) => r.on_hand === 7 && r.reserved === 2,
  );

  const before = {
    events: await eventCounts(),
    mails: mails(),
    orders: (await owner.get('/api/orders')).body,
    stats: (await owner.get('/api/stats')).body,
    stock: (await stack.pool.query('SELECT product_id, on_hand, reserved FROM inventory.stock_rows ORDER BY product_id')).rows,
  };
  expect(before.mails).toBe(1);

  // `npm run replay -- <service>.<projection>` for every projection of every service, verified.
  const services: Record<string, readonly Projection[]> = {
    identity: identityProjections,
    catalog: catalogProjections,
    inventory: inventoryProjections,
    ordering: orderingProjections,
    reporting: reportingProjections,
  };
  let rebuilt = 0;
  for (const [schema, list] of Object.entries(services)) {
    const transport = new PostgresTransport({ pool: stack.pool, schema, connectionString: stack.db.url });
    const runner = new ProjectionRunner({ pool: stack.pool, schema, transport, projections: list, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
    try {
      for (const p of list) {
        const result = await runner.rebuild(p.name, { verify: true });
        expect({ projection: `${schema}.${p.name}`, verified: result.verified }).toEqual({ projection: `${schema}.${p.name}`, verified: true });
        rebuilt++;
      }
    } finally {
      await transport.close();
    }
  }
  expect(rebuilt).toBeGreaterThanOrEqual(10);
  // Let the sweep and every consumer run a while over the swapped-in tables.
  await new Promise((r) => setTimeout(r, 1500));

  expect(await eventCounts()).toEqual(before.events);
  expect(mails()).toBe(1);
  expect((await owner.get('/api/orders')).body).toEqual(before.orders);
  expect((await owner.get('/api/stats')).body).toEqual(before.stats);
  expect((await stack.pool.query('SELECT product_id, on_hand, reserved FROM inventory.stock_rows ORDER BY product_id')).rows).toEqual(before.stock);
  const stillPending = (await owner.get(`/api/orders/${pending.body.id}`)).body;
  expect(stillPending.status).toBe('pending');
}, 180_000);
