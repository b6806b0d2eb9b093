/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import {
  CatalogMessages,
  CategoryView,
  InventoryMessages,
  PendingReview,
  PriceHistoryEntry,
  ProductListResponse,
  ProductView,
  PublicProductDetails,
  PublicProductListResponse,
  UploadResponse,
} from '@tiendita/contracts';
import { z } from 'zod';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { UploadSweeper } from '../src/uploads/application/upload-sweeper';
import { eventually, makeImage, setStoreActive, upload, uploadImage, waitForShop } from './support';

/**
 * The catalog's API through the gateway (real HTTP, real PostgreSQL): identity for sessions and
 * stores, inventory for stock, catalog for everything else.
 */
let stack: Stack;
let owner: StackClient;
let other: StackClient;
let shop: { storeId: string; subdomain: string; userId: string };
let otherShop: { storeId: string; subdomain: string };
let ipCounter = 1;
/** A shopper with an address of its own (the review rate limit counts per address). */
const shopper = () => stack.client({ forwardedFor: `203.0.113.${ipCounter++}` });

beforeAll(async () => {
  stack = await startStack({
    services: ['identity', 'inventory', 'catalog'],
    gatewayEnv: { TRUST_PROXY: '1' },
    serviceEnv: { catalog: { REVIEW_RATE_LIMIT: '3' } },
  });
  owner = stack.client();
  other = stack.client();
  shop = await registerAndLogin(owner);
  otherShop = await registerAndLogin(other);
  await waitForShop(stack.client(), shop.subdomain);
  await waitForShop(stack.client(), otherShop.subdomain);
}, 60_000);

afterAll(() => stack?.stop());

const productBody = (overrides: Record<string, unknown> = {}) => ({
  name: 'Café de Antigua 1 lb',
  description: 'Tostado medio',
  sku: 'CAF-001',
  price: 75.5,
  discountPercentage: 10,
  stock: 12,
  categoryId: 'none',
  images: [],
  isActive: true,
  ...overrides,
});

describe('categories', () => {
  it('refuses a category without a name: El nombre de la categoría es requerido.', async () => {
    const res = await owner.post('/api/categories', { name: '  ' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('El nombre de la categoría es requerido.');
  });

  it('refuses a category name over 100 characters (spec: name max 100)', async () => {
    const res = await owner.post('/api/categories', { name: 'C'.repeat(101) });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('El nombre de la categoría no puede tener más de 100 caracteres.');
  });

  it('creates a category and lists only the store\u2019s own', async () => {
    const res = await owner.post('/api/categories', { name: 'Bebidas', description: 'Café y aguas' });
    expect(res.status).toBe(201);
    expect(CategoryView.parse(res.body)).toMatchObject({ name: 'Bebidas', description: 'Café y aguas', storeId: shop.storeId });
    await other.post('/api/categories', { name: 'De otra tienda' });
    const list = await owner.get('/api/categories');
    expect(list.status).toBe(200);
    expect(z.array(CategoryView).parse(list.body).map((c) => c.name)).toEqual(['Bebidas']);
  });

  it('needs a session', async () => {
    expect((await stack.client().get('/api/categories')).status).toBe(401);
  });
});

describe('image upload', () => {
  it('POST /api/upload answers a one-time uploadUrl under /api/upload/direct/ and a fileName', async () => {
    const res = await owner.post('/api/upload', { filename: 'cafe.png', contentType: 'image/png' });
    expect(res.status).toBe(200);
    UploadResponse.parse(res.body);
    expect(res.body.uploadUrl).toMatch(/^\/api\/upload\/direct\/[A-Za-z0-9_-]+$/);
    expect(res.body.fileName).toMatch(/^[0-9a-f-]{36}\.png$/);
  });

  it.each(['png', 'jpeg', 'webp'] as const)('accepts a real %s and serves it with long cache headers, to shoppers too', async (format) => {
    const { ticket, put } = await upload(owner, await makeImage(format), `image/${format}`);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ fileName: ticket.body.fileName, url: `/temp-uploads/products/${ticket.body.fileName}`, width: 64, height: 48 });
    const anonymous = stack.client();
    const original = await anonymous.get(`/temp-uploads/products/${ticket.body.fileName}`);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe(`image/${format}`);
    expect(original.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const objects = await anonymous.get(`/objects/${ticket.body.fileName}`);
    expect(objects.status).toBe(200);
  });

  it('makes resized WebP variants for the shop (?w=)', async () => {
    const { ticket } = await upload(owner, await makeImage('png', 1000, 500));
    const res = await fetch(`${stack.url}/temp-uploads/products/${ticket.body.fileName}?w=400`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const sharp = (await import('sharp')).default;
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 400, height: 200 });
    expect((await fetch(`${stack.url}/temp-uploads/products/${ticket.body.fileName}?w=401`)).status).toBe(400);
  });

  it('refuses a file that is not an image by its content, whatever its name or type: Solo se pueden subir archivos de imagen.', async () => {
    const text = await upload(owner, 'esto no es una imagen', 'image/png', 'falsa.png');
    expect(text.put.status).toBe(400);
    expect(text.put.body.message).toBe('Solo se pueden subir archivos de imagen.');
    // A GIF is a real image but not one of JPEG, PNG or WebP.
    const gif = Buffer.from('R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64');
    const res = await upload(owner, gif, 'image/gif', 'a.gif');
    expect(res.put.status).toBe(400);
    expect(res.put.body.message).toBe(CatalogMessages.onlyImages);
    // PNG magic bytes on a broken body.
    const broken = Buffer.concat([(await makeImage('png')).subarray(0, 40)]);
    expect((await upload(owner, broken, 'image/png')).put.status).toBe(400);
  });

  it('refuses a file PUT with a type that is not an image (text/plain): Solo se pueden subir archivos de imagen.', async () => {
    const ticket = await owner.post('/api/upload', { filename: 'foto.png', contentType: 'image/png' });
    const put = await owner.put(ticket.body.uploadUrl, new Uint8Array(await makeImage('png')), { 'content-type': 'text/plain' });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe(CatalogMessages.onlyImages);
    // An empty body is still "select at least one".
    const again = await owner.post('/api/upload', { filename: 'foto.png', contentType: 'image/png' });
    const empty = await owner.put(again.body.uploadUrl, '', { 'content-type': 'text/plain' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe(CatalogMessages.selectAtLeastOne);
  });

  it('answers the spec texts to a POST /api/upload without filename or type', async () => {
    const res = await owner.post('/api/upload', {});
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toEqual({ filename: CatalogMessages.selectAtLeastOne, contentType: CatalogMessages.onlyImages });
  });

  it('refuses a declared type that is not an image at POST /api/upload', async () => {
    const res = await owner.post('/api/upload', { filename: 'notas.txt', contentType: 'text/plain' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Solo se pueden subir archivos de imagen.');
  });

  it('answers 413 to a file over 10 MB', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0);
    (await makeImage('png')).copy(big);
    const { put } = await upload(owner, big, 'image/png');
    expect(put.status).toBe(413);
  });

  it('an upload URL works once, and only for its own store', async () => {
    const ticket = await owner.post('/api/upload', { filename: 'a.png', contentType: 'image/png' });
    const png = new Uint8Array(await makeImage('png'));
    expect((await other.put(ticket.body.uploadUrl, png, { 'content-type': 'image/png' })).status).toBe(404);
    expect((await owner.put(ticket.body.uploadUrl, png, { 'content-type': 'image/png' })).status).toBe(200);
    const again = await owner.put(ticket.body.uploadUrl, png, { 'content-type': 'image/png' });
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(CatalogMessages.uploadNotFound);
  });

  it('needs a session to ask for an upload URL', async () => {
    expect((await stack.client().post('/api/upload', { filename: 'a.png', contentType: 'image/png' })).status).toBe(401);
  });
});

describe('products', () => {
  let categoryId: string;
  beforeAll(async () => {
    categoryId = (await owner.post('/api/categories', { name: 'Abarrotes' })).body.id;
  });

  it('creates a product with two images: the first is the main one; final price rounded once', async () => {
    const images = [await uploadImage(owner), await uploadImage(owner)];
    const res = await owner.post('/api/products', productBody({ images, categoryId, price: 19.99, discountPercentage: 15, stock: 7 }));
    expect(res.status).toBe(201);
    expect(ProductView.parse(res.body)).toMatchObject({
      storeId: shop.storeId,
      name: 'Café de Antigua 1 lb',
      price: 19.99,
      discountPercentage: 15,
      // 1999 × 0.85 = 1699.15 centavos → 1699
      finalPrice: 16.99,
      stock: 7,
      categoryId,
      categoryName: 'Abarrotes',
      imageUrl: images[0],
      images,
      isActive: true,
    });
    const got = await owner.get(`/api/products/${res.body.id}`);
    expect(got.body).toEqual(res.body);
  });

  it('refuses an 11th image: Solo puedes tener máximo 10 imágenes por producto.', async () => {
    const images = Array.from({ length: 11 }, (_, i) => `/temp-uploads/products/${i}.png`);
    const res = await owner.post('/api/products', productBody({ images }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Solo puedes tener máximo 10 imágenes por producto.');
    const created = await owner.post('/api/products', productBody({ images: [] }));
    const put = await owner.put(`/api/products/${created.body.id}`, { images });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe('Solo puedes tener máximo 10 imágenes por producto.');
  });

  it('validates the form with the spec messages', async () => {
    const noName = await owner.post('/api/products', productBody({ name: '' }));
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe(CatalogMessages.productNameRequired);
    const badPrice = await owner.post('/api/products', productBody({ price: -1 }));
    expect(badPrice.body.message).toBe(CatalogMessages.priceRequired);
    const badDiscount = await owner.post('/api/products', productBody({ discountPercentage: 101 }));
    expect(badDiscount.body.message).toBe(CatalogMessages.discountRange);
    const negativeStock = await owner.post('/api/products', productBody({ stock: -3 }));
    expect(negativeStock.status).toBe(400);
    // A non-numeric stock becomes 0; an empty SKU or description is omitted.
    const lenient = await owner.post('/api/products', productBody({ stock: 'abc', sku: '', description: '' }));
    expect(lenient.status).toBe(201);
    expect(lenient.body).toMatchObject({ stock: 0, sku: null, description: null });
  });

  it("refuses another store's category", async () => {
    const foreign = (await other.post('/api/categories', { name: 'Ajena' })).body.id;
    const res = await owner.post('/api/products', productBody({ categoryId: foreign }));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(CatalogMessages.categoryNotFound);
  });

  it('takes the tenant from the session: a matching storeId in the body is accepted, a foreign one refused', async () => {
    const same = await owner.post('/api/products', productBody({ storeId: shop.storeId }));
    expect(same.status).toBe(201);
    expect(same.body.storeId).toBe(shop.storeId);
    const foreign = await owner.post('/api/products', productBody({ storeId: otherShop.storeId }));
    expect(foreign.status).toBe(403);
  });

  it('a price or discount change writes the price history (old and new, reason, who)', async () => {
    const created = (await owner.post('/api/products', productBody({ price: 10, discountPercentage: 0 }))).body;
    const res = await owner.put(`/api/products/${created.id}`, { price: 12.5, discountPercentage: 20, changeReason: 'Subió el proveedor' });
    expect(res.status).toBe(200);
    expect(ProductView.parse(res.body)).toMatchObject({ price: 12.5, discountPercentage: 20, finalPrice: 10 });
    await owner.put(`/api/products/${created.id}`, { name: 'Solo el nombre' });
    const history = await owner.get(`/api/products/${created.id}/price-history`);
    expect(history.status).toBe(200);
    const entries = z.array(PriceHistoryEntry).parse(history.body);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({
      oldPrice: 10,
      newPrice: 12.5,
      oldDiscountPercentage: 0,
      newDiscountPercentage: 20,
      changeReason: 'Subió el proveedor',
      changedBy: shop.userId,
      // The owner's name (newRegistration's), not the raw user id.
      changedByName: 'Ana López',
    });
    expect(entries[1]).toMatchObject({ oldPrice: null, newPrice: 10, changedByName: 'Ana López' });
    expect(typeof history.body[0].createdAt).toBe('string');
  });

  it('a stock change in the form is recorded by inventory as a correction; stock never goes negative', async () => {
    const created = (await owner.post('/api/products', productBody({ stock: 10 }))).body;
    const res = await owner.put(`/api/products/${created.id}`, { stock: 3 });
    expect(res.status).toBe(200);
    expect(res.body.stock).toBe(3);
    expect((await owner.get(`/api/products/${created.id}`)).body.stock).toBe(3);
    // Inventory's own read model follows its events a moment later.
    const adjustments = await eventually(() => stack.pool.query(`SELECT adjustment_type, old_stock, new_stock, adjustment, reason, adjusted_by FROM inventory.adjustments WHERE product_id = $1`, [created.id]), (r) => r.rows.length > 0);
    expect(adjustments.rows).toEqual([
      { adjustment_type: 'correction', old_stock: 10, new_stock: 3, adjustment: -7, reason: 'Corrección desde el formulario de producto', adjusted_by: shop.userId },
    ]);
    const negative = await owner.put(`/api/products/${created.id}`, { stock: -1 });
    expect(negative.status).toBe(400);
    expect((await owner.get(`/api/products/${created.id}`)).body.stock).toBe(3);
    // The same stock again records nothing.
    await owner.put(`/api/products/${created.id}`, { stock: 3 });
    const stream = await stack.pool.query(`SELECT type FROM inventory.events WHERE stream_id = $1 ORDER BY stream_position`, [`stock-${created.id}`]);
    expect(stream.rows.map((r) => r.type)).toEqual(['StockItemOpened', 'StockAdjusted']);
  });

  it('an edit whose catalog part fails after inventory saved the stock says exactly what was saved', async () => {
    const created = ProductView.parse((await owner.post('/api/products', productBody({ price: 10, stock: 5 }))).body);
    // A real failure of the catalog's append, after the stock went to inventory: PostgreSQL refuses this product's events.
    await stack.pool.query(`CREATE OR REPLACE FUNCTION public.refuse_catalog_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no'; END $$`);
    await stack.pool.query(
      `CREATE TRIGGER refuse_product BEFORE INSERT ON catalog.events FOR EACH ROW WHEN (NEW.stream_id = 'product-${created.id}') EXECUTE FUNCTION public.refuse_catalog_event()`,
    );
    try {
      const res = await owner.put(`/api/products/${created.id}`, { price: 12, stock: 2 });
      expect(res.status).toBe(503);
      expect(res.body.message).toBe(CatalogMessages.productEditOnlyStockSaved(2, 'el catálogo no pudo guardarlos; inténtalo de nuevo.'));
      expect(res.body.details).toEqual({ saved: { stock: 2 } });
    } finally {
      await stack.pool.query(`DROP TRIGGER refuse_product ON catalog.events`);
    }
    const after = await eventually(() => owner.get(`/api/products/${created.id}`), (r) => r.body.stock === 2);
    expect(ProductView.parse(after.body)).toMatchObject({ price: 10, stock: 2 });
  });

  it('a new product opens its stock item in inventory', async () => {
    const created = (await owner.post('/api/products', productBody({ stock: 42 }))).body;
    const { rows } = await eventually(() => stack.pool.query(`SELECT stock, store_id FROM inventory.stock_items WHERE product_id = $1`, [created.id]), (r) => r.rows.length > 0);
    expect(rows).toEqual([{ stock: 42, store_id: shop.storeId }]);
  });

  it('activates and deactivates', async () => {
    const created = (await owner.post('/api/products', productBody())).body;
    expect((await owner.post(`/api/products/${created.id}/deactivate`)).body.isActive).toBe(false);
    expect((await owner.post(`/api/products/${created.id}/activate`)).body.isActive).toBe(true);
    expect((await owner.put(`/api/products/${created.id}`, { isActive: false })).body.isActive).toBe(false);
  });

  it('deletes a product: Producto eliminado, then 404', async () => {
    const created = (await owner.post('/api/products', productBody())).body;
    const res = await owner.delete(`/api/products/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Producto eliminado');
    const gone = await owner.get(`/api/products/${created.id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Producto no encontrado');
    expect((await owner.delete(`/api/products/${created.id}`)).status).toBe(404);
  });

  it("answers 404 on every product route for another owner's product", async () => {
    const mine = (await owner.post('/api/products', productBody({ name: 'Mío' }))).body;
    const calls: [string, string, unknown?][] = [
      ['GET', `/api/products/${mine.id}`],
      ['PUT', `/api/products/${mine.id}`, { name: 'Robado', stock: 0 }],
      ['DELETE', `/api/products/${mine.id}`],
      ['GET', `/api/products/${mine.id}/price-history`],
      ['POST', `/api/products/${mine.id}/activate`],
      ['POST', `/api/products/${mine.id}/deactivate`],
    ];
    for (const [method, path, body] of calls) {
      const res = await other.request(method, path, body);
      expect([method, path, res.status, res.body.message]).toEqual([method, path, 404, 'Producto no encontrado']);
    }
    const list = await other.get(`/api/products?search=M%C3%ADo`);
    expect(list.body.total).toBe(0);
    const still = await owner.get(`/api/products/${mine.id}`);
    expect(still.body).toMatchObject({ name: 'Mío', isActive: true, stock: 12 });
    // A malformed id is the same 404.
    expect((await other.get('/api/products/no-es-un-id')).status).toBe(404);
  });
});

describe('product list (GET /api/products)', () => {
  let client: StackClient;
  let catA: string;
  beforeAll(async () => {
    client = stack.client();
    await registerAndLogin(client);
    catA = (await client.post('/api/categories', { name: 'Lácteos' })).body.id;
    const rows = [
      { name: 'Leche', price: 13, stock: 30, categoryId: catA },
      { name: 'Queso', price: 32, stock: 4, categoryId: catA, sku: 'QSO-1' },
      { name: 'Arroz', price: 12.5, stock: 0 },
      { name: 'Azúcar', price: 24, stock: 50, isActive: false },
      { name: 'Frijol', price: 16, stock: 5, description: 'negro de olla' },
    ];
    for (const r of rows) expect((await client.post('/api/products', productBody({ images: [], discountPercentage: 0, ...r }))).status).toBe(201);
  });

  const names = (res: any) => res.body.products.map((p: any) => p.name);

  it('answers { products, total, totalPages, currentPage }, newest first by default, 12 per page', async () => {
    const res = await client.get('/api/products');
    expect(res.status).toBe(200);
    expect(ProductListResponse.parse(res.body)).toMatchObject({ total: 5, totalPages: 1, currentPage: 1 });
    expect(names(res)).toEqual(['Frijol', 'Azúcar', 'Arroz', 'Queso', 'Leche']);
  });

  it('sorts by name, price and stock, both ways', async () => {
    expect(names(await client.get('/api/products?sortBy=name&sortOrder=asc'))).toEqual(['Arroz', 'Azúcar', 'Frijol', 'Leche', 'Queso']);
    expect(names(await client.get('/api/products?sortBy=price&sortOrder=desc'))).toEqual(['Queso', 'Azúcar', 'Frijol', 'Leche', 'Arroz']);
    expect(names(await client.get('/api/products?sortBy=stock&sortOrder=asc'))).toEqual(['Arroz', 'Queso', 'Frijol', 'Leche', 'Azúcar']);
  });

  it('pages', async () => {
    const res = await client.get('/api/products?sortBy=name&sortOrder=asc&page=2&limit=2');
    expect(res.body).toMatchObject({ total: 5, totalPages: 3, currentPage: 2 });
    expect(names(res)).toEqual(['Frijol', 'Leche']);
  });

  it('filters by search (name, SKU, description), category, none, status and low stock', async () => {
    expect(names(await client.get('/api/products?search=que'))).toEqual(['Queso']);
    expect(names(await client.get('/api/products?search=QSO'))).toEqual(['Queso']);
    expect(names(await client.get('/api/products?search=olla'))).toEqual(['Frijol']);
    expect(names(await client.get('/api/products?search=%25'))).toEqual([]);
    // Without accents or case, either way round: 'azucar' finds 'Azúcar', 'ARRÓZ' finds 'Arroz'.
    expect(names(await client.get('/api/products?search=azucar'))).toEqual(['Azúcar']);
    expect(names(await client.get(`/api/products?search=${encodeURIComponent('ARRÓZ')}`))).toEqual(['Arroz']);
    expect(names(await client.get(`/api/products?categoryId=${catA}&sortBy=name&sortOrder=asc`))).toEqual(['Leche', 'Queso']);
    expect(names(await client.get('/api/products?categoryId=none&sortBy=name&sortOrder=asc'))).toEqual(['Arroz', 'Azúcar', 'Frijol']);
    expect(names(await client.get('/api/products?isActive=false'))).toEqual(['Azúcar']);
    expect(names(await client.get('/api/products?lowStock=true&sortBy=name&sortOrder=asc'))).toEqual(['Arroz', 'Frijol', 'Queso']);
    expect(names(await client.get('/api/products?lowStock=false&sortBy=name&sortOrder=asc'))).toEqual(['Azúcar', 'Leche']);
  });

  it('refuses a bad query', async () => {
    expect((await client.get('/api/products?sortBy=color')).status).toBe(400);
    expect((await client.get('/api/products?categoryId=abc')).status).toBe(400);
  });
});

describe('public shop', () => {
  let seller: StackClient;
  let store: { storeId: string; subdomain: string };
  let visible: any;
  let hidden: any;
  let cat: string;
  beforeAll(async () => {
    seller = stack.client();
    store = await registerAndLogin(seller);
    await waitForShop(stack.client(), store.subdomain);
    cat = (await seller.post('/api/categories', { name: 'Frutas' })).body.id;
    visible = (await seller.post('/api/products', productBody({ name: 'Aguacate', categoryId: cat, images: [await uploadImage(seller)] }))).body;
    hidden = (await seller.post('/api/products', productBody({ name: 'Escondido', isActive: false }))).body;
    await seller.post('/api/products', productBody({ name: 'Papaya' }));
  });

  it('lists only active products, by subdomain or id, with the public view', async () => {
    const anonymous = stack.client();
    const bySub = await anonymous.get(`/api/public/products/${store.subdomain}`);
    expect(bySub.status).toBe(200);
    expect(PublicProductListResponse.parse(bySub.body)).toMatchObject({ total: 2, totalPages: 1, currentPage: 1 });
    expect(bySub.body.products.map((p: any) => p.name)).toEqual(['Papaya', 'Aguacate']);
    const aguacate = bySub.body.products[1];
    expect(aguacate).toMatchObject({ id: visible.id, price: 75.5, discountPercentage: 10, finalPrice: 67.95, stock: 12, categoryName: 'Frutas', imageUrl: visible.images[0] });
    expect(aguacate).not.toHaveProperty('storeId');
    expect(aguacate).not.toHaveProperty('isActive');
    const byId = await anonymous.get(`/api/public/products/${store.storeId}`);
    expect(byId.body).toEqual(bySub.body);
  });

  it('pages, searches and filters by category', async () => {
    const anonymous = stack.client();
    const page = await anonymous.get(`/api/public/products/${store.subdomain}?page=2&limit=1`);
    expect(page.body).toMatchObject({ total: 2, totalPages: 2, currentPage: 2 });
    expect(page.body.products.map((p: any) => p.name)).toEqual(['Aguacate']);
    expect((await anonymous.get(`/api/public/products/${store.subdomain}?search=papa`)).body.products.map((p: any) => p.name)).toEqual(['Papaya']);
    expect((await anonymous.get(`/api/public/products/${store.subdomain}?search=PAPÁ`)).body.products.map((p: any) => p.name)).toEqual(['Papaya']);
    expect((await anonymous.get(`/api/public/products/${store.subdomain}?categoryId=${cat}`)).body.total).toBe(1);
  });

  it('keeps the shop totals right when products change category, activity or are deleted', async () => {
    const anonymous = stack.client();
    const total = async (query = '') => (await anonymous.get(`/api/public/products/${store.subdomain}${query}`)).body.total;
    const moving = (await seller.post('/api/products', productBody({ name: 'Mango', categoryId: cat }))).body;
    expect(await total(`?categoryId=${cat}`)).toBe(2);
    await seller.put(`/api/products/${moving.id}`, { categoryId: 'none' });
    expect(await total(`?categoryId=${cat}`)).toBe(1);
    expect(await total()).toBe(3);
    await seller.post(`/api/products/${moving.id}/deactivate`);
    expect(await total()).toBe(2);
    await seller.put(`/api/products/${moving.id}`, { categoryId: cat });
    expect(await total(`?categoryId=${cat}`)).toBe(1);
    await seller.post(`/api/products/${moving.id}/activate`);
    expect(await total(`?categoryId=${cat}`)).toBe(2);
    await seller.delete(`/api/products/${moving.id}`);
    expect(await total(`?categoryId=${cat}`)).toBe(1);
    expect(await total()).toBe(2);
    expect(await total('?search=agua')).toBe(1);
  });

  it('lists the categories', async () => {
    const res = await stack.client().get(`/api/public/categories/${store.subdomain}`);
    expect(res.status).toBe(200);
    expect(res.body.map((c: any) => c.name)).toEqual(['Frutas']);
  });

  it('an unknown store is not found: Tienda no encontrada', async () => {
    const res = await stack.client().get('/api/public/products/no-existe-esta-tienda');
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(CatalogMessages.storeNotFound);
    expect((await stack.client().get('/api/public/categories/no-existe-esta-tienda')).status).toBe(404);
  });

  it('product details: an inactive product is not found', async () => {
    const ok = await stack.client().get(`/api/public/products/${visible.id}/details`);
    expect(ok.status).toBe(200);
    expect(PublicProductDetails.parse(ok.body)).toMatchObject({ id: visible.id, name: 'Aguacate', storeSubdomain: store.subdomain, averageRating: 0, totalRatings: 0, ratings: [], comments: [] });
    const no = await stack.client().get(`/api/public/products/${hidden.id}/details`);
    expect(no.status).toBe(404);
    expect(no.body.message).toBe('Producto no encontrado');
  });

  it('an inactive store is invisible: its products, categories and details', async () => {
    const closing = stack.client();
    const closed = await registerAndLogin(closing);
    await waitForShop(stack.client(), closed.subdomain);
    const product = (await closing.post('/api/products', productBody())).body;
    expect((await stack.client().get(`/api/public/products/${product.id}/details`)).status).toBe(200);
    await setStoreActive(stack, closed.storeId, false);
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await stack.client().get(`/api/public/products/${closed.subdomain}`)).status === 200) await new Promise((r) => setTimeout(r, 50));
    const anonymous = stack.client();
    expect((await anonymous.get(`/api/public/products/${closed.subdomain}`)).status).toBe(404);
    expect((await anonymous.get(`/api/public/products/${closed.storeId}`)).status).toBe(404);
    expect((await anonymous.get(`/api/public/categories/${closed.subdomain}`)).status).toBe(404);
    expect((await anonymous.get(`/api/public/products/${product.id}/details`)).status).toBe(404);
    expect((await shopper().post(`/api/public/products/${product.id}/ratings`, { rating: 5, customerName: 'Ana' })).status).toBe(404);
  });

  it('a deleted product disappears from the shop', async () => {
    const gone = (await seller.post('/api/products', productBody({ name: 'Temporal' }))).body;
    expect((await stack.client().get(`/api/public/products/${store.subdomain}`)).body.total).toBe(3);
    await seller.delete(`/api/products/${gone.id}`);
    expect((await stack.client().get(`/api/public/products/${store.subdomain}`)).body.total).toBe(2);
    expect((await stack.client().get(`/api/public/products/${gone.id}/details`)).status).toBe(404);
  });

  describe('ratings and comments', () => {
    it('validates with the spec messages', async () => {
      const noName = await shopper().post(`/api/public/products/${visible.id}/ratings`, { rating: 4 });
      expect(noName.status).toBe(400);
      expect(noName.body.message).toBe('Por favor ingresa tu nombre.');
      const outOfRange = await shopper().post(`/api/public/products/${visible.id}/ratings`, { rating: 6, customerName: 'Ana' });
      expect(outOfRange.status).toBe(400);
      expect(outOfRange.body.message).toBe(CatalogMessages.ratingRange);
      const noComment = await shopper().post(`/api/public/products/${visible.id}/comments`, { customerName: 'Ana' });
      expect(noComment.status).toBe(400);
      expect(noComment.body.message).toBe('Por favor completa tu nombre y comentario.');
      const noCommentName = await shopper().post(`/api/public/products/${visible.id}/comments`, { comment: 'Hola' });
      expect(noCommentName.body.message).toBe('Por favor completa tu nombre y comentario.');
      const unknown = await shopper().post(`/api/public/products/${hidden.id}/ratings`, { rating: 5, customerName: 'Ana' });
      expect(unknown.status).toBe(404);
      // Never zod's English: a rating that is not a number, a malformed optional e-mail.
      const notANumber = await shopper().post(`/api/public/products/${visible.id}/ratings`, { rating: 'cinco', customerName: 'Ana' });
      expect(notANumber.status).toBe(400);
      expect(notANumber.body.message).toBe(CatalogMessages.ratingRange);
      const badEmail = await shopper().post(`/api/public/products/${visible.id}/ratings`, { rating: 4, customerName: 'Ana', customerEmail: 'ana' });
      expect(badEmail.status).toBe(400);
      expect(badEmail.body.message).toBe('Email inválido');
      const badCommentEmail = await shopper().post(`/api/public/products/${visible.id}/comments`, { comment: 'Hola', customerName: 'Ana', customerEmail: 'ana' });
      expect(badCommentEmail.status).toBe(400);
      expect(badCommentEmail.body.message).toBe('Email inválido');
    });

    it('stars default to 5; submitted unapproved and hidden until the owner approves; rejected ones never shown', async () => {
      const rated = await shopper().post(`/api/public/products/${visible.id}/ratings`, { customerName: 'Ana', comment: 'Cremoso', customerEmail: '' });
      expect(rated.status).toBe(201);
      expect(rated.body).toMatchObject({ status: 'pending', message: CatalogMessages.reviewPending });
      const low = await shopper().post(`/api/public/products/${visible.id}/ratings`, { rating: 2, customerName: 'Beto', customerEmail: 'beto@example.com' });
      const commented = await shopper().post(`/api/public/products/${visible.id}/comments`, { comment: '¿Tienen más?', customerName: 'Carla' });
      expect(commented.status).toBe(201);
      expect(commented.body.message).toBe(CatalogMessages.commentPending);

      let details = (await stack.client().get(`/api/public/products/${visible.id}/details`)).body;
      expect(details).toMatchObject({ averageRating: 0, totalRatings: 0, ratings: [], comments: [] });

      const pending = await seller.get('/api/products/reviews/pending');
      expect(pending.status).toBe(200);
      expect(z.array(PendingReview).parse(pending.body).map((r) => [r.kind, r.customerName, r.rating, r.productName, r.status])).toEqual([
        ['comment', 'Carla', null, 'Aguacate', 'pending'],
        ['rating', 'Beto', 2, 'Aguacate', 'pending'],
        ['rating', 'Ana', 5, 'Aguacate', 'pending'],
      ]);
      // Another owner sees none of them and cannot decide on them.
      expect((await other.get('/api/products/reviews/pending')).body).toEqual([]);
      expect((await other.post(`/api/products/reviews/${rated.body.id}/approve`)).status).toBe(404);

      const approved = await seller.post(`/api/products/reviews/${rated.body.id}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('approved');
      expect((await seller.post(`/api/products/reviews/${low.body.id}/reject`)).body.status).toBe('rejected');
      await seller.post(`/api/products/reviews/${commented.body.id}/approve`);

      details = (await stack.client().get(`/api/public/products/${visible.id}/details`)).body;
      expect(details.averageRating).toBe(5);
      expect(details.totalRatings).toBe(1);
      expect(details.ratings).toEqual([{ id: rated.body.id, productId: visible.id, rating: 5, comment: 'Cremoso', customerName: 'Ana', createdAt: expect.any(String) }]);
      expect(details.comments).toEqual([{ id: commented.body.id, productId: visible.id, comment: '¿Tienen más?', customerName: 'Carla', parentCommentId: null, createdAt: expect.any(String) }]);
      expect(JSON.stringify(details)).not.toContain('beto@example.com');

      // The owner may change their mind: rejecting the approved rating takes it out of the average.
      await seller.post(`/api/products/reviews/${rated.body.id}/reject`);
      details = (await stack.client().get(`/api/public/products/${visible.id}/details`)).body;
      expect(details).toMatchObject({ averageRating: 0, totalRatings: 0, ratings: [] });
      expect((await seller.get('/api/products/reviews?status=rejected')).body).toHaveLength(2);
      expect((await seller.get('/api/products/reviews/pending')).body).toEqual([]);
    });

    it('is rate limited per address: 429 after the limit', async () => {
      const one = shopper();
      for (let i = 0; i < 3; i++) expect((await one.post(`/api/public/products/${visible.id}/comments`, { comment: `Hola ${i}`, customerName: 'Spam' })).status).toBe(201);
      const blocked = await one.post(`/api/public/products/${visible.id}/ratings`, { rating: 5, customerName: 'Spam' });
      expect(blocked.status).toBe(429);
      expect(blocked.body.message).toBe(CatalogMessages.tooManyReviews);
      expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await shopper().post(`/api/public/products/${visible.id}/comments`, { comment: 'Otra persona', customerName: 'Dora' })).status).toBe(201);
    });
  });
});

it('inventory refuses its internal command without a signature', async () => {
  const res = await fetch(`${stack.services.inventory!.url}/internal/stock-items/00000000-0000-4000-8000-000000000000/set`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ adjustmentId: '00000000-0000-4000-8000-000000000001', newStock: 1, adjustmentType: 'correction', reason: 'x' }),
  });
  expect(res.status).toBe(401);
  expect(InventoryMessages.stockNegative).toBe('El stock no puede ser negativo');
});

describe('images no product uses', () => {
  const fileOf = (path: string) => path.split('/').pop()!;
  /** Makes uploads look `hours` old, as if the sweep ran that much later. */
  const age = (fileNames: string[], hours: number) =>
    stack.pool.query(
      `UPDATE catalog.uploads SET created_at = created_at - make_interval(hours => $2), expires_at = expires_at - make_interval(hours => $2),
         received_at = received_at - make_interval(hours => $2) WHERE file_name = ANY($1)`,
      [fileNames, hours],
    );
  const onDisk = (key: string) => import('node:fs').then((fs) => fs.existsSync(`${stack.dataDir}/uploads/${key}`));

  it('are removed a day after their upload, with their variants; images in use, and recent ones, stay', async () => {
    const kept = await uploadImage(owner);
    const dropped = await uploadImage(owner);
    const neverSaved = await uploadImage(owner);
    const recent = await uploadImage(owner);
    const neverSent = (await owner.post('/api/upload', { filename: 'nunca.png', contentType: 'image/png' })).body.fileName as string;
    // A second product uses one of the images by its other path (/objects/): it is in use all the same.
    const shared = await uploadImage(owner);
    const created = await owner.post('/api/products', productBody({ name: 'Con fotos', sku: 'FOTO-1', images: [kept, dropped] }));
    expect(created.status).toBe(201);
    expect((await owner.put(`/api/products/${created.body.id}`, { images: [kept] })).status).toBe(200);
    // Another store may not take it (images hold only the store's own uploads).
    expect((await other.post('/api/products', productBody({ name: 'Foto ajena', sku: 'FOTO-2', images: [`/objects/${fileOf(shared)}`] }))).status).toBe(400);
    expect((await owner.post('/api/products', productBody({ name: 'Otra foto', sku: 'FOTO-2', images: [`/objects/${fileOf(shared)}`] }))).status).toBe(201);
    // A variant made for the shop goes with its original.
    expect((await fetch(`${stack.url}${dropped}?w=400`)).status).toBe(200);
    expect(await onDisk(`variants/400/${fileOf(dropped)}.webp`)).toBe(true);

    await age([kept, dropped, neverSaved, shared].map(fileOf).concat(neverSent), 25);
    const sweeper = stack.services.catalog!.app.get(UploadSweeper);
    const result = await sweeper.sweep();
    expect(result.ran).toBe(true);
    expect(result.removed.sort()).toEqual([fileOf(dropped), fileOf(neverSaved), neverSent].sort());

    for (const path of [dropped, neverSaved]) {
      expect((await fetch(`${stack.url}${path}`)).status).toBe(404);
      expect(await onDisk(`products/${fileOf(path)}`)).toBe(false);
    }
    expect(await onDisk(`variants/400/${fileOf(dropped)}.webp`)).toBe(false);
    for (const path of [kept, recent, shared]) {
      expect((await fetch(`${stack.url}${path}`)).status).toBe(200);
      expect(await onDisk(`products/${fileOf(path)}`)).toBe(true);
    }
    const rows = await stack.pool.query('SELECT file_name FROM catalog.uploads WHERE file_name = ANY($1)', [[dropped, neverSaved, kept, recent, shared].map(fileOf).concat(neverSent)]);
    expect(rows.rows.map((r) => r.file_name).sort()).toEqual([kept, recent, shared].map(fileOf).sort());

    // The product page still shows its picture, and a second sweep finds nothing more.
    const product = await owner.get(`/api/products/${created.body.id}`);
    expect(product.body.images).toEqual([kept]);
    expect((await sweeper.sweep()).removed).toEqual([]);
  });
});

describe('the store totals identity answers (GET /api/store, /api/public/store)', () => {
  it('count the store\u2019s own products from catalog\u2019s events; the shop counts only active ones', async () => {
    const seller = stack.client();
    const own = await registerAndLogin(seller);
    const store = async () => (await seller.get('/api/store')).body.totalProducts;
    const shopTotal = async () => (await stack.client().get(`/api/public/store/${own.subdomain}`)).body.totalProducts;
    expect(await store()).toBe(0);

    const ids: string[] = [];
    for (const [i, isActive] of [true, true, false].entries()) {
      const res = await seller.post('/api/products', productBody({ name: `Producto ${i}`, sku: `TOT-${i}`, isActive }));
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    // Another store's products never count here.
    await other.post('/api/products', productBody({ name: 'Ajeno', sku: 'AJ-1' }));
    expect(await eventually(store, (n) => n === 3)).toBe(3);
    expect(await eventually(shopTotal, (n) => n === 2)).toBe(2);

    expect((await seller.post(`/api/products/${ids[0]}/deactivate`, {})).status).toBeLessThan(300);
    expect(await eventually(shopTotal, (n) => n === 1)).toBe(1);
    expect((await seller.delete(`/api/products/${ids[1]}`)).status).toBeLessThan(300);
    expect(await eventually(store, (n) => n === 2)).toBe(2);
    expect(await eventually(shopTotal, (n) => n === 0)).toBe(0);
  });
});
