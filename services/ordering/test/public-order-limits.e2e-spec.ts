/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { ORDER_LIMITS_DEFAULTS, OrderLimitMessages } from '@tiendita/contracts';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { ExpirySweep } from '../src/orders/application/expiry-sweep';

/**
 * Fairness of public orders (issue 26): per-address and per-phone limits, pending orders per phone,
 * the store's units caps and hold, blocked phones, and cancelling several pending orders at once.
 */
let stack: Stack;
let owner: StackClient;
let shop: Awaited<ReturnType<typeof registerAndLogin>>;
let other: StackClient;
let otherShop: Awaited<ReturnType<typeof registerAndLogin>>;
let ip = 0;
/** A shopper from an address of their own (the gateway counts orders per address and store). */
const shopper = () => stack.client({ forwardedFor: `203.0.113.${++ip}` });

beforeAll(async () => {
  stack = await startStack({
    services: ['identity', 'inventory', 'catalog', 'ordering'],
    productionRateLimits: true,
    gatewayEnv: { TRUST_PROXY: '1', RATE_ORDER_PER_IP: '4', RATE_LOGIN_PER_IP: '1000', RATE_REGISTER_PER_IP: '1000', RATE_REGISTER_PER_ACCOUNT: '1000' },
    serviceEnv: { ordering: { ORDER_EXPIRY_SWEEP_MS: '3600000', ORDER_RATE_PER_PHONE: '5', ORDER_MAX_PENDING_PER_PHONE: '3' } },
  });
  owner = stack.client();
  shop = await registerAndLogin(owner, { whatsappNumber: '5555-1234' });
  other = stack.client();
  otherShop = await registerAndLogin(other, { whatsappNumber: '5555-4321' });
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.stores WHERE id = ANY($1::uuid[])', [[shop.storeId, otherShop.storeId]])).rowCount, (n) => n === 2);
}, 60_000);
afterAll(() => stack?.stop());

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function product(client: StackClient, body: Record<string, unknown>): Promise<string> {
  const res = await client.post('/api/products', { categoryId: 'none', images: [], isActive: true, ...body });
  if (res.status !== 201) throw new Error(`producto: ${res.status} ${res.text}`);
  const id: string = res.body.id;
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.products WHERE id = $1', [id])).rowCount, (n) => n === 1);
  await until(async () => (await stack.pool.query('SELECT 1 FROM inventory.stock_rows WHERE product_id = $1', [id])).rowCount, (n) => n === 1);
  return id;
}

const order = (client: StackClient, subdomain: string, phone: string, items: { productId: string; quantity: number }[]) =>
  client.post(`/api/public/orders/${subdomain}`, { customerData: { name: 'Cliente', phone }, items });

/** Sets the store's limits and waits until ordering's copy has them. */
async function setLimits(client: StackClient, storeId: string, body: Record<string, unknown>) {
  const res = await client.put('/api/store/settings', body);
  expect(res.status).toBe(200);
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.store_order_limits WHERE store_id = $1', [storeId])).rowCount, (n) => n === 1);
  return res.body;
}

describe('public order limits', () => {
  let arroz: string;
  beforeAll(async () => {
    arroz = await product(owner, { name: 'Arroz', price: 10, stock: 1000 });
  });

  it('per address and store: 429 in Spanish past RATE_ORDER_PER_IP; another address still orders', async () => {
    const client = shopper();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await order(client, shop.subdomain, `5100000${i}`, [{ productId: arroz, quantity: 1 }]);
      statuses.push(res.status);
      if (res.status === 429) expect(res.body.message).toBe(OrderLimitMessages.addressRateLimited);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 429]);
    expect((await order(shopper(), shop.subdomain, '51000009', [{ productId: arroz, quantity: 1 }])).status).toBe(201);
  });

  it('per phone and store: at most 3 pending, then 429; cancelling them at once lets the phone order again', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await order(shopper(), shop.subdomain, '+502 5200-0001', [{ productId: arroz, quantity: 1 }]);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // At once (the pending count is a read model; a repeat order of a phone waits for it), written otherwise, the same phone.
    const fourth = await order(shopper(), shop.subdomain, '5200 0001', [{ productId: arroz, quantity: 1 }]);
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toBe(OrderLimitMessages.tooManyPending(3));

    // The owner cancels them at once; another store's order id is reported, not cancelled.
    const foreign = await order(shopper(), otherShop.subdomain, '52000002', [{ productId: await product(other, { name: 'Sal', price: 3, stock: 5 }), quantity: 1 }]);
    const bulk = await owner.post('/api/orders/bulk-cancel', { orderIds: [...ids, foreign.body.id] });
    expect(bulk.status).toBe(200);
    expect(bulk.body.cancelled).toBe(3);
    expect(bulk.body.results.find((r: any) => r.orderId === foreign.body.id)).toMatchObject({ ok: false });
    expect((await owner.post('/api/orders/bulk-cancel', { orderIds: [] })).body.message).toBe(OrderLimitMessages.bulkCancelInvalid);
    await until(async () => Number((await stack.pool.query('SELECT count(*) AS n FROM ordering.pending_public_orders WHERE phone_key = $1', ['52000001'])).rows[0].n), (n) => n === 0);
    // Every attempt counts (the refused one too): the phone's 5th in the window is allowed (ORDER_RATE_PER_PHONE 5), its 6th is not.
    expect((await order(shopper(), shop.subdomain, '52000001', [{ productId: arroz, quantity: 1 }])).status).toBe(201);
    const sixth = await order(shopper(), shop.subdomain, '52000001', [{ productId: arroz, quantity: 1 }]);
    expect(sixth.status).toBe(429);
    expect(sixth.body.message).toBe(OrderLimitMessages.phoneRateLimited);
  });

  it("the store's units caps: defaults for a small shop, then the owner's own", async () => {
    const settings = await owner.get('/api/store/settings');
    expect(settings.body).toMatchObject({ ...ORDER_LIMITS_DEFAULTS, blockedPhones: [] });
    const tooMany = await order(shopper(), shop.subdomain, '53000001', [{ productId: arroz, quantity: ORDER_LIMITS_DEFAULTS.orderMaxUnitsPerLine + 1 }]);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe(OrderLimitMessages.unitsPerLine(ORDER_LIMITS_DEFAULTS.orderMaxUnitsPerLine, 'Arroz'));

    const frijol = await product(owner, { name: 'Frijol', price: 12, stock: 1000 });
    await setLimits(owner, shop.storeId, { orderMaxUnitsPerLine: 5, orderMaxUnitsPerOrder: 8 });
    const line = await order(shopper(), shop.subdomain, '53000002', [{ productId: arroz, quantity: 6 }]);
    expect({ status: line.status, message: line.body.message }).toEqual({ status: 400, message: OrderLimitMessages.unitsPerLine(5, 'Arroz') });
    const total = await order(shopper(), shop.subdomain, '53000003', [
      { productId: arroz, quantity: 5 },
      { productId: frijol, quantity: 4 },
    ]);
    expect({ status: total.status, message: total.body.message }).toEqual({ status: 400, message: OrderLimitMessages.unitsPerOrder(8) });
    // Nothing was held for the refused orders.
    expect((await stack.pool.query('SELECT reserved FROM inventory.stock_rows WHERE product_id = $1', [frijol])).rows[0].reserved).toBe(0);
    expect((await order(shopper(), shop.subdomain, '53000004', [{ productId: arroz, quantity: 5 }])).status).toBe(201);
  });

  it('settings: bounds answer 400 in Spanish', async () => {
    for (const [body, message] of [
      [{ orderHoldHours: 0 }, OrderLimitMessages.holdHoursInvalid],
      [{ orderHoldHours: 49 }, OrderLimitMessages.holdHoursInvalid],
      [{ orderMaxUnitsPerLine: 1.5 }, OrderLimitMessages.unitsPerLineInvalid],
      [{ blockedPhones: ['abc'] }, OrderLimitMessages.blockedPhoneInvalid('abc')],
    ] as const) {
      const res = await other.put('/api/store/settings', body);
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
  });

  it('a blocked phone cannot order in that store (403), whatever way it is written; other stores are not affected', async () => {
    const saved = await setLimits(other, otherShop.storeId, { blockedPhones: ['+502 5400-0001', ' 5400 0001 '] });
    expect(saved.blockedPhones).toEqual(['54000001']);
    const sal = await product(other, { name: 'Azúcar', price: 8, stock: 50 });
    const res = await order(shopper(), otherShop.subdomain, '5400-0001', [{ productId: sal, quantity: 1 }]);
    expect({ status: res.status, message: res.body.message }).toEqual({ status: 403, message: OrderLimitMessages.phoneBlocked });
    expect((await order(shopper(), shop.subdomain, '54000001', [{ productId: arroz, quantity: 1 }])).status).toBe(201);
  });

  it("the store's hold: an unconfirmed order is cancelled after the owner's hours, not the default's", async () => {
    await setLimits(owner, shop.storeId, { orderHoldHours: 1 });
    const mine = await order(shopper(), shop.subdomain, '55000001', [{ productId: arroz, quantity: 1 }]);
    const cafe = await product(other, { name: 'Café', price: 30, stock: 10 });
    const theirs = await order(shopper(), otherShop.subdomain, '55000002', [{ productId: cafe, quantity: 1 }]);
    await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.orders WHERE id = ANY($1::uuid[])', [[mine.body.id, theirs.body.id]])).rowCount, (n) => n === 2);
    // Both placed 2 hours ago: past this store's 1 hour, within the other's default 6.
    await stack.pool.query(`UPDATE ordering.orders SET created_at = now() - interval '2 hours' WHERE id = ANY($1::uuid[])`, [[mine.body.id, theirs.body.id]]);
    await stack.services.ordering!.app.get(ExpirySweep).sweep();
    const read = async () =>
      new Map((await stack.pool.query<{ id: string; status: string }>('SELECT id, status FROM ordering.orders WHERE id = ANY($1::uuid[])', [[mine.body.id, theirs.body.id]])).rows.map((r) => [r.id, r.status]));
    const byId = await until(read, (m) => m.get(mine.body.id) === 'cancelled');
    expect(byId.get(mine.body.id)).toBe('cancelled');
    expect(byId.get(theirs.body.id)).toBe('pending');
  });
});
