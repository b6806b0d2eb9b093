import { AuthMessages, OfflineCardMessages, SettingsMessages } from '@tiendita/contracts';
import { uploadImage } from '../../services/catalog/test/support';
import { Mailbox } from './support/mailbox';
import { newRegistration, registerAndLogin, startStack, type Stack } from './support/stack';

let stack: Stack;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  stack = await startStack({
    services: ['identity', 'catalog'],
    serviceEnv: { identity: { SMTP_URL: mailbox.url, PUBLIC_URL: 'https://tienda.example.gt' } },
    gatewayEnv: { TRUST_PROXY: '1', RATE_SUBSCRIBE_PER_IP: '5' },
  });
}, 90_000);
afterAll(async () => {
  await stack?.stop();
  await mailbox?.stop();
});


async function owner() {
  const client = stack.client();
  const me = await registerAndLogin(client);
  return { client, ...me };
}

async function eventsOf(storeId: string, type: string): Promise<{ changes: Record<string, unknown> }[]> {
  const r = await stack.pool.query(`SELECT data FROM identity.events WHERE stream_id = $1 AND type = $2 ORDER BY stream_position`, [`store-${storeId}`, type]);
  return r.rows.map((row) => row.data);
}

async function eventually<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('no llegó a tiempo');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('PUT /api/store/{id}', () => {
  it('answers each rule with its Spanish message and per-field error', async () => {
    const { client, storeId } = await owner();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ subdomain: 'ab' }, 'subdomain', AuthMessages.subdomainMin],
      [{ subdomain: 'x'.repeat(51) }, 'subdomain', AuthMessages.subdomainMax],
      [{ subdomain: 'mi tienda' }, 'subdomain', AuthMessages.subdomainChars],
      [{ subdomain: 'settings' }, 'subdomain', AuthMessages.subdomainReserved],
      [{ name: '  ' }, 'name', AuthMessages.storeNameRequired],
      [{ primaryColor: 'red' }, 'primaryColor', SettingsMessages.color],
      [{ accentColor: '#12345' }, 'accentColor', SettingsMessages.color],
      [{ logoUrl: 'https://evil.example/x.png' }, 'logoUrl', SettingsMessages.logo],
      [{ email: 'no-es-email' }, 'email', AuthMessages.invalidEmail],
      [{ website: 'ftp://tienda' }, 'website', SettingsMessages.website],
      [{ whatsappNumber: '+502 1234 5678 9012 3456 78' }, 'whatsappNumber', SettingsMessages.whatsappMax],
      [{ phone: '1'.repeat(21) }, 'phone', SettingsMessages.phoneMax],
      [{ aiDescriptionLength: 'enorme' }, 'aiDescriptionLength', SettingsMessages.aiLength],
      [{ department: 'Narnia' }, 'department', AuthMessages.departmentRequired],
    ];
    for (const [body, field, message] of cases) {
      const res = await client.put(`/api/store/${storeId}`, body);
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
      expect(res.body.details.fields[field]).toBe(message);
    }
    // Nothing of the refused calls was saved.
    expect(await eventsOf(storeId, 'StoreUpdated')).toEqual([]);
  });

  it('refuses a subdomain another store has: Ese subdominio ya está en uso', async () => {
    const a = await owner();
    const b = await owner();
    const res = await b.client.put(`/api/store/${b.storeId}`, { subdomain: a.subdomain });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('Ese subdominio ya está en uso');
    expect(res.body.details.fields.subdomain).toBe('Ese subdominio ya está en uso');
  });

  it("answers 404 for another store's id, and changes nothing there", async () => {
    const a = await owner();
    const b = await owner();
    const res = await b.client.put(`/api/store/${a.storeId}`, { name: 'Robada' });
    expect(res.status).toBe(404);
    expect((await a.client.get('/api/store')).body.name).toBe(a.registration.storeName);
    expect((await b.client.put('/api/store/no-es-un-id', { name: 'X' })).status).toBe(404);
    expect((await stack.client().put(`/api/store/${a.storeId}`, { name: 'X' })).status).toBe(401);
  });

  it('saves every field, keeps only the allowed WhatsApp characters, and emits only what changed', async () => {
    const { client, storeId, registration } = await owner();
    const logoUrl = await uploadImage(client);
    const body = {
      name: 'Ferretería El Martillo',
      description: 'Todo para construir',
      businessType: 'hardware',
      department: 'Quetzaltenango',
      address: '4a calle 5-10 zona 1',
      phone: '7765-4321',
      email: 'Ventas@Martillo.GT',
      website: 'https://martillo.gt',
      whatsappNumber: 'tel: +502 (5555) 1234',
      businessHours: 'Lunes a sábado, 8:00 a 18:00',
      allowOnlineOrders: true,
      requireCustomerInfo: true,
      logoUrl,
      primaryColor: '#FF5500',
      secondaryColor: '#112233',
      accentColor: '#DC2626',
      aiDescriptionLength: 'long',
      storeDepartment: 'ignored',
    };
    const res = await client.put(`/api/store/${storeId}`, body);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: storeId,
      name: 'Ferretería El Martillo',
      email: 'ventas@martillo.gt',
      whatsappNumber: '+502 (5555) 1234',
      requireCustomerInfo: true,
      logoUrl,
      primaryColor: '#ff5500',
      aiDescriptionLength: 'long',
      subdomain: registration.subdomain,
    });
    expect((await client.get('/api/store')).body).toMatchObject({ name: 'Ferretería El Martillo', businessHours: 'Lunes a sábado, 8:00 a 18:00' });

    const [event] = await eventsOf(storeId, 'StoreUpdated');
    // allowOnlineOrders and accentColor were already so: not a change.
    expect(Object.keys(event.changes).sort()).toEqual(
      ['name', 'description', 'businessType', 'department', 'address', 'phone', 'email', 'website', 'whatsappNumber', 'businessHours', 'requireCustomerInfo', 'logoUrl', 'primaryColor', 'secondaryColor', 'aiDescriptionLength'].sort(),
    );
    expect(event).toMatchObject({ storeId, changes: { whatsappNumber: '+502 (5555) 1234', primaryColor: '#ff5500' } });

    // The same body again changes nothing and records nothing.
    expect((await client.put(`/api/store/${storeId}`, body)).status).toBe(200);
    expect(await eventsOf(storeId, 'StoreUpdated')).toHaveLength(1);

    // The shop reads the new name, colours and logo.
    const shop = await stack.client().get(`/api/public/store/${registration.subdomain}`);
    expect(shop.body).toMatchObject({ name: 'Ferretería El Martillo', primaryColor: '#ff5500', logoUrl });
  });

  it("another store's upload is refused as a logo, as it is as a product image (issue 26)", async () => {
    const a = await owner();
    const b = await owner();
    const theirs = await uploadImage(a.client);
    for (const logoUrl of [theirs, theirs.replace('/temp-uploads/products/', '/objects/'), '/objects/nunca-subido.png']) {
      const res = await b.client.put(`/api/store/${b.storeId}`, { logoUrl });
      expect({ logoUrl, status: res.status, message: res.body.message }).toEqual({ logoUrl, status: 400, message: SettingsMessages.logo });
    }
    expect((await b.client.get('/api/store')).body.logoUrl).toBeNull();
    // The same file is A's to use; and a logo the store already has stays accepted on a later save.
    expect((await a.client.put(`/api/store/${a.storeId}`, { logoUrl: theirs })).status).toBe(200);
    expect((await a.client.put(`/api/store/${a.storeId}`, { logoUrl: theirs, name: 'Otra vez' })).status).toBe(200);
  });

  it('moves the subdomain: the old one leads to the store for 90 days and stays taken', async () => {
    const { client, storeId, subdomain } = await owner();
    const next = `${subdomain}-nuevo`;
    const res = await client.put(`/api/store/${storeId}`, { subdomain: next.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.subdomain).toBe(next);
    const [event] = await eventsOf(storeId, 'StoreUpdated');
    expect(event.changes).toEqual({ subdomain: next });

    const viaOld = await stack.client().get(`/api/public/store/${subdomain}`);
    expect(viaOld.status).toBe(200);
    expect(viaOld.body.subdomain).toBe(next);
    expect((await stack.client().get(`/api/public/store/${next}`)).body.id).toBe(storeId);
    // Catalog's copy of the store follows the event: the shop's products answer under the new name.
    await eventually(async () => (await stack.client().get(`/api/public/products/${next}`)).status === 200);

    // The old link itself answers a permanent redirect to the new one, with its path and query.
    const page = await stack.client().get(`/${subdomain}?ref=wa`, { accept: 'text/html' });
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe(`/${next}?ref=wa`);
    expect((await stack.client().get(`/tienda/${subdomain}`)).headers.get('location')).toBe(`/tienda/${next}`);
    expect((await stack.client().get(`/${subdomain}/product/${storeId}`)).headers.get('location')).toBe(`/${next}/product/${storeId}`);
    // The new name and an unknown one are pages, not redirects.
    expect((await stack.client().get(`/${next}`)).status).not.toBe(301);
    expect((await stack.client().get('/tienda-que-no-existe')).status).not.toBe(301);

    // Nobody else may take the old one while it redirects.
    const other = await stack.client().post('/api/auth/register', newRegistration({ subdomain }));
    expect(other.status).toBe(409);
    expect(other.body.message).toBe(AuthMessages.subdomainTaken);
    const availability = await client.get(`/api/store/subdomain-availability?subdomain=${subdomain}`);
    expect(availability.body).toMatchObject({ available: true });
    const taken = await (await owner()).client.get(`/api/store/subdomain-availability?subdomain=${subdomain}`);
    expect(taken.body).toMatchObject({ available: false, message: AuthMessages.subdomainTaken });

    // Its owner may take it back.
    expect((await client.put(`/api/store/${storeId}`, { subdomain })).body.subdomain).toBe(subdomain);
  });

  it('isActive off takes the shop offline; on brings it back', async () => {
    const { client, storeId, subdomain } = await owner();
    expect((await client.put(`/api/store/${storeId}`, { isActive: false })).body.isActive).toBe(false);
    const shop = await stack.client().get(`/api/public/store/${subdomain}`);
    expect(shop.status).toBe(404);
    expect(shop.body.message).toBe('Tienda no encontrada');
    const sub = await stack.client({ forwardedFor: '198.51.100.1' }).post(`/api/public/subscribe/${subdomain}`, { name: 'Ana', email: 'ana@example.com' });
    expect(sub.status).toBe(404);
    await eventually(async () => (await stack.client().get(`/api/public/products/${subdomain}`)).status === 404);
    await client.put(`/api/store/${storeId}`, { isActive: true });
    expect((await stack.client().get(`/api/public/store/${subdomain}`)).status).toBe(200);
  });
});

describe('store settings', () => {
  it('GET gives the defaults; the tax regime sets the rate and the receipt note', async () => {
    const { client, storeId } = await owner();
    const initial = await client.get('/api/store/settings');
    expect(initial.body).toMatchObject({ storeId, taxRate: 0.12, currency: 'GTQ', printReceipts: true, kashEnabled: false, zigiEnabled: false, taxRegime: 'general' });

    const res = await client.put('/api/store/settings', { taxRegime: 'pequeno_contribuyente', receiptHeader: 'Gracias por su compra', printReceipts: false });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ taxRate: 0.05, taxRegime: 'pequeno_contribuyente', receiptHeader: 'Gracias por su compra', printReceipts: false });
    expect(res.body.taxNote).toContain('Pequeño Contribuyente');
    const [event] = await eventsOf(storeId, 'StoreSettingsUpdated');
    expect(event).toEqual({
      storeId,
      changes: { taxRate: 0.05, taxRegime: 'pequeno_contribuyente', receiptHeader: 'Gracias por su compra', printReceipts: false },
      updatedAt: expect.any(String),
    });
    expect((await client.get('/api/store/settings')).body.taxRate).toBe(0.05);
  });

  it('refuses kash and zigi (coming soon), another rate, another currency', async () => {
    const { client } = await owner();
    for (const [body, field, message] of [
      [{ kashEnabled: true }, 'kashEnabled', SettingsMessages.comingSoon],
      [{ zigiEnabled: true }, 'zigiEnabled', SettingsMessages.comingSoon],
      [{ taxRate: 0.2 }, 'taxRate', SettingsMessages.taxRegime],
      [{ taxRegime: 'otro' }, 'taxRegime', SettingsMessages.taxRegime],
      [{ currency: 'USD' }, 'currency', SettingsMessages.currency],
    ] as const) {
      const res = await client.put('/api/store/settings', body);
      expect({ status: res.status, message: res.body.message, field: res.body.details.fields[field] }).toEqual({ status: 400, message, field: message });
    }
  });

  it("card sales offline (issue 28): refused until the owner chooses 'pending'; any other value is refused in Spanish", async () => {
    const { client, storeId } = await owner();
    expect((await client.get('/api/store/settings')).body.offlineCardPayments).toBe('refuse');
    const bad = await client.put('/api/store/settings', { offlineCardPayments: 'siempre' });
    expect({ status: bad.status, message: bad.body.message, field: bad.body.details.fields.offlineCardPayments }).toEqual({ status: 400, message: OfflineCardMessages.invalid, field: OfflineCardMessages.invalid });
    const res = await client.put('/api/store/settings', { offlineCardPayments: 'pending' });
    expect(res.status).toBe(200);
    expect(res.body.offlineCardPayments).toBe('pending');
    expect((await eventsOf(storeId, 'StoreSettingsUpdated')).map((e) => e.changes)).toEqual([{ offlineCardPayments: 'pending' }]);
    expect((await client.get('/api/store/settings')).body.offlineCardPayments).toBe('pending');
    // The same choice again changes nothing.
    await client.put('/api/store/settings', { offlineCardPayments: 'pending' });
    expect(await eventsOf(storeId, 'StoreSettingsUpdated')).toHaveLength(1);
  });

  it('POST /api/store answers 409 to an owner whose store already has its settings', async () => {
    const { client } = await owner();
    const res = await client.post('/api/store', { name: 'Otra' });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(SettingsMessages.settingsExist);
  });
});

