import { randomUUID } from 'node:crypto';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';

/** Offline POS sales (issue 28) through the gateway over real HTTP and PostgreSQL: never refused for stock, the shown prices, idempotent by the device's id. */
let stack: Stack;
let owner: StackClient;
let productId: string;

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
  const shop = await registerAndLogin(owner, { whatsappNumber: '5555-1234' });
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.stores WHERE id = $1', [shop.storeId])).rowCount, (n) => n === 1);
  const res = await owner.post('/api/products', { name: 'Café 400 g', price: 20, stock: 2, categoryId: 'none', images: [], isActive: true });
  productId = res.body.id;
  await until(async () => (await stack.pool.query('SELECT 1 FROM ordering.products WHERE id = $1', [productId])).rowCount, (n) => n === 1);
  await until(() => stockRow(productId), (r) => r !== undefined);
}, 60_000);
afterAll(() => stack?.stop());

const sale = (deviceSaleId: string, quantity: number, extra: Record<string, unknown> = {}) => ({
  paymentMethod: 'cash',
  cashReceived: 100,
  items: [{ productId, quantity }],
  offline: { deviceSaleId, localNumber: 'T1-0001', soldAt: new Date(Date.now() - 60_000).toISOString(), shownPrices: [{ productId, unitPrice: 18 }], ...extra },
});

describe('offline POS sales', () => {
  it('a sale beyond the stock is recorded at the price shown, the stock sold out and the shortfall an alert; sent twice, one sale', async () => {
    const id = randomUUID();
    const [a, b] = await Promise.all([owner.post('/api/orders', sale(id, 5)), owner.post('/api/orders', sale(id, 5))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.id).toBe(b.body.id);
    expect(a.body).toMatchObject({ orderType: 'pos', status: 'completed', paymentStatus: 'paid', total: 90, change: 10 });
    expect(a.body.items[0]).toMatchObject({ productName: 'Café 400 g', quantity: 5, price: 18, lineTotal: 90, listPrice: 20 });
    expect(a.body.notes).toBe('Venta sin conexión T1-0001 — precio anterior usado: Café 400 g');
    // Sent again later (the answer was lost): the same order, nothing moves twice.
    const again = await owner.post('/api/orders', sale(id, 5));
    expect([again.status, again.body.id]).toEqual([201, a.body.id]);
    // A sale is answered from its events; the owner's list (a read that waits for its projection) has it too.
    expect((await owner.get('/api/orders?orderType=pos&limit=50')).body.orders.filter((o: { id: string }) => o.id === a.body.id)).toHaveLength(1);
    const n = await stack.pool.query("SELECT count(*)::int AS n FROM ordering.orders WHERE notes LIKE 'Venta sin conexión T1-0001%'");
    expect(n.rows[0].n).toBe(1);
    expect(await stockRow(productId)).toEqual({ on_hand: 0, reserved: 0 });
    const alerts = await until(
      () => owner.get('/api/inventory/alerts'),
      (r) => r.body.shortfalls?.length > 0,
    );
    expect(alerts.body.shortfalls).toEqual([{ productId, name: 'Café 400 g', missing: 3, message: 'Vendido sin existencias: Café 400 g, faltan 3' }]);
    // A count of the product settles the alert.
    const counted = await owner.post('/api/inventory/adjust', { productId, newStock: 4, adjustmentType: 'correction', reason: 'Conteo' });
    expect(counted.status).toBeLessThan(300);
    expect((await owner.get('/api/inventory/alerts')).body.shortfalls).toEqual([]);
  });

  it('a sale at the current price carries no old-price mark; the day is the one it was sold', async () => {
    const soldAt = new Date(Date.now() - 3 * 3600_000).toISOString();
    const res = await owner.post('/api/orders', sale(randomUUID(), 1, { localNumber: 'T1-0002', soldAt, shownPrices: [{ productId, unitPrice: 20 }] }));
    expect(res.status).toBe(201);
    expect(res.body.items[0].listPrice).toBeUndefined();
    expect(res.body.notes).toBe('Venta sin conexión T1-0002');
    expect(res.body.createdAt).toBe(soldAt);
  });

  it('bad offline data answers 400 in Spanish', async () => {
    const bad = async (extra: Record<string, unknown>) => {
      const r = await owner.post('/api/orders', sale(randomUUID(), 1, extra));
      return [r.status, r.body.message];
    };
    expect(await bad({ deviceSaleId: 'abc' })).toEqual([400, 'La venta sin conexión necesita un identificador válido del dispositivo.']);
    expect(await bad({ localNumber: 'T1 0001<>' })).toEqual([400, 'El número local de la venta debe tener entre 1 y 30 letras, números o guiones.']);
    expect(await bad({ soldAt: 'ayer' })).toEqual([400, 'La fecha de la venta sin conexión no es válida.']);
    expect(await bad({ soldAt: new Date(Date.now() + 3600_000).toISOString() })).toEqual([400, 'La fecha de la venta sin conexión está en el futuro.']);
    expect(await bad({ shownPrices: [{ productId: randomUUID(), unitPrice: 1 }] })).toEqual([400, 'El precio mostrado corresponde a un producto que no está en la venta.']);
    expect(await bad({ shownPrices: [{ productId, unitPrice: -1 }] })).toEqual([400, 'El precio mostrado debe ser un número mayor o igual a 0 con hasta 2 decimales.']);
  });

  it('an online sale beyond the stock is still refused', async () => {
    const res = await owner.post('/api/orders', { paymentMethod: 'cash', items: [{ productId, quantity: 1000 }] });
    expect(res.status).toBe(409);
  });
});
