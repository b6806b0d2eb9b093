import fc from 'fast-check';
import { AI_DESCRIPTION_MAX_WORDS, CustomerResponseResponse, GenerateDescriptionResponse, SOCIAL_CAPTION_MAX_CHARS, SOCIAL_PLATFORMS } from '@tiendita/contracts';
import {
  AiClient,
  captionFallback,
  classifyCustomerMessage,
  countWords,
  customerResponseFallback,
  descriptionFallback,
  extractPrice,
  generateDescription,
  salesInsightsFallback,
  type SalesFigures,
  SearchIndex,
  stem,
} from '../src';
import { CATALOGUE, QUERIES } from './search-catalogue';
import { OpenAiStandIn } from './stand-in';

/** Spanish text: has Spanish words and no English filler. */
const looksSpanish = (text: string) => /\b(de|el|la|tu|para|en|por|con)\b/i.test(text) && !/\b(the|and|your|with)\b/i.test(text);

describe('search quality on a fixed catalogue of 64 products', () => {
  const index = new SearchIndex(CATALOGUE.map((p, i) => ({ id: `p${i}`, name: p.name, description: p.description, categoryName: p.category, finalPriceCentavos: Math.round(p.price * 100), payload: p })));

  it('has at least 60 products and 30 queries', () => {
    expect(CATALOGUE.length).toBeGreaterThanOrEqual(60);
    expect(QUERIES.length).toBeGreaterThanOrEqual(30);
  });

  it.each(QUERIES.map((q) => [q.kind, q.query, q.expect] as const))('%s: "%s" finds the expected products in its first 3 results', (_kind, query, expected) => {
    const top = index.search(query).hits.slice(0, 3).map((h) => h.name);
    expect(top.length).toBeGreaterThan(0);
    // Every one of the first min(3, expected) results is an expected product.
    for (const name of top.slice(0, Math.min(3, expected.length))) expect(expected).toContain(name);
  });

  it('reads price phrases over final prices: entre Q20 y Q40, menos de 50, barato', () => {
    const range = index.search('entre Q20 y Q40', { limit: 100 });
    expect(range.intent).toBe('price_range');
    expect(range.hits.length).toBeGreaterThan(5);
    for (const h of range.hits) {
      expect(h.finalPriceCentavos).toBeGreaterThanOrEqual(2000);
      expect(h.finalPriceCentavos).toBeLessThanOrEqual(4000);
    }
    const under = index.search('menos de 50', { limit: 100 });
    for (const h of under.hits) expect(h.finalPriceCentavos).toBeLessThanOrEqual(5000);
    const cheap = index.search('barato', { limit: 100 });
    expect(cheap.hits[0].finalPriceCentavos).toBe(Math.min(...CATALOGUE.map((p) => p.price * 100)));
    expect(extractPrice('entre q20 y q40').price).toMatchObject({ min: 2000, max: 4000 });
    expect(extractPrice('algo de menos de 99.50').price).toMatchObject({ max: 9950 });
  });

  it('names the intent: category, specific product, feature, other', () => {
    expect(index.search('plomeria').intent).toBe('category');
    expect(index.search('taladro percutor').intent).toBe('specific_product');
    expect(index.search('esmeriladora').intent).toBe('feature');
    const none = index.search('xqzwv');
    expect(none.intent).toBe('other');
    expect(none.hits).toEqual([]);
  });

  it('gives corrected terms for a typo', () => {
    expect(index.search('tornilo').enhancedTerms).toContain('tornillo');
    // Two letters swapped before a final e, which the stem keeps on the typo but drops on the word.
    expect(index.search('acetie').enhancedTerms).toContain('aceite');
  });

  it('meets singular and plural', () => {
    expect(stem('martillos')).toBe(stem('martillo'));
    expect(stem('pinceles')).toBe(stem('pincel'));
    expect(stem('luces')).toBe(stem('luz'));
    expect(stem('cables')).toBe(stem('cable'));
  });
});

describe('search index kept current product by product', () => {
  const docOf = (i: number, variant = 0) => {
    const p = CATALOGUE[i];
    return { id: `p${i}`, name: variant ? `${p.name} edición ${variant}` : p.name, description: p.description, categoryName: variant === 2 ? 'Ofertas' : p.category, finalPriceCentavos: Math.round(p.price * 100) + variant * 100, payload: null };
  };
  const names = (index: SearchIndex<null>, query: string) => index.search(query, { limit: 100 }).hits.map((h) => h.id);

  it('after any run of additions, changes and removals, answers every query as an index built from the final products', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(CATALOGUE.length - 1), fc.constantFrom(-1, 0, 1, 2)), { minLength: 1, maxLength: 150 }), (ops) => {
        const live = new SearchIndex<null>();
        const final = new Map<number, number>();
        for (const [i, op] of ops) {
          if (op < 0) {
            live.remove(`p${i}`);
            final.delete(i);
          } else {
            live.upsert(docOf(i, op));
            final.set(i, op);
          }
        }
        const fresh = new SearchIndex<null>([...final].map(([i, v]) => docOf(i, v)));
        expect(live.size).toBe(fresh.size);
        for (const q of [...QUERIES.map((c) => c.query), 'ofertas', 'edicion 2', 'marti']) expect(names(live, q)).toEqual(names(fresh, q));
      }),
      { numRuns: 60 },
    );
  });

  it('forgets a removed product, its words and its category', () => {
    const index = new SearchIndex<null>([docOf(0), docOf(1)]);
    expect(index.search('plomeria').hits).toEqual([]);
    index.upsert({ ...docOf(0), categoryName: 'Plomería' });
    expect(index.search('plomeria').intent).toBe('category');
    index.remove('p0');
    expect(index.has('p0')).toBe(false);
    expect(index.search('plomeria').intent).toBe('other');
    expect(index.search('uña').hits).toEqual([]);
    expect(index.termCount).toBeGreaterThan(0);
  });

  it('matches words with digits only exactly: no typo or prefix matches among model numbers', () => {
    const index = new SearchIndex<null>(
      Array.from({ length: 500 }, (_, i) => ({ id: `m${i}`, name: `Foco modelo ${1000 + i}`, sku: `SKU-${1000 + i}`, finalPriceCentavos: 1000, payload: null })),
    );
    expect(index.search('foco 1234').hits[0].name).toBe('Foco modelo 1234');
    expect(index.search('sku-1234').hits[0].name).toBe('Foco modelo 1234');
    // 1235 is one edit from 1234, and 123 a prefix of it: neither counts.
    expect(index.search('modelo 1235 123').hits.map((h) => h.name).filter((n) => n.endsWith('1234'))).toEqual([]);
  });
});

describe('fallbacks without a model', () => {
  it.each(['short', 'normal', 'long'] as const)('a %s description stays within its word limit and names the product and price', (length) => {
    const text = descriptionFallback({ productName: 'Martillo de uña 16 oz', category: 'Herramientas', price: 65, businessType: 'hardware', storeName: 'Ferretería El Clavo', length });
    expect(countWords(text)).toBeLessThanOrEqual(AI_DESCRIPTION_MAX_WORDS[length]);
    expect(countWords(text)).toBeGreaterThan(length === 'short' ? 10 : length === 'normal' ? 35 : 80);
    expect(text).toContain('Martillo de uña 16 oz');
    expect(text).toMatch(/Q\s?65\.00/);
    expect(looksSpanish(text)).toBe(true);
  });

  it.each([
    ['El producto llegó roto y quiero una devolución', 'complaint', 'professional'],
    ['¿Cuánto cuesta el taladro? ¿Lo tienen disponible?', 'inquiry', 'helpful'],
    ['Quiero hacer un pedido de 3 bolsas de cemento con entrega a domicilio', 'order', 'friendly'],
    ['Buenas tardes, muchas gracias', 'general', 'friendly'],
  ] as const)('classifies "%s" as %s with a %s tone', (message, category, tone) => {
    expect(classifyCustomerMessage(message)).toBe(category);
    const reply = customerResponseFallback({ customerMessage: message, customerName: 'Ana', productName: 'Taladro percutor' });
    expect(CustomerResponseResponse.parse(reply)).toEqual(reply);
    expect(reply).toMatchObject({ category, tone });
    expect(reply.suggestedResponse).toContain('Ana');
    expect(reply.suggestedResponse).toContain('Taladro percutor');
  });

  it.each(SOCIAL_PLATFORMS)('a %s caption fits the platform and carries the link', (platform) => {
    const caption = captionFallback({ type: 'product', platform, storeName: 'Ferretería El Clavo', businessType: 'hardware', link: 'https://tiendita.gt/el-clavo/product/1', productName: 'Taladro percutor 600 W', description: 'Para concreto y madera. '.repeat(30), price: 500, finalPrice: 450 });
    expect(caption.length).toBeLessThanOrEqual(SOCIAL_CAPTION_MAX_CHARS[platform]);
    expect(caption).toContain('https://tiendita.gt/el-clavo/product/1');
    expect(caption).toContain('Taladro percutor 600 W');
    if (platform === 'whatsapp') expect(caption).not.toContain('#');
    else expect(caption).toMatch(/#\w+/);
  });
});

describe('salesInsightsFallback', () => {
  const figures: SalesFigures = {
    periodDays: 30,
    totalSalesCentavos: 1_250_000,
    orders: 50,
    previousTotalSalesCentavos: 1_000_000,
    previousOrders: 40,
    channels: { whatsapp: { orders: 35, salesCentavos: 900_000 }, pos: { orders: 15, salesCentavos: 350_000 } },
    topProducts: [
      { name: 'Cemento gris 42.5 kg', units: 120, salesCentavos: 984_000 },
      { name: 'Clavos de acero 2"', units: 80, salesCentavos: 120_000 },
      { name: 'Brocha de 3"', units: 30, salesCentavos: 60_000 },
    ],
    slowMovers: [{ name: 'Carretilla de metal', unitsSold: 0, stock: 7 }],
    lowStockCount: 4,
    salesByWeekday: [
      { weekday: 6, orders: 15, salesCentavos: 400_000 },
      { weekday: 1, orders: 5, salesCentavos: 100_000 },
      { weekday: 3, orders: 10, salesCentavos: 200_000 },
    ],
  };

  it('writes each list with real figures from the reports', () => {
    const r = salesInsightsFallback(figures);
    const all = [...r.insights, ...r.recommendations, ...r.trends].join('\n');
    expect(r.insights[0]).toMatch(/Q\s?12,500\.00 en 50 pedidos/);
    expect(r.insights[0]).toMatch(/Q\s?250\.00/); // ticket promedio
    expect(all).toContain('Cemento gris 42.5 kg: 120 unidades');
    expect(all).toContain('70% de los pedidos llegó por WhatsApp (35 pedidos)');
    expect(all).toContain('4 productos con stock bajo');
    expect(all).toContain('Carretilla de metal (0 ventas, 7 unidades en stock)');
    expect(r.trends.join('\n')).toContain('El sábado es tu mejor día');
    expect(r.trends.join('\n')).toMatch(/subieron un 25% frente al período anterior/);
    // Days without sales count as 0: the weakest day is one with nothing sold.
    expect(r.trends.join('\n')).toMatch(/El domingo es el día más flojo, con Q\s?0\.00/);
    for (const list of [r.insights, r.recommendations, r.trends]) {
      expect(list.length).toBeGreaterThan(0);
      for (const s of list) expect(s).toMatch(/\d/);
    }
  });

  it('answers for a store with no sales at all', () => {
    const r = salesInsightsFallback({ ...figures, totalSalesCentavos: 0, orders: 0, previousTotalSalesCentavos: undefined, previousOrders: undefined, channels: { whatsapp: { orders: 0, salesCentavos: 0 }, pos: { orders: 0, salesCentavos: 0 } }, topProducts: [], slowMovers: [], lowStockCount: 0, salesByWeekday: [] });
    expect(r.insights[0]).toContain('0 pedidos');
    expect(r.recommendations.length).toBeGreaterThan(0);
    expect(r.trends[0]).toContain('0 pedidos');
  });

  it('is deterministic', () => {
    expect(salesInsightsFallback(figures)).toEqual(salesInsightsFallback(figures));
  });
});

describe('AiClient against a local OpenAI-compatible stand-in', () => {
  const standIn = new OpenAiStandIn();
  let client: AiClient;
  beforeAll(async () => {
    await standIn.start();
    client = new AiClient({ apiKey: 'clave-de-prueba', baseURL: standIn.url, model: 'modelo-prueba', timeoutMs: 1500 });
  });
  afterAll(() => standIn.stop());
  const input = { productName: 'Taladro percutor', category: 'Herramientas', price: 450, businessType: 'hardware', length: 'short' as const };

  it('sends the configured model, the key and asks for a JSON object; passes a good answer through', async () => {
    standIn.mode = { kind: 'answer', content: JSON.stringify({ description: 'Taladro potente para concreto y madera.' }) };
    const r = await generateDescription(client, input);
    expect(r).toEqual({ description: 'Taladro potente para concreto y madera.', source: 'model' });
    const req = standIn.requests.at(-1)!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.authorization).toBe('Bearer clave-de-prueba');
    expect(req.body.model).toBe('modelo-prueba');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(JSON.stringify(req.body.messages)).toContain('Taladro percutor');
  });

  it.each([
    ['malformed JSON', { kind: 'answer', content: 'esto no es JSON' }, 'invalid_json'],
    ['an answer that fails the schema', { kind: 'answer', content: JSON.stringify({ texto: 'sin el campo' }) }, 'schema'],
    ['a refusal', { kind: 'refusal' }, 'refusal'],
    ['a slow answer past the timeout', { kind: 'slow', ms: 4000, content: JSON.stringify({ description: 'tarde' }) }, 'timeout'],
    ['a 500 from the model server', { kind: 'error', status: 500 }, 'http'],
  ] as const)('%s falls back', async (_name, mode, failure) => {
    standIn.mode = mode as never;
    const started = Date.now();
    const tried = await client.tryJson(GenerateDescriptionResponse, 's', 'u');
    expect(tried).toMatchObject({ ok: false, failure });
    const r = await generateDescription(client, input);
    expect(r.source).toBe('fallback');
    expect(r.description).toBe(descriptionFallback(input));
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('without a key it never calls out', async () => {
    const before = standIn.requests.length;
    const offline = new AiClient({ baseURL: standIn.url });
    expect(offline.enabled).toBe(false);
    expect((await generateDescription(offline, input)).source).toBe('fallback');
    expect(standIn.requests.length).toBe(before);
  });
});
