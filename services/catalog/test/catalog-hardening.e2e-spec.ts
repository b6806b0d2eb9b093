import { CatalogMessages, MAX_IMAGE_PIXELS, PriceHistoryEntry, ProductView, UploadResponse } from '@tiendita/contracts';
import sharp from 'sharp';
import { deflateSync, crc32 } from 'node:zlib';
import { z } from 'zod';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { eventually, makeImage, upload, uploadImage, waitForShop } from './support';

/**
 * The catalog's defences (issue 10), through the gateway on real HTTP and PostgreSQL: upload
 * quotas and limits, pixel floods, EXIF, strict prices, image paths, replies, price-history names
 * and the product edit with inventory down. Inventory is NOT started: catalog's INVENTORY_URL
 * points at a port nothing listens on, as when inventory is down.
 */
let stack: Stack;

const LIMITS = { UPLOAD_RATE_LIMIT: '5', UPLOAD_RATE_WINDOW_SECONDS: '600', UPLOAD_MAX_PER_HOUR: '8', UPLOAD_MAX_BYTES_PER_DAY: '400000' };

beforeAll(async () => {
  stack = await startStack({ services: ['identity', 'catalog'], serviceEnv: { catalog: { ...LIMITS, INVENTORY_URL: 'http://127.0.0.1:9' } } });
}, 60_000);

afterAll(() => stack?.stop());

/** A signed-in owner of a new store (quotas count per store). */
async function newOwner(overrides: { firstName?: string; lastName?: string } = {}) {
  const client = stack.client();
  const shop = await registerAndLogin(client, overrides);
  return { client, shop };
}

const productBody = (overrides: Record<string, unknown> = {}) => ({ name: 'Queso fresco', price: 25, stock: 4, categoryId: 'none', images: [], isActive: true, ...overrides });

/** A PNG chunk: length, type, data, CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid PNG of width × height black pixels, 1 bit per pixel: a few kilobytes on the wire that
 * decode into width × height pixels (the "pixel flood").
 */
function floodPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(1, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  const row = Math.ceil(width / 8) + 1; // filter byte + packed bits
  const raw = Buffer.alloc(row * height, 0);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function fetchBytes(path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${stack.url}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

describe('uploads', () => {
  it('refuses a pixel flood (a small PNG declaring more than 40 megapixels) from its header: 400 with the Spanish message', async () => {
    const { client } = await newOwner();
    const flood = floodPng(10_000, 8_000);
    expect(10_000 * 8_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
    expect(flood.length).toBeLessThan(200_000);
    const { ticket, put } = await upload(client, flood, 'image/png', 'bomba.png');
    expect(put.status).toBe(400);
    expect(put.body.message).toBe(CatalogMessages.imageTooManyPixels);
    expect((await fetchBytes(`/temp-uploads/products/${ticket.body.fileName}`)).status).toBe(404);
    // An image within the limit is still accepted.
    expect((await upload(client, await makeImage('png', 2000, 1500))).put.status).toBe(200);
  });

  it('strips EXIF (GPS included) from what is stored and served; the picture keeps its size', async () => {
    const { client } = await newOwner();
    const withGps = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } })
      .jpeg()
      .withExif({ IFD0: { Make: 'Telefono', Model: 'X' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '14/1 37/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '90/1 30/1 0/1' } })
      .toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    const { ticket, put } = await upload(client, withGps, 'image/jpeg', 'foto.jpg');
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ width: 64, height: 48, contentType: 'image/jpeg' });
    for (const path of [`/temp-uploads/products/${ticket.body.fileName}`, `/objects/${ticket.body.fileName}`]) {
      const served = await fetchBytes(path);
      expect(served.status).toBe(200);
      expect(served.type).toBe('image/jpeg');
      const meta = await sharp(served.bytes).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
      expect(meta.exif).toBeUndefined();
      expect(served.bytes.includes(Buffer.from('Exif\0\0', 'latin1'))).toBe(false);
      expect(served.bytes.includes(Buffer.from('Telefono'))).toBe(false);
    }
    // The stored file itself, not only the answer.
    const { readFile } = await import('node:fs/promises');
    const stored = await readFile(`${stack.dataDir}/uploads/products/${ticket.body.fileName}`);
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
  });

  it('serves originals as a stream from storage, byte for byte what was stored, with their length', async () => {
    const { client } = await newOwner();
    const { ticket } = await upload(client, await makeImage('webp', 300, 200), 'image/webp', 'a.webp');
    const served = await fetchBytes(`/objects/${ticket.body.fileName}`);
    const { readFile } = await import('node:fs/promises');
    const stored = await readFile(`${stack.dataDir}/uploads/products/${ticket.body.fileName}`);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(stored)).toBe(true);
    const { LocalDiskStorage } = await import('../src/uploads/storage/local-disk-storage');
    const opened = await new LocalDiskStorage(`${stack.dataDir}/uploads`).open(`products/${ticket.body.fileName}`);
    expect(opened).not.toBeNull();
    const { Readable } = await import('node:stream');
    expect(opened!.stream).toBeInstanceOf(Readable);
    expect(opened!.size).toBe(stored.length);
    const chunks: Buffer[] = [];
    for await (const part of opened!.stream) chunks.push(part as Buffer);
    expect(Buffer.concat(chunks).equals(stored)).toBe(true);
  });

  it('rate limits upload URLs per store: 429 in Spanish after the burst limit; another store is not affected', async () => {
    const { client } = await newOwner();
    for (let i = 0; i < 5; i++) {
      const res = await client.post('/api/upload', { filename: `f${i}.png`, contentType: 'image/png' });
      expect(res.status).toBe(200);
      UploadResponse.parse(res.body);
    }
    const blocked = await client.post('/api/upload', { filename: 'f6.png', contentType: 'image/png' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toBe(CatalogMessages.uploadRateLimited);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);
    const { client: someoneElse } = await newOwner();
    expect((await someoneElse.post('/api/upload', { filename: 'x.png', contentType: 'image/png' })).status).toBe(200);
  });

  it('keeps a quota of upload URLs per store and hour: 429 in Spanish', async () => {
    const { client, shop } = await newOwner();
    // Eight uploads asked for earlier this hour by this store.
    for (let i = 0; i < 8; i++) {
      await stack.pool.query(
        `INSERT INTO catalog.uploads (file_name, store_id, original_name, token_hash, expires_at, created_at)
         VALUES (gen_random_uuid()::text || '.png', $1, 'vieja.png', md5(random()::text) || md5(random()::text), now() + interval '1 hour', now() - interval '30 minutes')`,
        [shop.storeId],
      );
    }
    const res = await client.post('/api/upload', { filename: 'nueva.png', contentType: 'image/png' });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(CatalogMessages.uploadCountQuota(8));
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(60);
  });

  it('keeps a quota of bytes per store and day: the upload that would pass it is refused with 429 in Spanish', async () => {
    const { client } = await newOwner();
    // Noise does not compress: about 270 KB as PNG, twice over the 400 000-byte test quota.
    const noise = () => {
      const pixels = Buffer.alloc(300 * 300 * 3);
      for (let i = 0; i < pixels.length; i++) pixels[i] = Math.floor(Math.random() * 256);
      return sharp(pixels, { raw: { width: 300, height: 300, channels: 3 } }).png().toBuffer();
    };
    const first = await upload(client, await noise());
    expect(first.put.status).toBe(200);
    const second = await upload(client, await noise());
    expect(second.put.status).toBe(429);
    expect(second.put.body.message).toBe(CatalogMessages.uploadBytesQuota(400_000));
    expect((await fetchBytes(`/objects/${second.ticket.body.fileName}`)).status).toBe(404);
    // A small picture still fits in what is left.
    expect((await upload(client, await makeImage('png'))).put.status).toBe(200);
  });
});

describe('product fields', () => {
  let client: StackClient;
  let other: StackClient;
  beforeAll(async () => {
    ({ client } = await newOwner());
    ({ client: other } = await newOwner());
  });

  it.each([
    ['an empty text', ''],
    ['null', null],
    ['false', false],
    ['a word', 'gratis'],
  ])('a price given as %s is a validation error, never 0 (create and update)', async (_label, price) => {
    const created = await client.post('/api/products', productBody({ price }));
    expect(created.status).toBe(400);
    expect(created.body.message).toBe(CatalogMessages.priceRequired);
    const ok = ProductView.parse((await client.post('/api/products', productBody({ price: 30 }))).body);
    const updated = await client.put(`/api/products/${ok.id}`, { price });
    expect(updated.status).toBe(400);
    expect(updated.body.message).toBe(CatalogMessages.priceRequired);
    expect(ProductView.parse((await client.get(`/api/products/${ok.id}`)).body).price).toBe(30);
  });

  it('still reads a price sent as a numeric text', async () => {
    const res = await client.post('/api/products', productBody({ price: '12.50' }));
    expect(res.status).toBe(201);
    expect(ProductView.parse(res.body).price).toBe(12.5);
  });

  it("images hold only this store's uploads: outside URLs, made-up names and another store's uploads answer 400", async () => {
    const mine = await uploadImage(client);
    const theirs = await uploadImage(other);
    const fileName = mine.split('/').pop()!;
    const bad = [
      'https://evil.example/x.png',
      '/temp-uploads/products/../../etc/passwd',
      '/temp-uploads/products/00000000-0000-4000-8000-000000000000.png',
      `${mine}?w=400`,
      'javascript:alert(1)',
      theirs,
    ];
    for (const path of bad) {
      const res = await client.post('/api/products', productBody({ images: [mine, path] }));
      expect([path, res.status, res.body.message]).toEqual([path, 400, CatalogMessages.invalidImagePath]);
      expect(res.body.details?.fields?.images).toBe(CatalogMessages.invalidImagePath);
    }
    const created = await client.post('/api/products', productBody({ images: [mine, `/objects/${fileName}`] }));
    expect(created.status).toBe(201);
    const product = ProductView.parse(created.body);
    const put = await client.put(`/api/products/${product.id}`, { images: [...product.images, theirs] });
    expect(put.status).toBe(400);
    expect(put.body.message).toBe(CatalogMessages.invalidImagePath);
    // Keeping the product's own images, or adding a new upload of this store, is fine.
    const another = await uploadImage(client);
    const kept = await client.put(`/api/products/${product.id}`, { images: [another, ...product.images] });
    expect(kept.status).toBe(200);
    expect(ProductView.parse(kept.body).images).toEqual([another, mine, `/objects/${fileName}`]);
  });
});

describe('comments', () => {
  it("a reply's parentCommentId must be an approved comment of the same product", async () => {
    const { client: seller, shop } = await newOwner();
    await waitForShop(stack.client(), shop.subdomain);
    const a = ProductView.parse((await seller.post('/api/products', productBody({ name: 'A' }))).body);
    const b = ProductView.parse((await seller.post('/api/products', productBody({ name: 'B' }))).body);
    const shopper = stack.client();
    const comment = (productId: string, parentCommentId?: string) =>
      shopper.post(`/api/public/products/${productId}/comments`, { comment: 'Respuesta', customerName: 'Eva', ...(parentCommentId ? { parentCommentId } : {}) });
    const root = await comment(a.id);
    expect(root.status).toBe(201);
    const rating = await shopper.post(`/api/public/products/${a.id}/ratings`, { rating: 4, customerName: 'Eva' });

    const refused = async (productId: string, parent: string) => {
      const res = await comment(productId, parent);
      expect([parent, res.status, res.body.message]).toEqual([parent, 400, CatalogMessages.parentCommentInvalid]);
    };
    await refused(a.id, root.body.id); // pending, not approved yet
    await refused(a.id, '00000000-0000-4000-8000-000000000000'); // no such comment
    await seller.post(`/api/products/reviews/${root.body.id}/approve`);
    await seller.post(`/api/products/reviews/${rating.body.id}/approve`);
    await refused(b.id, root.body.id); // another product's comment
    await refused(a.id, rating.body.id); // a rating is not a comment
    const reply = await comment(a.id, root.body.id);
    expect(reply.status).toBe(201);
    await seller.post(`/api/products/reviews/${root.body.id}/reject`);
    await refused(a.id, root.body.id); // rejected afterwards
  });
});

describe('price history', () => {
  it("names the owner who made each change (changedByName), keeping changedBy; the same name on every entry", async () => {
    const { client, shop } = await newOwner({ firstName: 'Marta', lastName: 'Cifuentes' });
    const created = ProductView.parse((await client.post('/api/products', productBody({ price: 10 }))).body);
    expect((await client.put(`/api/products/${created.id}`, { price: 11, changeReason: 'Proveedor' })).status).toBe(200);
    const history = await eventually(
      async () => z.array(PriceHistoryEntry).parse((await client.get(`/api/products/${created.id}/price-history`)).body),
      (entries) => entries.every((e) => e.changedByName !== null),
    );
    expect(history.map((e) => [e.newPrice, e.changedBy, e.changedByName])).toEqual([
      [11, shop.userId, 'Marta Cifuentes'],
      [10, shop.userId, 'Marta Cifuentes'],
    ]);
  });
});

describe('product edit with inventory down', () => {
  it('changes nothing and says so: 503 in Spanish, price and history unchanged', async () => {
    const { client } = await newOwner();
    const created = ProductView.parse((await client.post('/api/products', productBody({ price: 40, stock: 6 }))).body);
    const res = await client.put(`/api/products/${created.id}`, { price: 45, name: 'Queso seco', stock: 2 });
    expect(res.status).toBe(503);
    expect(res.body.message).toBe(CatalogMessages.productEditNothingSaved);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|fetch failed|127\.0\.0\.1/);
    const after = ProductView.parse((await client.get(`/api/products/${created.id}`)).body);
    expect(after).toMatchObject({ price: 40, name: 'Queso fresco', stock: 6 });
    const history = z.array(PriceHistoryEntry).parse((await client.get(`/api/products/${created.id}/price-history`)).body);
    expect(history).toHaveLength(1);
    const events = await stack.pool.query(`SELECT type FROM catalog.events WHERE stream_id = $1`, [`product-${created.id}`]);
    expect(events.rows.map((r) => r.type)).toEqual(['ProductCreated']);
    // Without a stock in the form, inventory is not needed: the edit goes through.
    const priceOnly = await client.put(`/api/products/${created.id}`, { price: 45 });
    expect(priceOnly.status).toBe(200);
    expect(ProductView.parse(priceOnly.body).price).toBe(45);
  });
});
