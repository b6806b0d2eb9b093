import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { uploadImage, waitForShop } from './support';

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
