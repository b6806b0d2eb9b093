/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { idFor } from '../src/orders/application/order-ids';

/** Payments and refunds of issue 24, and the bounds of the orders API, through the gateway over real HTTP and PostgreSQL. */
let stack: Stack;
let owner: StackClient;
let shop: Awaited<ReturnType<typeof registerAndLogin>>;
let other: StackClient;
let productId: string;
const customerData = { name: 'Lucía Gómez', phone: '5555-0101', address: 'Zona 10' };

async function until<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stockRow = async (id: string) => (await stack.pool.query<{ on_hand: number; reserved: number }>('SELECT on_hand, reserved FROM inventory.stock_rows WHERE product_id = $1', [id])).rows[0];

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'inventory', 'catalog', 'ordering'], serviceEnv: { ordering: { ORDER_EXPIRY_SWEEP_MS: '3600000' } } });
  owner = stack.client();
  shop = await registerAndLogin(owner, { whatsappNumber: '5555-1234' });
  other = stack.client();
  await registerAndLogin(other);
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.stores WHERE id = $1', [shop.storeId])).rowCount, (n) => n === 1);
  const res = await owner.post('/api/products', { name: 'Queso fresco', price: 50.25, stock: 1000, categoryId: 'none', images: [], isActive: true });
  productId = res.body.id;
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.products WHERE id = $1', [productId])).rowCount, (n) => n === 1);
  await until(() => stockRow(productId), (r) => r !== undefined);
}, 60_000);
afterAll(() => stack?.stop());

/** A WhatsApp order of `quantity` cheeses (Q50.25 each), pending and unpaid. */
async function order(quantity = 2): Promise<{ id: string; total: number }> {
  const res = await stack.client().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId, quantity }] });
  expect(res.status).toBe(201);
  return res.body;
}

const ownerName = () => `${shop.registration.firstName} ${shop.registration.lastName}`;

describe('payments', () => {
  it('a partial payment, then the rest: partial, then paid, each payment with its method, amount and author’s name', async () => {
    const { id } = await order(2); // Q100.50
    const first = await owner.post(`/api/orders/${id}/payments`, { method: 'transfer', amount: 40, reference: 'BI-778812' });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ paymentStatus: 'partial', amountPaid: 40, balanceDue: 60.5 });
    expect(first.body.payments).toEqual([
      { id: expect.any(String), method: 'transfer', amount: 40, reference: 'BI-778812', cashReceived: null, change: null, recordedBy: ownerName(), recordedAt: expect.any(String) },
    ]);
    const rest = await owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: '60.50', cashReceived: 100 });
    expect(rest.status).toBe(201);
    expect(rest.body).toMatchObject({ paymentStatus: 'paid', amountPaid: 100.5, balanceDue: 0 });
    expect(rest.body.payments[1]).toMatchObject({ method: 'cash', amount: 60.5, cashReceived: 100, change: 39.5, recordedBy: ownerName() });
    expect((await owner.get(`/api/orders/${id}`)).body).toMatchObject({ paymentStatus: 'paid', amountPaid: 100.5 });
    // The list filters by payment status.
    const paid = await owner.get('/api/orders?paymentStatus=paid&limit=100');
    expect(paid.body.orders.map((o: any) => o.id)).toContain(id);
    expect((await owner.get('/api/orders?paymentStatus=partial&limit=100')).body.orders.map((o: any) => o.id)).not.toContain(id);
  });

  it("beyond the balance due answers 400 'El pago supera el saldo pendiente'; a paid order takes no more", async () => {
    const { id } = await order(1); // Q50.25
    const over = await owner.post(`/api/orders/${id}/payments`, { method: 'card', amount: 50.26 });
    expect([over.status, over.body.message]).toEqual([400, 'El pago supera el saldo pendiente']);
    expect((await owner.post(`/api/orders/${id}/payments`, { method: 'card', amount: 50.25 })).status).toBe(201);
    const more = await owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 0.01 });
    expect([more.status, more.body.message]).toEqual([400, 'El pago supera el saldo pendiente']);
  });

  it('cash received below the amount is refused; the same Idempotency-Key records one payment', async () => {
    const { id } = await order(1);
    const short = await owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 50.25, cashReceived: 50 });
    expect([short.status, short.body.message]).toEqual([400, 'Pago Insuficiente: El monto recibido es menor al total de la venta']);
    const key = { 'idempotency-key': 'pago-1' };
    const [a, b] = await Promise.all([owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 20 }, key), owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 20 }, key)]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const after = await owner.get(`/api/orders/${id}`);
    expect(after.body.payments).toHaveLength(1);
    expect(after.body).toMatchObject({ amountPaid: 20, paymentStatus: 'partial' });
  });

  it('a POS sale is paid at creation: its payment is recorded with the method, cash and change', async () => {
    const sale = await owner.post('/api/orders', { paymentMethod: 'cash', cashReceived: 60, items: [{ productId, quantity: 1 }] });
    expect(sale.status).toBe(201);
    expect(sale.body).toMatchObject({ status: 'completed', paymentStatus: 'paid', amountPaid: 50.25, balanceDue: 0, cashReceived: 60, change: 9.75 });
    expect(sale.body.payments).toEqual([expect.objectContaining({ method: 'cash', amount: 50.25, cashReceived: 60, change: 9.75, recordedBy: ownerName() })]);
    const history = await owner.get(`/api/orders/${sale.body.id}/history`);
    expect(history.body[0].createdBy).toBe(ownerName());
  });
});

describe('refunds', () => {
  it("a refund never exceeds the net paid: 400 'El reembolso supera lo pagado'", async () => {
    const { id } = await order(2);
    expect((await owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 30 })).status).toBe(201);
    const over = await owner.post(`/api/orders/${id}/refunds`, { method: 'cash', amount: 30.01 });
    expect([over.status, over.body.message]).toEqual([400, 'El reembolso supera lo pagado']);
    const back = await owner.post(`/api/orders/${id}/refunds`, { method: 'cash', amount: 10, reason: 'Faltó un producto' });
    expect(back.status).toBe(201);
    expect(back.body).toMatchObject({ amountPaid: 20, paymentStatus: 'partial' });
    expect(back.body.refunds).toEqual([{ id: expect.any(String), method: 'cash', amount: 10, reason: 'Faltó un producto', refundedBy: ownerName(), refundedAt: expect.any(String) }]);
    const again = await owner.post(`/api/orders/${id}/refunds`, { method: 'cash', amount: 20.01 });
    expect([again.status, again.body.message]).toEqual([400, 'El reembolso supera lo pagado']);
  });

  it('cancelling a paid order records the refund of each method paid; the order reads refunded, and takes no payment (409)', async () => {
    const { id } = await order(2);
    await owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 50 });
    await owner.post(`/api/orders/${id}/payments`, { method: 'card', amount: 50.5 });
    const cancelled = await owner.put(`/api/orders/${id}/status`, { status: 'cancelled', notes: 'Cliente no llegó' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded', amountPaid: 0 });
    expect(cancelled.body.refunds.map((r: any) => [r.method, r.amount, r.reason, r.refundedBy])).toEqual([
      ['cash', 50, 'Cliente no llegó', ownerName()],
      ['card', 50.5, 'Cliente no llegó', ownerName()],
    ]);
    const late = await owner.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 1 });
    expect([late.status, late.body.message]).toEqual([409, 'No se puede registrar un pago en un pedido cancelado.']);
    expect((await owner.get('/api/orders?paymentStatus=refunded&limit=100')).body.orders.map((o: any) => o.id)).toContain(id);
  });

  it('a cancellation naming a refund method refunds everything by it', async () => {
    const { id } = await order(1);
    await owner.post(`/api/orders/${id}/payments`, { method: 'card', amount: 50.25 });
    const res = await owner.put(`/api/orders/${id}/status`, { status: 'cancelled', refundMethod: 'transfer' });
    expect(res.body.refunds.map((r: any) => [r.method, r.amount, r.reason])).toEqual([['transfer', 50.25, 'Pedido cancelado']]);
  });

  it("another store's order answers 404 to payments and refunds", async () => {
    const { id } = await order(1);
    for (const res of [await other.post(`/api/orders/${id}/payments`, { method: 'cash', amount: 1 }), await other.post(`/api/orders/${id}/refunds`, { method: 'cash', amount: 1 })]) {
      expect([res.status, res.body.message]).toEqual([404, 'Pedido no encontrado']);
    }
    expect((await owner.get(`/api/orders/${id}`)).body.payments).toEqual([]);
  });
});

describe('bounds and text', () => {
  it('amounts above Q99,999,999.99, bad amounts and bad methods answer 400 in Spanish', async () => {
    const { id } = await order(1);
    const cases: Array<[unknown, string]> = [
      [{ method: 'cash', amount: 100_000_000 }, 'El monto no puede ser mayor que Q99,999,999.99.'],
      [{ method: 'cash', amount: 0 }, 'El monto debe ser un número mayor que 0 con hasta 2 decimales.'],
      [{ method: 'cash', amount: 1.005 }, 'El monto debe ser un número mayor que 0 con hasta 2 decimales.'],
      [{ method: 'cash', amount: 'mucho' }, 'El monto debe ser un número mayor que 0 con hasta 2 decimales.'],
      [{ method: 'bitcoin', amount: 1 }, 'Método de pago inválido'],
      [{ method: 'cash', amount: 1, cashReceived: 1e17 }, 'El monto no puede ser mayor que Q99,999,999.99.'],
    ];
    for (const [body, message] of cases) {
      const res = await owner.post(`/api/orders/${id}/payments`, body);
      expect([JSON.stringify(body), res.status, res.body.message]).toEqual([JSON.stringify(body), 400, message]);
    }
    // A POS sale with an absurd cash amount is refused before anything is sold (it once paused the shared projection).
    const before = await stockRow(productId);
    const sale = await owner.post('/api/orders', { paymentMethod: 'cash', cashReceived: 1e17, items: [{ productId, quantity: 1 }] });
    expect([sale.status, sale.body.message]).toEqual([400, 'El monto no puede ser mayor que Q99,999,999.99.']);
    expect((await owner.post('/api/orders', { paymentMethod: 'cash', cashReceived: 99_999_999.99, items: [{ productId, quantity: 1 }] })).status).toBe(201);
    expect((await stockRow(productId)).on_hand).toBe(before.on_hand - 1);
    // A line above the bound is refused before its stock is asked for.
    const dear = await owner.post('/api/products', { name: 'Joya', price: 1000, stock: 5, categoryId: 'none', images: [], isActive: true });
    await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.products WHERE id = $1', [dear.body.id])).rowCount, (n) => n === 1);
    const line = await stack.client().post(`/api/public/orders/${shop.subdomain}`, { customerData, items: [{ productId: dear.body.id, quantity: 100_000 }] });
    expect([line.status, line.body.message]).toEqual([400, 'El total de una línea no puede ser mayor que Q99,999,999.99.']);
  });

  it('a NUL or another control character in a text field answers 400 before any stock is held', async () => {
    const before = await stockRow(productId);
    const bad = [
      { customerData: { ...customerData, name: 'Ana\u0000' }, items: [{ productId, quantity: 1 }] },
      { customerData: { ...customerData, phone: '5555\u0007' }, items: [{ productId, quantity: 1 }] },
      { customerData: { ...customerData, notes: 'hola\u001b[31m' }, items: [{ productId, quantity: 1 }] },
    ];
    for (const body of bad) {
      const res = await stack.client().post(`/api/public/orders/${shop.subdomain}`, body);
      expect([res.status, res.body.message]).toEqual([400, 'El texto contiene caracteres no permitidos.']);
    }
    expect(await stockRow(productId)).toEqual(before);
    const pos = await owner.post('/api/orders', { customerName: 'Luis\u0000', items: [{ productId, quantity: 1 }] });
    expect([pos.status, pos.body.message]).toEqual([400, 'El texto contiene caracteres no permitidos.']);
    const { id } = await order(1);
    const note = await owner.put(`/api/orders/${id}/status`, { status: 'confirmed', notes: 'ok\u0000' });
    expect([note.status, note.body.message]).toEqual([400, 'El texto contiene caracteres no permitidos.']);
    // A line break in notes is text, not a control character to refuse.
    expect((await owner.put(`/api/orders/${id}/status`, { status: 'confirmed', notes: 'Llamar antes\nde llegar' })).status).toBe(200);
  });

  it('unknown sort keys, pages and page sizes out of bounds answer 400 in Spanish', async () => {
    const cases: Array<[string, string]> = [
      ['sortBy=customer_name;drop', 'Orden inválido: usa id, total, status o createdAt.'],
      ['sortBy=constructor', 'Orden inválido: usa id, total, status o createdAt.'],
      ['sortOrder=sideways', 'Dirección de orden inválida: usa asc o desc.'],
      ['page=0', 'Página inválida: usa un número entero entre 1 y 1000000.'],
      ['page=1e308', 'Página inválida: usa un número entero entre 1 y 1000000.'],
      ['limit=1000', 'Tamaño de página inválido: usa un número entero entre 1 y 100.'],
      ['paymentStatus=gratis', 'Estado de pago inválido'],
    ];
    for (const [query, message] of cases) {
      const res = await owner.get(`/api/orders?${query}`);
      expect([query, res.status, res.body.message]).toEqual([query, 400, message]);
    }
    expect((await owner.get('/api/orders?sortBy=total&sortOrder=ASC&page=2&limit=1')).status).toBe(200);
  });
});

describe('checkout compensation', () => {
  it('an order whose events cannot be written gives its held units back at once (not after the hold runs out)', async () => {
    // The event store refuses this shopper's orders, as a database failure at the append would.
    await stack.pool.query(`CREATE OR REPLACE FUNCTION ordering.refuse_test_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.data->>'customerName' = 'Compensación' THEN RAISE EXCEPTION 'escritura rechazada (prueba)'; END IF; RETURN NEW; END $$`);
    await stack.pool.query('CREATE TRIGGER refuse_test_order BEFORE INSERT ON ordering.events FOR EACH ROW EXECUTE FUNCTION ordering.refuse_test_order()');
    const body = { customerData: { ...customerData, name: 'Compensación' }, items: [{ productId, quantity: 3 }] };
    try {
      const before = await stockRow(productId);
      const res = await stack.client().post(`/api/public/orders/${shop.subdomain}`, body);
      expect(res.status).toBeGreaterThanOrEqual(500);
      // Released by the checkout's compensation before it answered: nothing held, the hold ended.
      expect(await stockRow(productId)).toEqual(before);
      const holds = await stack.pool.query(`SELECT status FROM inventory.reservations WHERE product_id = $1 AND quantity = 3 AND order_id NOT IN (SELECT id FROM ordering.orders)`, [productId]);
      expect(holds.rows.map((r) => r.status)).toEqual(['expired']);
    } finally {
      await stack.pool.query('DROP TRIGGER refuse_test_order ON ordering.events');
    }
    expect((await stack.client().post(`/api/public/orders/${shop.subdomain}`, body)).status).toBe(201);
  });

  it('with an Idempotency-Key the hold waits for the retry, which places the order on it', async () => {
    const key = 'reintento-tras-falla';
    const orderId = idFor(shop.storeId, 'public', key);
    await stack.pool.query(`CREATE OR REPLACE FUNCTION ordering.refuse_test_stream() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.stream_id = 'order-${orderId}' THEN RAISE EXCEPTION 'escritura rechazada (prueba)'; END IF; RETURN NEW; END $$`);
    await stack.pool.query('CREATE TRIGGER refuse_test_stream BEFORE INSERT ON ordering.events FOR EACH ROW EXECUTE FUNCTION ordering.refuse_test_stream()');
    const body = { customerData, items: [{ productId, quantity: 2 }] };
    const before = await stockRow(productId);
    try {
      expect((await stack.client().post(`/api/public/orders/${shop.subdomain}`, body, { 'idempotency-key': key })).status).toBeGreaterThanOrEqual(500);
    } finally {
      await stack.pool.query('DROP TRIGGER refuse_test_stream ON ordering.events');
    }
    const again = await stack.client().post(`/api/public/orders/${shop.subdomain}`, body, { 'idempotency-key': key });
    expect([again.status, again.body.id]).toEqual([201, orderId]);
    expect(await stockRow(productId)).toEqual({ ...before, reserved: before.reserved + 2 });
  });
});

describe('authors', () => {
  it("an owner who changes their name in the profile signs later payments with it (ordering's copy of the names follows)", async () => {
    const renamed = stack.client();
    const account = await registerAndLogin(renamed, { whatsappNumber: '5555-4321' });
    const changed = await renamed.put('/api/auth/user', { firstName: 'Rosa María', lastName: 'Pérez' });
    expect(changed.status).toBe(200);
    const row = await until(
      async () => (await stack.pool.query<{ name: string }>('SELECT name FROM ordering.users WHERE id = $1', [account.userId])).rows[0]?.name,
      (name) => name === 'Rosa María Pérez',
    );
    expect(row).toBe('Rosa María Pérez');
  });
});
