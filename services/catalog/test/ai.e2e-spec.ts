/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { AiMessages, CustomerResponseResponse, EnhanceSearchResponse, SOCIAL_CAPTION_MAX_CHARS } from '@tiendita/contracts';
import { registerAndLogin, type Stack, type StackClient, startStack } from '../../../gateway/test/support/stack';
import { seedCatalogue, updateStore, words } from './ai-support';
import { eventually, waitForShop } from './support';

/** The AI helpers with no model configured (no OPENAI_API_KEY): every answer comes from the store's own data. */
let stack: Stack;
let owner: StackClient;
let other: StackClient;
let shop: { storeId: string; subdomain: string };
let otherShop: { storeId: string; subdomain: string };
let ids: Map<string, string>;
let ip = 1;
/** Each shopper has its own address (the search is rate limited per address). */
const shopper = () => stack.client({ forwardedFor: `198.51.100.${ip++}` });

beforeAll(async () => {
  stack = await startStack({
    services: ['identity', 'inventory', 'catalog'],
    gatewayEnv: { TRUST_PROXY: '1' },
    serviceEnv: { catalog: { OPENAI_API_KEY: '', AI_SEARCH_RATE_LIMIT: '3', PUBLIC_URL: 'https://tiendita.example' } },
  });
  owner = stack.client();
  other = stack.client();
  shop = await registerAndLogin(owner, { businessType: 'hardware', storeName: 'Ferretería El Clavo' });
  otherShop = await registerAndLogin(other);
  await waitForShop(stack.client(), shop.subdomain);
  await waitForShop(stack.client(), otherShop.subdomain);
  ids = await seedCatalogue(owner, 30);
  await other.post('/api/products', { name: 'Martillo de otra tienda', price: 10, stock: 1, images: [] });
}, 120_000);

afterAll(() => stack?.stop());

const search = (query: unknown, store = shop.subdomain) => shopper().post(`/api/ai/enhance-search/${store}`, { query });
const spanish = (text: string) => /\b(de|el|la|tu|para|en|por|con|te)\b/i.test(text);

describe('POST /api/ai/generate-description', () => {
  it('answers a Spanish description with the product, within the store\u2019s length (normal ≤ 100 words by default)', async () => {
    const r = await owner.post('/api/ai/generate-description', { productName: 'Martillo de uña', category: 'Herramientas', price: 65 });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['description']);
    expect(r.body.description).toContain('Martillo de uña');
    expect(r.body.description).toMatch(/Q\s?65\.00/);
    expect(spanish(r.body.description)).toBe(true);
    expect(words(r.body.description)).toBeLessThanOrEqual(100);
    expect(words(r.body.description)).toBeGreaterThan(50);
  });

  it.each([
    ['short', 50],
    ['long', 200],
  ] as const)('follows StoreUpdated aiDescriptionLength=%s (≤ %i words)', async (length, max) => {
    await updateStore(stack, shop.storeId, { aiDescriptionLength: length });
    const r = await eventually(
      () => owner.post('/api/ai/generate-description', { productName: 'Taladro percutor', category: 'Herramientas eléctricas', price: '450' }),
      (res) => (length === 'short' ? words(res.body.description) <= 50 : words(res.body.description) > 100),
    );
    expect(r.status).toBe(200);
    expect(words(r.body.description)).toBeLessThanOrEqual(max);
    if (length === 'long') expect(words(r.body.description)).toBeGreaterThan(100);
    await updateStore(stack, shop.storeId, { aiDescriptionLength: 'normal' });
  });

  it('needs the product name first: 400 Ingresa el nombre del producto primero.', async () => {
    for (const body of [{}, { productName: '   ', price: 10 }]) {
      const r = await owner.post('/api/ai/generate-description', body);
      expect(r.status).toBe(400);
      expect(r.body.message).toBe('Ingresa el nombre del producto primero.');
    }
  });

  it('needs a session', async () => {
    expect((await stack.client().post('/api/ai/generate-description', { productName: 'X' })).status).toBe(401);
  });
});

describe('POST /api/ai/customer-response', () => {
  it.each([
    ['El taladro llegó dañado y no funciona, quiero mi reembolso', 'complaint', 'professional'],
    ['¿Cuánto cuesta y si lo tienen disponible?', 'inquiry', 'helpful'],
    ['Quiero pedir dos unidades con envío a mi casa', 'order', 'friendly'],
    ['Hola, buenas tardes', 'general', 'friendly'],
  ])('"%s" → %s, %s, naming the customer and product', async (customerMessage, category, tone) => {
    const r = await owner.post('/api/ai/customer-response', { customerMessage, customerName: 'Carlos', productName: 'Taladro percutor' });
    expect(r.status).toBe(200);
    expect(CustomerResponseResponse.parse(r.body)).toEqual(r.body);
    expect(r.body).toMatchObject({ category, tone });
    expect(r.body.suggestedResponse).toContain('Carlos');
    expect(r.body.suggestedResponse).toContain('Taladro percutor');
    expect(spanish(r.body.suggestedResponse)).toBe(true);
  });

  it('name and product are optional', async () => {
    const r = await owner.post('/api/ai/customer-response', { customerMessage: '¿Tienen cemento?' });
    expect(r.status).toBe(200);
    expect(r.body.category).toBe('inquiry');
  });

  it('an empty message: 400 Por favor ingresa el mensaje del cliente', async () => {
    const r = await owner.post('/api/ai/customer-response', { customerMessage: ' ', customerName: 'Ana' });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Por favor ingresa el mensaje del cliente');
  });
});

describe('POST /api/ai/social-caption', () => {
  it.each(['whatsapp', 'facebook', 'twitter', 'instagram', 'telegram'] as const)('a store caption for %s with the shop link, within the platform limit', async (platform) => {
    const r = await owner.post('/api/ai/social-caption', { type: 'store', platform, data: { name: 'Ferretería El Clavo' } });
    expect(r.status).toBe(200);
    expect(r.body.caption).toContain(`https://tiendita.example/${shop.subdomain}`);
    expect(r.body.caption).toContain('Ferretería El Clavo');
    expect(r.body.caption.length).toBeLessThanOrEqual(SOCIAL_CAPTION_MAX_CHARS[platform]);
    if (platform === 'instagram') expect(r.body.caption).toMatch(/#\S+/);
    if (platform === 'whatsapp') expect(r.body.caption).not.toContain('#');
  });

  it('a product caption links to the product page and shows its final price from the catalogue', async () => {
    const id = ids.get('Taladro percutor 600 W')!;
    const r = await owner.post('/api/ai/social-caption', { type: 'product', platform: 'facebook', data: { id, name: 'nombre que manda el cliente', price: 1 } });
    expect(r.status).toBe(200);
    expect(r.body.caption).toContain(`https://tiendita.example/${shop.subdomain}/product/${id}`);
    expect(r.body.caption).toContain('Taladro percutor 600 W');
    expect(r.body.caption).toMatch(/Q\s?450\.00/);
  });

  it('another store\u2019s product answers 404', async () => {
    const r = await other.post('/api/ai/social-caption', { type: 'product', platform: 'twitter', data: { id: ids.get('Taladro percutor 600 W') } });
    expect(r.status).toBe(404);
  });

  it('an unknown platform answers 400', async () => {
    expect((await owner.post('/api/ai/social-caption', { type: 'store', platform: 'myspace', data: {} })).status).toBe(400);
  });
});

describe('POST /api/ai/enhance-search/{store} (public)', () => {
  it.each([
    ['martillo', 'Martíllo de uña 16 oz'],
    ['tornilo', 'Tornillo para madera 1" (100 u)'],
    ['martillos', 'Martillo de goma'],
    ['esmeriladora', 'Pulidora angular 4 1/2"'],
  ])('"%s" suggests %s among the first 3, anonymously', async (query, expected) => {
    const r = await search(query);
    expect(r.status).toBe(200);
    expect(EnhanceSearchResponse.parse(r.body)).toEqual(r.body);
    expect(r.body.suggestedProducts.slice(0, 3).map((p: any) => p.name)).toContain(expected);
  });

  it('reads a price phrase as a price_range over final prices', async () => {
    const r = await search('entre Q20 y Q40');
    expect(r.body.intent).toBe('price_range');
    expect(r.body.suggestedProducts.length).toBeGreaterThan(0);
    for (const p of r.body.suggestedProducts) expect(p.finalPrice >= 20 && p.finalPrice <= 40).toBe(true);
  });

  it('a category name: intent category', async () => {
    const r = await search('tornilleria');
    expect(r.body.intent).toBe('category');
    expect(r.body.suggestedProducts.every((p: any) => p.categoryName === 'Tornillería')).toBe(true);
  });

  it('only active products of that store', async () => {
    expect((await search('martillo')).body.suggestedProducts.map((p: any) => p.name)).not.toContain('Martillo de otra tienda');
    const id = ids.get('Martillo de goma')!;
    await owner.post(`/api/products/${id}/deactivate`);
    const r = await eventually(() => search('martillo de goma'), (res) => !res.body.suggestedProducts.some((p: any) => p.id === id));
    expect(r.body.suggestedProducts.some((p: any) => p.id === id)).toBe(false);
  });

  it('keeps up with the catalogue: a new product, a rename, a new price and a deletion show in the next searches', async () => {
    const names = (r: any) => r.body.suggestedProducts.map((p: any) => p.name);
    // The store's index is loaded by now (earlier searches); changes reach it product by product.
    const created = await owner.post('/api/products', { name: 'Serrucho japonés de tirón', description: 'Corte fino para carpintería.', price: 140, stock: 3, images: [] });
    expect(created.status).toBe(201);
    const id = created.body.id;
    let r = await eventually(() => search('serrucho'), (res) => names(res).includes('Serrucho japonés de tirón'));
    expect(names(r)[0]).toBe('Serrucho japonés de tirón');

    expect((await owner.put(`/api/products/${id}`, { name: 'Serrote de carpintero' })).status).toBe(200);
    r = await eventually(() => search('serrote'), (res) => names(res).includes('Serrote de carpintero'));
    expect(names(r)).toContain('Serrote de carpintero');
    expect(names(await search('serrucho'))).not.toContain('Serrucho japonés de tirón');

    expect((await owner.put(`/api/products/${id}`, { price: 12 })).status).toBe(200);
    r = await eventually(() => search('serrote menos de 15'), (res) => names(res).includes('Serrote de carpintero'));
    expect(r.body.suggestedProducts.find((p: any) => p.id === id).finalPrice).toBe(12);

    expect((await owner.delete(`/api/products/${id}`)).status).toBeLessThan(300);
    r = await eventually(() => search('serrote'), (res) => !res.body.suggestedProducts.some((p: any) => p.id === id));
    expect(r.body.suggestedProducts.some((p: any) => p.id === id)).toBe(false);
  });

  it('a query under 3 characters answers 400; an unknown store 404', async () => {
    const r = await search('ma');
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(AiMessages.searchTooShort);
    expect((await search('martillo', 'no-existe-esta-tienda')).status).toBe(404);
  });

  it('is rate limited per address: 429 past the limit', async () => {
    const client = stack.client({ forwardedFor: '192.0.2.77' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await client.post(`/api/ai/enhance-search/${shop.subdomain}`, { query: 'clavos' })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
