/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { randomUUID } from 'node:crypto';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';

/** The owner's inventory through the gateway (real HTTP, real PostgreSQL): adjust, list, ledger, minimum. */
let stack: Stack;
let owner: StackClient;
let other: StackClient;
let shop: { storeId: string; userId: string };

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog', 'inventory'] });
  owner = stack.client();
  other = stack.client();
  shop = await registerAndLogin(owner, { firstName: 'Marta', lastName: 'López' } as any);
  await registerAndLogin(other);
}, 60_000);

afterAll(() => stack?.stop());

async function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function createProduct(client: StackClient, name: string, stock: number, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await client.post('/api/products', { name, description: 'Hecho en casa', sku: `S-${randomUUID().slice(0, 8)}`, price: 10, discountPercentage: 0, stock, categoryId: 'none', images: [], isActive: true, ...extra });
  if (res.status !== 201) throw new Error(`producto: ${res.status} ${res.text}`);
  const id = res.body.id as string;
  await eventually(
    () => client.get('/api/inventory'),
    (r) => Array.isArray(r.body) && r.body.some((p: any) => p.id === id && p.stock === stock),
  );
  return id;
}

describe('POST /api/inventory/adjust: the rules of spec §5, word for word', () => {
  let productId: string;
  beforeAll(async () => {
    productId = await createProduct(owner, 'Café molido', 10);
  });
  const valid = () => ({ productId, newStock: 3, reason: 'Conteo', adjustmentType: 'manual' });

  it.each([
    ['a product id that is not a uuid', { productId: 'abc' }, 'ID de producto inválido'],
    ['no product id', { productId: undefined }, 'ID de producto inválido'],
    ['a stock that is not a number', { newStock: 'muchos' }, 'El stock debe ser un número válido mayor o igual a 0.'],
    ['a missing stock', { newStock: undefined }, 'El stock debe ser un número válido mayor o igual a 0.'],
    ['a fractional stock', { newStock: 1.5 }, 'El stock debe ser un número válido mayor o igual a 0.'],
    ['a negative stock', { newStock: -1 }, 'El stock no puede ser negativo'],
    ['an unknown type', { adjustmentType: 'robo' }, 'Tipo de ajuste inválido'],
    ['a missing reason', { reason: undefined }, 'La razón es requerida'],
    ['a blank reason', { reason: '   ' }, 'La razón es requerida'],
  ])('refuses %s', async (_label, change, message) => {
    const res = await owner.post('/api/inventory/adjust', { ...valid(), ...change });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('refused adjustments changed nothing', async () => {
    const list = await owner.get('/api/inventory');
    expect(list.body.find((p: any) => p.id === productId)).toMatchObject({ stock: 10, adjustmentsCount: 0 });
  });

  it("another store's product answers 404 on every inventory route", async () => {
    const adjust = await other.post('/api/inventory/adjust', valid());
    expect(adjust.status).toBe(404);
    expect((await other.get(`/api/inventory/history/${productId}`)).status).toBe(404);
    expect((await other.put(`/api/inventory/${productId}/minimum`, { minimum: 2 })).status).toBe(404);
    expect((await owner.post('/api/inventory/adjust', { ...valid(), productId: randomUUID() })).status).toBe(404);
    expect((await other.get('/api/inventory')).body).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await stack.client().get('/api/inventory')).status).toBe(401);
  });
});

describe('adjust, then list and ledger', () => {
  it('records old, new, the signed difference, reason and the owner name; the list, the ledger and the shop follow', async () => {
    const productId = await createProduct(owner, 'Pan dulce', 10);
    const res = await owner.post('/api/inventory/adjust', { productId, newStock: 2, reason: 'Se arruinaron', adjustmentType: 'damaged' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ message: 'Inventario actualizado', adjusted: true, stock: 2 });
    expect(res.body.adjustment).toMatchObject({ productId, productName: 'Pan dulce', kind: 'adjustment', adjustmentType: 'damaged', oldStock: 10, newStock: 2, adjustment: -8, reason: 'Se arruinaron', adjustedBy: 'Marta López' });

    const list = await owner.get('/api/inventory?lowStock=true');
    expect(list.body.find((p: any) => p.id === productId)).toMatchObject({ stock: 2, reserved: 0, available: 2, level: 'low', minimum: 5, lowStock: true, adjustmentsCount: 1 });
    const out = await owner.get('/api/inventory?outOfStock=true');
    expect(out.body.some((p: any) => p.id === productId)).toBe(false);

    const history = await owner.get(`/api/inventory/history/${productId}`);
    expect(history.status).toBe(200);
    expect(history.body.map((h: any) => [h.kind, h.oldStock, h.newStock, h.adjustment])).toEqual([
      ['adjustment', 10, 2, -8],
      ['opening', 0, 10, 10],
    ]);
    const storeHistory = await owner.get('/api/inventory/history?type=damaged&page=1&limit=10');
    expect(storeHistory.body).toMatchObject({ total: 1, currentPage: 1, totalPages: 1 });
    expect(storeHistory.body.history[0]).toMatchObject({ productId, storeId: shop.storeId, adjustment: -8 });

    const products = await eventually(
      () => owner.get(`/api/products/${productId}`),
      (r) => r.body?.stock === 2,
    );
    expect(products.body.stock).toBe(2);

    const minimum = await owner.put(`/api/inventory/${productId}/minimum`, { minimum: 1 });
    expect(minimum.status).toBe(200);
    const after = await owner.get('/api/inventory?lowStock=true');
    expect(after.body.some((p: any) => p.id === productId)).toBe(false);
    const alerts = await owner.get('/api/inventory/alerts');
    expect(alerts.status).toBe(200);
    expect(alerts.body.products.some((p: any) => p.id === productId)).toBe(false);
  });

  it('sorts by stock both ways and pages', async () => {
    const desc = await owner.get('/api/inventory?sortBy=stock&sortOrder=desc');
    const stocks = desc.body.map((p: any) => p.stock);
    expect(stocks).toEqual([...stocks].sort((a: number, b: number) => b - a));
    const paged = await owner.get('/api/inventory?page=1&limit=1&sortBy=name');
    expect(paged.body.products).toHaveLength(1);
    expect(paged.body.total).toBeGreaterThanOrEqual(2);
  });
});
