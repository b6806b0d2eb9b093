import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { createTestDatabase, type TestDatabase, signedRequest, testEnv } from '@tiendita/service-kit/testing';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { createApp } from '../src/app';
import { OrderingOrdersConsumer } from '../src/stock/reactions/ordering-orders.consumer';

/** Stock held for orders: POST /internal/reservations and the reactions to ordering's events. */
let db: TestDatabase;
let app: NestFastifyApplication;
let second: NestFastifyApplication;
let pool: pg.Pool;
let catalog: PostgresEventStore;
let ordering: PostgresEventStore;
const store = { userId: randomUUID(), storeId: randomUUID() };

beforeAll(async () => {
  db = await createTestDatabase();
  // A long sweep interval: the tests call the sweep themselves.
  const env = testEnv(db.url, { RESERVATION_SWEEP_MS: '3600000' });
  app = await createApp(env);
  second = await createApp(env);
  pool = new pg.Pool({ connectionString: db.url, max: 3 });
  catalog = new PostgresEventStore(pool, 'catalog');
  ordering = new PostgresEventStore(pool, 'ordering');
});

afterAll(async () => {
  await app?.close();
  await second?.close();
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

const row = async (productId: string) =>
  (await pool.query<{ on_hand: number; reserved: number }>('SELECT on_hand, reserved FROM inventory.stock_rows WHERE product_id = $1', [productId])).rows[0];
const streamTypes = async (productId: string) =>
  (await pool.query<{ type: string }>('SELECT type FROM inventory.events WHERE stream_id = $1 ORDER BY stream_position', [`stock-${productId}`])).rows.map((r) => r.type);

/** A product created in catalog with this stock; resolves once inventory opened it and knows its name. */
async function product(name: string, stock: number, storeId = store.storeId): Promise<string> {
  const productId = randomUUID();
  await catalog.append(
    `product-${productId}`,
    [{ type: 'ProductCreated', data: { productId, storeId, name, description: null, sku: null, priceCentavos: 100, discountPercentage: 0, categoryId: null, images: [], isActive: true, initialStock: stock, createdBy: store.userId } }],
    0,
  );
  await until(row.bind(null, productId), (r) => r !== undefined);
  await until(
    async () => (await pool.query('SELECT 1 FROM inventory.catalog_products WHERE product_id = $1 AND listed', [productId])).rowCount,
    (n) => n === 1,
  );
  return productId;
}

const reserve = (body: object, who = store, target = app) => target.inject(signedRequest({ method: 'POST', url: '/internal/reservations', payload: body, ...who }));

async function orderEvent(orderId: string, type: 'OrderPlaced' | 'OrderStatusChanged', data: object) {
  const stream = `order-${orderId}`;
  const version = (await ordering.readStream(stream)).length;
  await ordering.append(stream, [{ type, data: { orderId, storeId: store.storeId, ...data } }], version);
}
const placed = (productId: string, quantity: number) => ({
  code: 'A1',
  orderType: 'whatsapp',
  status: 'pending',
  paymentMethod: null,
  paymentStatus: 'pending',
  customerName: 'Ana',
  customerPhone: null,
  customerAddress: null,
  customerEmail: null,
  customerNit: null,
  notes: null,
  items: [{ productId, productName: 'x', sku: null, quantity, unitPrice: 100, lineTotal: 100 * quantity }],
  subtotal: 100 * quantity,
  tax: 0,
  total: 100 * quantity,
  cashReceived: null,
  change: null,
  whatsappMessage: null,
  placedBy: 'Ana',
  placedAt: new Date().toISOString(),
});
const changed = (status: string, previousStatus: string) => ({ status, previousStatus, notes: null, changedBy: 'Dueña', changedAt: new Date().toISOString() });

it('two orders for the last unit, on two inventory processes at once: exactly one wins, the other hears Sin Stock', async () => {
  const productId = await product('Café de Cobán', 1);
  const [a, b] = await Promise.all([
    reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 1 }] }, store, app),
    reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 1 }] }, store, second),
  ]);
  const codes = [a.statusCode, b.statusCode].sort();
  expect(codes).toEqual([200, 409]);
  const refused = a.statusCode === 409 ? a : b;
  expect(refused.json()).toMatchObject({
    message: 'Sin Stock: Café de Cobán (quedan 0)',
    details: { productId, productName: 'Café de Cobán', available: 0 },
  });
  expect(await row(productId)).toEqual({ on_hand: 1, reserved: 1 });
});

it('many concurrent holds never hold more than the stock', async () => {
  const productId = await product('Azúcar', 5);
  const results = await Promise.all(
    Array.from({ length: 12 }, (_, i) => reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 1 }] }, store, i % 2 ? app : second)),
  );
  expect(results.filter((r) => r.statusCode === 200)).toHaveLength(5);
  expect(results.filter((r) => r.statusCode === 409)).toHaveLength(7);
  expect(await row(productId)).toEqual({ on_hand: 5, reserved: 5 });
});

it('is idempotent by orderId and all-or-nothing across lines', async () => {
  const a = await product('Frijol', 4);
  const b = await product('Arroz', 1);
  const orderId = randomUUID();
  const first = await reserve({ orderId, lines: [{ productId: a, quantity: 3 }] });
  expect(first.statusCode).toBe(200);
  expect(first.json()).toMatchObject({ orderId, lines: [{ productId: a, quantity: 3, available: 1 }] });
  expect(first.json().position).not.toBeNull();
  const again = await reserve({ orderId, lines: [{ productId: a, quantity: 3 }] });
  expect(again.statusCode).toBe(200);
  expect(again.json()).toMatchObject({ orderId, lines: [{ productId: a, quantity: 3, available: 1 }], position: null });
  expect(await row(a)).toEqual({ on_hand: 4, reserved: 3 });

  const refused = await reserve({ orderId: randomUUID(), lines: [{ productId: a, quantity: 1 }, { productId: b, quantity: 2 }] });
  expect(refused.statusCode).toBe(409);
  expect(refused.json().message).toBe('Sin Stock: Arroz (quedan 1)');
  expect(await row(a)).toEqual({ on_hand: 4, reserved: 3 });
  expect(await streamTypes(a)).toEqual(['StockItemOpened', 'StockReserved']);
});

it('the same orderId sent to two processes at once holds its units once and answers both the same hold', async () => {
  const a = await product('Harina', 10);
  const b = await product('Aceite', 10);
  for (let round = 0; round < 5; round++) {
    const orderId = randomUUID();
    const body = { orderId, lines: [{ productId: a, quantity: 2 }, { productId: b, quantity: 1 }] };
    const answers = await Promise.all([reserve(body, store, app), reserve(body, store, second), reserve(body, store, app)]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const r of answers) expect(r.json()).toMatchObject({ orderId, lines: [{ productId: a, quantity: 2 }, { productId: b, quantity: 1 }] });
    expect(answers.filter((r) => r.json().position !== null)).toHaveLength(1);
  }
  expect(await row(a)).toEqual({ on_hand: 10, reserved: 10 });
  expect(await row(b)).toEqual({ on_hand: 10, reserved: 5 });
  expect((await streamTypes(a)).filter((t) => t === 'StockReserved')).toHaveLength(5);
});

it("another store's product and an unknown one answer 404; a bad body 400", async () => {
  const productId = await product('Sal', 3);
  const other = { userId: randomUUID(), storeId: randomUUID() };
  expect((await reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 1 }] }, other)).statusCode).toBe(404);
  expect((await reserve({ orderId: randomUUID(), lines: [{ productId: randomUUID(), quantity: 1 }] })).statusCode).toBe(404);
  expect((await reserve({ orderId: 'x', lines: [] })).statusCode).toBe(400);
  expect(await row(productId)).toEqual({ on_hand: 3, reserved: 0 });
});

it('a sale takes the units off the shelf at once', async () => {
  const productId = await product('Jabón', 6);
  const res = await reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 2 }], sale: true });
  expect(res.statusCode).toBe(200);
  expect(res.json().lines).toEqual([{ productId, quantity: 2, available: 4 }]);
  expect(await row(productId)).toEqual({ on_hand: 4, reserved: 0 });
  expect(await streamTypes(productId)).toEqual(['StockItemOpened', 'StockReserved', 'StockSold']);
});

it('a cancelled order gives its units back; one out for delivery sells them; redelivery changes nothing', async () => {
  const productId = await product('Aceite', 10);
  const cancelled = randomUUID();
  const delivered = randomUUID();
  await reserve({ orderId: cancelled, lines: [{ productId, quantity: 3 }] });
  await reserve({ orderId: delivered, lines: [{ productId, quantity: 2 }] });
  await orderEvent(cancelled, 'OrderPlaced', placed(productId, 3));
  await orderEvent(delivered, 'OrderPlaced', placed(productId, 2));
  await orderEvent(cancelled, 'OrderStatusChanged', changed('cancelled', 'pending'));
  await orderEvent(delivered, 'OrderStatusChanged', changed('out_for_delivery', 'ready'));
  await orderEvent(delivered, 'OrderStatusChanged', changed('delivered', 'out_for_delivery'));
  const r = await until(() => row(productId), (x) => x.on_hand === 8 && x.reserved === 0);
  expect(r).toEqual({ on_hand: 8, reserved: 0 });
  await until(() => streamTypes(productId), (t) => t.length === 5);
  expect(await streamTypes(productId)).toEqual(['StockItemOpened', 'StockReserved', 'StockReserved', 'StockReservationReleased', 'StockSold']);
  const released = await pool.query(`SELECT data FROM inventory.events WHERE stream_id = $1 AND type = 'StockReservationReleased'`, [`stock-${productId}`]);
  expect(released.rows[0].data).toMatchObject({ orderId: cancelled, quantity: 3, reason: 'cancelled' });
  const sold = await pool.query(`SELECT data FROM inventory.events WHERE stream_id = $1 AND type = 'StockSold'`, [`stock-${productId}`]);
  expect(sold.rows[0].data).toMatchObject({ orderId: delivered, quantity: 2, onHand: 8 });
});

it('a hold whose order never appears is released after holdMs, once even with two processes sweeping; a placed one is kept', async () => {
  const productId = await product('Harina', 5);
  const lost = randomUUID();
  const kept = randomUUID();
  await reserve({ orderId: lost, lines: [{ productId, quantity: 2 }], holdMs: 1000 });
  await reserve({ orderId: kept, lines: [{ productId, quantity: 1 }], holdMs: 1000 });
  await orderEvent(kept, 'OrderPlaced', placed(productId, 1));
  await until(
    async () => (await pool.query(`SELECT status FROM inventory.reservations WHERE order_id = $1`, [kept])).rows[0]?.status,
    (s) => s === 'placed',
  );
  await new Promise((r) => setTimeout(r, 1100));
  await Promise.all([app.get(OrderingOrdersConsumer).sweepNow(), second.get(OrderingOrdersConsumer).sweepNow()]);
  expect(await row(productId)).toEqual({ on_hand: 5, reserved: 1 });
  const released = await pool.query(`SELECT data FROM inventory.events WHERE stream_id = $1 AND type = 'StockReservationReleased'`, [`stock-${productId}`]);
  expect(released.rows.map((r) => r.data)).toEqual([{ orderId: lost, productId, storeId: store.storeId, quantity: 2, reason: 'expired' }]);
});

it("the product form's stock edit counts AVAILABLE units: held units stay held and on the shelf", async () => {
  const productId = await product('Panela', 10);
  await reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 3 }] });
  const res = await app.inject(
    signedRequest({ method: 'POST', url: `/internal/stock-items/${productId}/set`, payload: { adjustmentId: randomUUID(), newStock: 5, adjustmentType: 'correction', reason: 'Formulario' }, ...store }),
  );
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ stock: 5, adjusted: true });
  expect(await row(productId)).toEqual({ on_hand: 8, reserved: 3 });
});

it('a retry of an order whose hold was given back (it ran out, or ordering released a lost checkout) holds the units anew, or hears Sin Stock when they are gone', async () => {
  const productId = await product('Cacao', 3);
  const retried = randomUUID();
  expect((await reserve({ orderId: retried, lines: [{ productId, quantity: 2 }] })).statusCode).toBe(200);
  const release = (orderId: string) => app.inject(signedRequest({ method: 'POST', url: '/internal/reservations/release', payload: { orderId }, ...store }));
  expect((await release(retried)).json()).toEqual({ released: 1 });
  expect(await row(productId)).toEqual({ on_hand: 3, reserved: 0 });
  // The shopper's retry (same order id): held again, with its events, not answered from the old hold.
  const again = await reserve({ orderId: retried, lines: [{ productId, quantity: 2 }] });
  expect(again.statusCode).toBe(200);
  expect(again.json().position).not.toBeNull();
  expect(await row(productId)).toEqual({ on_hand: 3, reserved: 2 });
  expect((await reserve({ orderId: retried, lines: [{ productId, quantity: 2 }] })).json().position).toBeNull();
  expect(await row(productId)).toEqual({ on_hand: 3, reserved: 2 });

  // Given back again, and meanwhile the units went to another order: the retry is refused, nothing oversold.
  expect((await release(retried)).json()).toEqual({ released: 1 });
  expect((await reserve({ orderId: randomUUID(), lines: [{ productId, quantity: 2 }] })).statusCode).toBe(200);
  const late = await reserve({ orderId: retried, lines: [{ productId, quantity: 2 }] });
  expect(late.statusCode).toBe(409);
  expect(late.json().message).toBe('Sin Stock: Cacao (quedan 1)');
  expect(await row(productId)).toEqual({ on_hand: 3, reserved: 2 });
  expect(await streamTypes(productId)).toEqual(['StockItemOpened', 'StockReserved', 'StockReservationReleased', 'StockReserved', 'StockReservationReleased', 'StockReserved']);
});

it('lists the orders whose units are held and not yet placed (for ordering when it starts), with their store', async () => {
  const productId = await product('Panela', 10);
  const waiting = randomUUID();
  const placedOne = randomUUID();
  await reserve({ orderId: waiting, lines: [{ productId, quantity: 1 }] });
  await reserve({ orderId: placedOne, lines: [{ productId, quantity: 1 }] });
  await orderEvent(placedOne, 'OrderPlaced', placed(productId, 1));
  await until(
    async () => (await pool.query(`SELECT status FROM inventory.reservations WHERE order_id = $1`, [placedOne])).rows[0]?.status,
    (s) => s === 'placed',
  );
  const held = await app.inject(signedRequest({ method: 'POST', url: '/internal/reservations/held', payload: { before: new Date(Date.now() + 1000).toISOString() }, userId: 'ordering' }));
  expect(held.statusCode).toBe(200);
  const orders = (held.json() as { orders: { orderId: string; storeId: string }[] }).orders;
  expect(orders).toContainEqual({ orderId: waiting, storeId: store.storeId });
  expect(orders.map((o) => o.orderId)).not.toContain(placedOne);
  const earlier = await app.inject(signedRequest({ method: 'POST', url: '/internal/reservations/held', payload: { before: new Date(Date.now() - 3_600_000).toISOString() }, userId: 'ordering' }));
  expect((earlier.json() as { orders: unknown[] }).orders.map((o) => (o as { orderId: string }).orderId)).not.toContain(waiting);
  expect((await app.inject({ method: 'POST', url: '/internal/reservations/held', payload: { before: new Date().toISOString() } })).statusCode).toBe(401);
});
