/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';

/**
 * The inventory list's sorts and pages (one row per product with its stock, one index per sort) and a
 * product's ledger read by ordinal, through the gateway on a real PostgreSQL.
 */
let stack: Stack;
let owner: StackClient;

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog', 'inventory'] });
  owner = stack.client();
  await registerAndLogin(owner);
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

async function category(name: string): Promise<string> {
  const res = await owner.post('/api/categories', { name });
  if (res.status !== 201) throw new Error(`categoría: ${res.status} ${res.text}`);
  return res.body.id;
}

async function product(name: string, stock: number, categoryId: string | null): Promise<string> {
  const res = await owner.post('/api/products', { name, price: 10, stock, categoryId: categoryId ?? 'none', images: [], isActive: true });
  if (res.status !== 201) throw new Error(`producto: ${res.status} ${res.text}`);
  return res.body.id;
}

const names = (body: any[]) => body.map((p) => p.name);

describe('GET /api/inventory: sorts both ways, filters and pages', () => {
  let cafe: string;
  beforeAll(async () => {
    const granos = await category('Granos');
    const bebidas = await category('Bebidas');
    await product('Azúcar', 12, granos);
    await product('arroz', 0, granos);
    cafe = await product('Café', 3, bebidas);
    await product('Zanahoria', 25, null);
    await product('Maíz', 3, granos);
    await eventually(
      () => owner.get('/api/inventory'),
      // Listed (catalog's events) and with their opening stock (inventory's): 12 + 0 + 3 + 25 + 3.
      (r) => r.body.length === 5 && r.body.reduce((sum: number, p: any) => sum + p.stock, 0) === 43,
    );
  });

  it('by name, without case, with accents where a Guatemalan reader expects them', async () => {
    expect(names((await owner.get('/api/inventory?sortBy=name&sortOrder=asc')).body)).toEqual(['arroz', 'Azúcar', 'Café', 'Maíz', 'Zanahoria']);
    expect(names((await owner.get('/api/inventory?sortBy=name&sortOrder=desc')).body)).toEqual(['Zanahoria', 'Maíz', 'Café', 'Azúcar', 'arroz']);
  });

  it('by stock, ties by name', async () => {
    expect((await owner.get('/api/inventory?sortBy=stock&sortOrder=asc')).body.map((p: any) => [p.name, p.stock])).toEqual([
      ['arroz', 0],
      ['Café', 3],
      ['Maíz', 3],
      ['Azúcar', 12],
      ['Zanahoria', 25],
    ]);
    expect(names((await owner.get('/api/inventory?sortBy=stock&sortOrder=desc')).body)).toEqual(['Zanahoria', 'Azúcar', 'Maíz', 'Café', 'arroz']);
  });

  it("by category, products without one as 'Sin categoría'", async () => {
    const asc = (await owner.get('/api/inventory?sortBy=category&sortOrder=asc')).body;
    expect(asc.map((p: any) => [p.categoryName, p.name])).toEqual([
      ['Bebidas', 'Café'],
      ['Granos', 'arroz'],
      ['Granos', 'Azúcar'],
      ['Granos', 'Maíz'],
      [null, 'Zanahoria'],
    ]);
    expect(names((await owner.get('/api/inventory?sortBy=category&sortOrder=desc')).body)).toEqual(['Zanahoria', 'Maíz', 'Azúcar', 'arroz', 'Café']);
  });

  it('pages of any size add up to the whole list, with the total', async () => {
    const whole = names((await owner.get('/api/inventory?sortBy=category&sortOrder=asc')).body);
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const res = (await owner.get(`/api/inventory?sortBy=category&sortOrder=asc&page=${page}&limit=2`)).body;
      expect(res).toMatchObject({ total: 5, totalPages: 3, currentPage: page });
      pages.push(...names(res.products));
    }
    expect(pages).toEqual(whole);
    expect((await owner.get('/api/inventory?page=4&limit=2')).body).toMatchObject({ products: [], total: 5 });
  });

  /** Every sort both ways under every filter: pages of 2 (read from either end of the index) give the whole list, and the total its length. */
  async function pagesAgreeWithTheWholeList(filters: string[]): Promise<void> {
    for (const filter of filters) {
      for (const sortBy of ['name', 'stock', 'category']) {
        for (const sortOrder of ['asc', 'desc']) {
          const query = `${filter}&sortBy=${sortBy}&sortOrder=${sortOrder}`;
          const whole = names((await owner.get(`/api/inventory?${query}`)).body);
          const pages: string[] = [];
          const first = (await owner.get(`/api/inventory?${query}&page=1&limit=2`)).body;
          expect({ query, total: first.total }).toEqual({ query, total: whole.length });
          for (let page = 1; page <= first.totalPages; page++) pages.push(...names((await owner.get(`/api/inventory?${query}&page=${page}&limit=2`)).body.products));
          expect({ query, pages }).toEqual({ query, pages: whole });
        }
      }
    }
  }

  it('pages from either end of the index and totals from the per-level counts agree with the whole list, before and after products change', async () => {
    const granos = (await owner.get('/api/categories')).body.find((c: any) => c.name === 'Granos').id;
    const filters = ['x=1', `categoryId=${granos}`, 'categoryId=none', 'lowStock=true', 'outOfStock=true', `lowStock=true&categoryId=${granos}`, 'search=a', 'search=z&lowStock=true'];
    await pagesAgreeWithTheWholeList(filters);
    // A product moved to no category, one sold out, then the moved one deleted: every count follows.
    const frijol = await product('Frijol', 4, granos);
    await eventually(
      () => owner.get('/api/inventory'),
      (r) => r.body.length === 6,
    );
    expect((await owner.put(`/api/products/${frijol}`, { categoryId: 'none' })).status).toBe(200);
    const maiz = (await owner.get('/api/inventory?search=ma')).body.find((p: any) => p.name === 'Maíz').id;
    expect((await owner.post('/api/inventory/adjust', { productId: maiz, newStock: 0, reason: 'Se acabó', adjustmentType: 'manual' })).status).toBe(200);
    await eventually(
      () => owner.get('/api/inventory?categoryId=none&page=1&limit=10'),
      (r) => r.body.total === 2,
    );
    expect((await owner.get('/api/inventory?outOfStock=true&page=1&limit=10')).body.total).toBe(2);
    await pagesAgreeWithTheWholeList(filters);
    expect((await owner.delete(`/api/products/${frijol}`)).status).toBeLessThan(300);
    await eventually(
      () => owner.get('/api/inventory?categoryId=none&page=1&limit=10'),
      (r) => r.body.total === 1,
    );
    await pagesAgreeWithTheWholeList(filters);
    // Back as it was for the tests below.
    expect((await owner.post('/api/inventory/adjust', { productId: maiz, newStock: 3, reason: 'Llegó', adjustmentType: 'restock' })).status).toBe(200);
    await eventually(
      () => owner.get('/api/inventory?lowStock=true&page=1&limit=10'),
      (r) => r.body.total === 2,
    );
  });

  it('filters by category, search, low and out of stock, and a minimum the owner set', async () => {
    expect(names((await owner.get('/api/inventory?search=AZ&sortBy=name')).body)).toEqual(['Azúcar']);
    expect(names((await owner.get('/api/inventory?categoryId=none')).body)).toEqual(['Zanahoria']);
    expect(names((await owner.get('/api/inventory?outOfStock=true')).body)).toEqual(['arroz']);
    expect(names((await owner.get('/api/inventory?lowStock=true&sortBy=name')).body)).toEqual(['Café', 'Maíz']);
    await owner.put(`/api/inventory/${cafe}/minimum`, { minimum: 2 });
    const low = await owner.get('/api/inventory?lowStock=true&page=1&limit=10');
    expect(low.body).toMatchObject({ total: 1 });
    expect(names(low.body.products)).toEqual(['Maíz']);
  });
});

describe("a product's ledger, page by page", () => {
  it('any page is the right slice, newest first, with the total; filtered pages too', async () => {
    const id = await product('Harina', 10, null);
    await eventually(
      () => owner.get(`/api/inventory/history/${id}`),
      (r) => Array.isArray(r.body) && r.body.length === 1,
    );
    for (let i = 1; i <= 7; i++) {
      const res = await owner.post('/api/inventory/adjust', { productId: id, newStock: 10 + i, reason: `Conteo ${i}`, adjustmentType: i % 2 ? 'restock' : 'manual' });
      expect(res.status).toBe(200);
    }
    const all = (await owner.get(`/api/inventory/history/${id}`)).body;
    expect(all.map((l: any) => l.newStock)).toEqual([17, 16, 15, 14, 13, 12, 11, 10]);
    const pages = [];
    for (let page = 1; page <= 3; page++) {
      const res = (await owner.get(`/api/inventory/history/${id}?page=${page}&limit=3`)).body;
      expect(res).toMatchObject({ total: 8, totalPages: 3, currentPage: page });
      pages.push(...res.history.map((l: any) => l.newStock));
    }
    expect(pages).toEqual([17, 16, 15, 14, 13, 12, 11, 10]);
    expect((await owner.get(`/api/inventory/history/${id}?page=4&limit=3`)).body).toMatchObject({ history: [], total: 8 });
    const restocks = (await owner.get(`/api/inventory/history/${id}?type=restock&page=2&limit=3`)).body;
    expect(restocks).toMatchObject({ total: 4, totalPages: 2 });
    expect(restocks.history.map((l: any) => l.reason)).toEqual(['Conteo 1']);
  });
});

describe('GET /api/inventory?search=: a literal piece of the name or the SKU', () => {
  beforeAll(async () => {
    for (const [name, sku] of [
      ['Jabón 100% natural', 'LIM_01'],
      ['Jabón 1000 natural', 'LIMX01'],
      ['Cloro 1\\2 galón', 'CLO-12'],
    ]) {
      const res = await owner.post('/api/products', { name, sku, price: 10, stock: 8, categoryId: 'none', images: [], isActive: true });
      if (res.status !== 201) throw new Error(`producto: ${res.status} ${res.text}`);
    }
    await eventually(
      () => owner.get('/api/inventory?search=natural'),
      (r) => r.body.length === 2,
    );
  });

  it('without case, in the name or the SKU; %, _ and \\ are the characters themselves', async () => {
    // The names found, in a fixed order (how '%' sorts against '0' is the database's collation's business).
    const found = async (search: string) => names((await owner.get(`/api/inventory?search=${encodeURIComponent(search)}`)).body).sort();
    expect(await found('JABÓN 1')).toEqual(['Jabón 100% natural', 'Jabón 1000 natural']);
    expect(await found('jabon 1')).toEqual(['Jabón 100% natural', 'Jabón 1000 natural']); // without accents
    expect(await found('GALON')).toEqual(['Cloro 1\\2 galón']);
    expect(await found('100%')).toEqual(['Jabón 100% natural']);
    expect(await found('%')).toEqual(['Jabón 100% natural']);
    expect(await found('lim_0')).toEqual(['Jabón 100% natural']);
    expect(await found('_')).toEqual(['Jabón 100% natural']);
    expect(await found('limx')).toEqual(['Jabón 1000 natural']);
    expect(await found('1\\2')).toEqual(['Cloro 1\\2 galón']);
    expect(await found('clo-1')).toEqual(['Cloro 1\\2 galón']);
    expect(await found('  natural ')).toEqual(['Jabón 100% natural', 'Jabón 1000 natural']);
  });

  it('pages of a search, called again and again, are slices of the whole answer with its total', async () => {
    for (const query of ['search=jab%C3%B3n&sortBy=name&sortOrder=asc', 'search=l&sortBy=stock&sortOrder=desc', 'search=o&lowStock=true&sortBy=category&sortOrder=asc']) {
      const whole = names((await owner.get(`/api/inventory?${query}`)).body);
      // Every page twice: the same statement many times over (PostgreSQL changes plans after its first few calls).
      for (let round = 0; round < 2; round++) {
        for (let page = 1; page <= whole.length + 1; page++) {
          const res = (await owner.get(`/api/inventory?${query}&page=${page}&limit=1`)).body;
          expect({ query, page, total: res.total, names: names(res.products) }).toEqual({ query, page, total: whole.length, names: whole.slice(page - 1, page) });
        }
      }
    }
  });
});
