/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests */
import { CustomerResponseResponse, EnhanceSearchResponse, GenerateDescriptionResponse, SocialCaptionResponse } from '@tiendita/contracts';
import { registerAndLogin, type Stack, type StackClient, type StackResponse, startStack } from '../../../gateway/test/support/stack';
import { OpenAiStandIn, type StandInMode } from '../../../libs/ai/test/stand-in';
import { seedCatalogue, words } from './ai-support';
import { waitForShop } from './support';

/**
 * Every AI endpoint of the catalog with a model configured: a local OpenAI-compatible stand-in on
 * 127.0.0.1. A good answer passes through; malformed JSON, a slow answer past AI_TIMEOUT_MS and a
 * 500 each give a valid fallback answer, never a 500.
 */
const standIn = new OpenAiStandIn();
let stack: Stack;
let owner: StackClient;
let shop: { storeId: string; subdomain: string };

beforeAll(async () => {
  await standIn.start();
  stack = await startStack({
    services: ['identity', 'inventory', 'catalog'],
    serviceEnv: { catalog: { OPENAI_API_KEY: 'clave-de-prueba', OPENAI_BASE_URL: standIn.url, OPENAI_MODEL: 'modelo-prueba', AI_TIMEOUT_MS: '700', AI_SEARCH_RATE_LIMIT: '1000' } },
  });
  owner = stack.client();
  shop = await registerAndLogin(owner, { businessType: 'hardware' });
  await waitForShop(stack.client(), shop.subdomain);
  await seedCatalogue(owner, 20);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await standIn.stop();
});

const FAILURES: [string, StandInMode][] = [
  ['malformed JSON', { kind: 'answer', content: '{"description": "sin cerrar' }],
  ['an answer that fails the schema', { kind: 'answer', content: '{"otro": 1, "intent": "no-existe"}' }],
  ['a slow answer past the timeout', { kind: 'slow', ms: 2500, content: '{}' }],
  ['a 500 from the model server', { kind: 'error', status: 500 }],
  ['a refusal', { kind: 'refusal' }],
];

interface Case {
  name: string;
  call: () => Promise<StackResponse>;
  good: unknown;
  check: (body: any) => void;
}

const cases: Case[] = [
  {
    name: 'generate-description',
    call: () => owner.post('/api/ai/generate-description', { productName: 'Martillo de uña', category: 'Herramientas', price: 65 }),
    good: { description: 'Martillo de uña de acero forjado, ideal para carpintería.' },
    check: (b) => {
      GenerateDescriptionResponse.parse(b);
      expect(b.description).toContain('Martillo de uña');
      expect(words(b.description)).toBeLessThanOrEqual(100);
    },
  },
  {
    name: 'customer-response',
    call: () => owner.post('/api/ai/customer-response', { customerMessage: 'Mi pedido llegó incompleto', customerName: 'Luis', productName: 'Clavos' }),
    good: { suggestedResponse: 'Hola Luis, lo resolvemos hoy mismo.', tone: 'professional', category: 'complaint' },
    check: (b) => {
      CustomerResponseResponse.parse(b);
      expect(b.category).toBe('complaint');
      expect(b.suggestedResponse).toContain('Luis');
    },
  },
  {
    name: 'social-caption',
    call: () => owner.post('/api/ai/social-caption', { type: 'store', platform: 'twitter', data: {} }),
    good: { caption: '¡Visítanos! Todo para tu obra.' },
    check: (b) => {
      SocialCaptionResponse.parse(b);
      expect(b.caption).toContain(`/${shop.subdomain}`);
      expect(b.caption.length).toBeLessThanOrEqual(280);
    },
  },
  {
    name: 'enhance-search',
    call: () => stack.client().post(`/api/ai/enhance-search/${shop.subdomain}`, { query: 'martilo' }),
    good: { intent: 'specific_product', enhancedTerms: ['martillo', 'herramienta'] },
    check: (b) => {
      EnhanceSearchResponse.parse(b);
      expect(b.suggestedProducts.slice(0, 3).map((p: any) => p.name)).toContain('Martíllo de uña 16 oz');
    },
  },
];

describe.each(cases)('POST /api/ai/$name with a model', ({ name, call, good, check }) => {
  it('sends the configured model and asks for a JSON object; passes a good answer through', async () => {
    standIn.mode = { kind: 'answer', content: JSON.stringify(good) };
    const before = standIn.requests.length;
    const r = await call();
    expect(r.status).toBe(200);
    const req = standIn.requests.at(-1)!;
    expect(standIn.requests.length).toBe(before + 1);
    expect(req.body.model).toBe('modelo-prueba');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    expect(req.authorization).toBe('Bearer clave-de-prueba');
    if (name === 'enhance-search') {
      expect(r.body.intent).toBe('specific_product');
      expect(r.body.enhancedTerms).toEqual(expect.arrayContaining(['martillo', 'herramienta']));
    } else if (name === 'social-caption') {
      expect(r.body.caption).toContain('¡Visítanos! Todo para tu obra.');
    } else {
      expect(r.body).toEqual(good);
    }
    check(r.body);
  });

  it.each(FAILURES)('%s falls back to a valid answer', async (_label, mode) => {
    standIn.mode = mode;
    const started = Date.now();
    const r = await call();
    expect(r.status).toBe(200);
    check(r.body);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
