import { type LinkPreview, readableColor } from '@tiendita/contracts';
import { signedRequest } from '@tiendita/service-kit/testing';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { eventually, uploadImage, waitForShop } from './support';

/** A shared shop or product link shows a preview: the gateway writes Open Graph tags into index.html. */
let stack: Stack;
let owner: StackClient;
let shop: { subdomain: string; storeId: string };
let webDir: string;

beforeAll(async () => {
  webDir = mkdtempSync(join(tmpdir(), 'tiendita-og-'));
  writeFileSync(
    join(webDir, 'index.html'),
    '<!doctype html><html lang="es-GT"><head><meta name="description" content="Tiendita genérica" /><title>Tiendita</title></head><body><div id="root"></div></body></html>',
  );
  // A build manifest as Vite writes it: the entry, the shop's lazy chunk and what each imports.
  mkdirSync(join(webDir, '.vite'));
  writeFileSync(
    join(webDir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/index-E1.js', isEntry: true, imports: ['_react-R1.js'], css: ['assets/index-C1.css'] },
      '_react-R1.js': { file: 'assets/react-R1.js' },
      'src/shop/shop-app.tsx': { file: 'assets/shop-app-S1.js', isDynamicEntry: true, imports: ['_react-R1.js', 'index.html', '_dialog-D1.js'], css: ['assets/shop-app-S1.css'] },
      '_dialog-D1.js': { file: 'assets/dialog-D1.js', css: ['assets/dialog-D1.css'] },
      'src/features/shell/owner-app.tsx': { file: 'assets/owner-app-O1.js', isDynamicEntry: true },
    }),
  );
  stack = await startStack({ services: ['identity', 'inventory', 'catalog'], gatewayEnv: { WEB_DIST_DIR: webDir, PUBLIC_URL: 'https://tiendita.example' } });
  owner = stack.client();
  shop = await registerAndLogin(owner, { storeName: 'Abarrotería La Esquina', storeDescription: 'Lo de siempre, cerca de casa' });
  await waitForShop(stack.client(), shop.subdomain);
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(webDir, { recursive: true, force: true });
});

const page = async (path: string) => {
  const res = await fetch(stack.url + path);
  expect(res.status).toBe(200);
  return res.text();
};

it('a product link carries title, description, absolute image, type and price', async () => {
  const image = await uploadImage(owner);
  const product = (await owner.post('/api/products', { name: 'Queso fresco 1 lb', description: 'Artesanal', price: 32, discountPercentage: 20, stock: 8, images: [image] })).body;
  const html = await page(`/${shop.subdomain}/product/${product.id}`);
  expect(html).toContain('<title>Queso fresco 1 lb · Abarrotería La Esquina</title>');
  expect(html).toContain('<meta property="og:title" content="Queso fresco 1 lb · Abarrotería La Esquina" />');
  expect(html).toContain('<meta property="og:type" content="product" />');
  expect(html).toContain(`<meta property="og:image" content="https://tiendita.example${image}" />`);
  expect(html).toContain('<meta property="product:price:amount" content="25.60" />');
  expect(html).toMatch(/og:description" content="Q\s?25\.60 \(antes Q\s?32\.00\) · Artesanal"/);
  expect(html).not.toContain('Tiendita genérica');
  // The image itself is public.
  expect((await fetch(stack.url + image)).status).toBe(200);
});

it('a shop link (/tienda/{name}, /{subdomain}, ?store=) carries the store name and description', async () => {
  for (const path of [`/tienda/${shop.subdomain}`, `/${shop.subdomain}`, `/?store=${shop.subdomain}`]) {
    const html = await page(path);
    expect(html).toContain('<meta property="og:title" content="Abarrotería La Esquina" />');
    expect(html).toContain('<meta property="og:description" content="Lo de siempre, cerca de casa" />');
    expect(html).toContain('<meta property="og:type" content="website" />');
  }
});

it('an inactive product, an unknown store and owner pages get the plain page', async () => {
  const hidden = (await owner.post('/api/products', { name: 'Oculto', price: 1, isActive: false })).body;
  expect(await page(`/${shop.subdomain}/product/${hidden.id}`)).not.toContain('og:title');
  expect(await page('/tienda/no-existe-esta-tienda')).toContain('Tiendita genérica');
  expect(await page('/products')).not.toContain('og:title');
});

describe('a shop page fetches its first screen along with the app', () => {
  const shopChunkTags = [
    '<link rel="stylesheet" crossorigin href="/assets/shop-app-S1.css" />',
    '<link rel="stylesheet" crossorigin href="/assets/dialog-D1.css" />',
    '<link rel="modulepreload" crossorigin href="/assets/shop-app-S1.js" />',
    '<link rel="modulepreload" crossorigin href="/assets/dialog-D1.js" />',
  ];

  it('a shop: the shop chunk (not what the entry loads), its stylesheets, and the pictures of its first two cards as the shop shows them', async () => {
    const older = await uploadImage(owner);
    const newer = await uploadImage(owner);
    await owner.post('/api/products', { name: 'Pan dulce', price: 2, stock: 5, images: [older] });
    await owner.post('/api/products', { name: 'Café molido', price: 30, stock: 5, images: [newer] });
    await owner.post('/api/products', { name: 'Sal 1 lb', price: 3, stock: 5 });
    // The first cards of the public list, in its order: the newest first (the salt has no picture).
    const list = (await stack.client().get(`/api/public/products/${shop.subdomain}?page=1&limit=24`)).body as { products: { name: string; imageUrl: string | null }[] };
    expect(list.products.slice(0, 3).map((p) => [p.name, p.imageUrl])).toEqual([
      ['Sal 1 lb', null],
      ['Café molido', newer],
      ['Pan dulce', older],
    ]);
    // The preview is cached for a minute: a fresh store name would be cached empty, so ask by id.
    const html = await page(`/?store=${shop.storeId}`);
    const head = html.slice(0, html.indexOf('</head>'));
    // A link by the store's id has its preview too (its query once failed on lower(uuid)).
    expect(head).toContain('<meta property="og:title" content="Abarrotería La Esquina" />');
    for (const tag of shopChunkTags) expect(head).toContain(tag);
    expect(head).not.toContain('react-R1.js');
    expect(head).not.toContain('index-');
    expect(head).not.toContain('owner-app');
    const preloads = [...head.matchAll(/<link rel="preload" as="image" href="([^"]+)" imagesrcset="([^"]+)" imagesizes="([^"]+)" fetchpriority="high" \/>/g)];
    // Only the first two cards are asked for, and the salt has no picture: the coffee's.
    expect(preloads.map((m) => m[1])).toEqual([`${newer}?w=320`]);
    expect(preloads[0][2]).toBe(`${newer}?w=160 160w, ${newer}?w=320 320w, ${newer}?w=400 400w, ${newer}?w=640 640w`);
    expect(preloads[0][3]).toBe('(min-width: 960px) 270px, (min-width: 640px) 31vw, 46vw');
    // The variant asked for is one the catalog serves.
    const variant = await fetch(stack.url + `${newer}?w=320`);
    expect(variant.status).toBe(200);
    expect(variant.headers.get('content-type')).toBe('image/webp');
  });

  it("a product page: the shop chunk and the product's main picture at the gallery's size; owner pages get none of it", async () => {
    const image = await uploadImage(owner);
    const product = (await owner.post('/api/products', { name: 'Miel de abeja', price: 45, stock: 3, images: [image] })).body;
    const html = await page(`/${shop.subdomain}/product/${product.id}`);
    for (const tag of shopChunkTags) expect(html).toContain(tag);
    expect(html).toContain(
      `<link rel="preload" as="image" href="${image}?w=640" imagesrcset="${image}?w=320 320w, ${image}?w=400 400w, ${image}?w=640 640w, ${image}?w=800 800w, ${image}?w=1200 1200w" imagesizes="(min-width: 768px) 540px, 100vw" fetchpriority="high" />`,
    );
    for (const path of ['/products', '/dashboard', '/tienda/no-existe-esta-tienda']) {
      const plain = await page(path);
      expect(plain).not.toContain('modulepreload');
      expect(plain).not.toContain('rel="preload"');
    }
  });
});

describe("the shop's first screen: what catalog tells the gateway, and the page it writes", () => {
  let other: StackClient;
  let store: { subdomain: string; storeId: string };
  const internal = async (path: string) => {
    const res = await stack.services.catalog!.app.inject(signedRequest({ method: 'GET', url: path }));
    expect(res.statusCode).toBe(200);
    return res.json() as LinkPreview;
  };
  const pick = <T extends object>(from: T, keys: (keyof T)[]) => Object.fromEntries(keys.map((k) => [k, from[k]]));

  beforeAll(async () => {
    other = stack.client();
    store = await registerAndLogin(other, { storeName: 'Pulpería <Doña Tere>', storeDescription: 'Todo "fresco" & barato', storeAddress: '3a calle 4-10, zona 2' });
    expect((await other.put(`/api/store/${store.storeId}`, { primaryColor: '#16a34a', accentColor: '#f59e0b', businessHours: 'Lunes a viernes' })).status).toBe(200);
    const category = (await other.post('/api/categories', { name: 'Lácteos' })).body;
    const image = await uploadImage(other);
    await other.post('/api/products', { name: 'Leche 1 L', price: 12, stock: 30, images: [image], categoryId: category.id });
    await other.post('/api/products', { name: 'Crema <espesa>', price: 20, discountPercentage: 25, stock: 1, images: [image, image] });
    await other.post('/api/products', { name: 'Queso seco', price: 35, stock: 0 });
    await other.post('/api/products', { name: 'Mantequilla', price: 15, stock: 8, images: [image] });
    await other.post('/api/products', { name: 'Yogur', price: 9, stock: 12, images: [image] });
  });

  it("a shop's preview carries its header's fields and its first four cards, as the shop's first page shows them", async () => {
    const publicStore = (await stack.client().get(`/api/public/store/${store.subdomain}`)).body;
    const storeFields = ['name', 'subdomain', 'description', 'logoUrl', 'primaryColor', 'secondaryColor', 'accentColor', 'address', 'phone', 'businessHours', 'whatsappNumber'] as const;
    // Catalog's copy of the store follows identity's events.
    const preview = await eventually(
      () => internal(`/internal/previews/stores/${store.subdomain}`),
      (p) => p.firstScreen?.store.primaryColor === '#16a34a' && p.firstScreen.page === 'store' && p.firstScreen.cards.length === 4,
    );
    expect(publicStore.primaryColor).toBe('#16a34a');
    expect(preview.firstScreen?.store).toEqual(pick(publicStore, [...storeFields]));
    const list = (await stack.client().get(`/api/public/products/${store.subdomain}?page=1&limit=24`)).body;
    const cardFields = ['id', 'name', 'price', 'finalPrice', 'discountPercentage', 'stock', 'imageUrl'] as const;
    expect(preview.firstScreen).toEqual({
      page: 'store',
      store: preview.firstScreen?.store,
      total: 5,
      hasCategories: true,
      cards: list.products.slice(0, 4).map((p: Record<string, unknown>) => pick(p, [...cardFields])),
    });
    expect(list.total).toBe(5);
    expect((preview.firstScreen as { cards: { name: string }[] }).cards.map((c) => c.name)).toEqual(['Yogur', 'Mantequilla', 'Queso seco', 'Crema <espesa>']);
    // The pictures asked for with the page are still the first two cards'.
    expect(preview.cardImages).toEqual([list.products[0].imageUrl, list.products[1].imageUrl]);
  });

  it("a product's preview carries what its page shows above the reviews, as its details read", async () => {
    const list = (await stack.client().get(`/api/public/products/${store.subdomain}?page=1&limit=24`)).body;
    const cream = list.products.find((p: { name: string }) => p.name === 'Crema <espesa>');
    const details = (await stack.client().get(`/api/public/products/${cream.id}/details`)).body;
    const preview = await internal(`/internal/previews/products/${cream.id}`);
    const fields = ['id', 'name', 'description', 'sku', 'categoryName', 'price', 'finalPrice', 'discountPercentage', 'stock', 'images', 'averageRating', 'totalRatings'] as const;
    expect(preview.firstScreen).toEqual({ page: 'product', store: preview.firstScreen?.store, product: pick(details, [...fields]) });
    expect(preview.firstScreen?.store.name).toBe('Pulpería <Doña Tere>');
    expect(preview).toMatchObject({ title: 'Crema <espesa>', type: 'product', price: 20, finalPrice: 15, discountPercentage: 25, image: details.images[0] });
  });

  it('the shop page carries that first screen before the root, escaped, with the rule that hides the root; other pages do not', async () => {
    const html = await page(`/${store.subdomain}`);
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toContain('<style>#shop-first-screen ~ #root{display:none}</style>');
    const body = html.slice(html.indexOf('<body>'));
    expect(body.indexOf('<div id="shop-first-screen">')).toBeGreaterThan(-1);
    expect(body.indexOf('<div id="shop-first-screen">')).toBeLessThan(body.indexOf('<div id="root">'));
    expect(body).toContain('<h1 class="shop-header__name">Pulpería &lt;Doña Tere&gt;</h1>');
    expect(body).toContain('<span class="shop-header__description">Todo &quot;fresco&quot; &amp; barato</span>');
    // The store's colours, made readable as the shop makes them.
    expect(body).toContain(`<div class="shop" style="--shop-primary:${readableColor('#16a34a')};--shop-secondary:${readableColor('#0284c7')};--shop-accent:${readableColor('#f59e0b')}">`);
    expect([...body.matchAll(/<h3 class="shop-card__name">([^<]*)<\/h3>/g)].map((m) => m[1])).toEqual(['Yogur', 'Mantequilla', 'Queso seco', 'Crema &lt;espesa&gt;']);
    expect(body).not.toContain('<espesa>');
    const list = (await stack.client().get(`/api/public/products/${store.subdomain}?page=1&limit=24`)).body;
    const cream = list.products.find((p: { name: string }) => p.name === 'Crema <espesa>');
    const product = await page(`/${store.subdomain}/product/${cream.id}`);
    expect(product).toContain('<div id="shop-first-screen">');
    expect(product).toContain('<h1 class="shop-detail__name">Crema &lt;espesa&gt;</h1>');
    // Under another store's name the shop answers 'Producto no encontrado': no first screen there.
    expect(await page(`/${shop.subdomain}/product/${cream.id}`)).not.toContain('shop-first-screen');
    for (const path of ['/products', '/dashboard', '/tienda/no-existe-esta-tienda', `/${store.subdomain}/product/00000000-0000-4000-8000-000000000000`]) {
      const plain = await page(path);
      expect(plain).not.toContain('shop-first-screen');
    }
  });
});
