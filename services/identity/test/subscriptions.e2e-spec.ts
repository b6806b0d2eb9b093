import { AuthMessages, SubscriptionMessages } from '@tiendita/contracts';
import { Mailbox, type ReceivedMail } from '../../../gateway/test/support/mailbox';
import { registerAndLogin, startStack, type Stack, type StackClient } from '../../../gateway/test/support/stack';

/**
 * Shop subscriptions through the gateway (issue 26): double opt-in with fixed-text mails, one answer
 * whatever the address's state, a cap of mails per recipient across stores, and links that open a
 * page of the shop whose button (a POST) does the change; a GET never unsubscribes.
 */
let stack: Stack;
let mailbox: Mailbox;
let ipCounter = 0;
const BASE = 'https://tienda.example.gt';

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  stack = await startStack({
    services: ['identity'],
    serviceEnv: { identity: { SMTP_URL: mailbox.url, PUBLIC_URL: BASE, SUBSCRIPTION_MAILS_PER_RECIPIENT: '3' } },
    gatewayEnv: { TRUST_PROXY: '1', RATE_SUBSCRIBE_PER_IP: '5' },
  });
}, 90_000);
afterAll(async () => {
  await stack?.stop();
  await mailbox?.stop();
});

/** A shopper from an address of their own (the subscribe limit counts per address). */
const shopper = (): StackClient => stack.client({ forwardedFor: `198.51.100.${++ipCounter}` });

async function owner() {
  const client = stack.client();
  return { client, ...(await registerAndLogin(client)) };
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

/** The shop page a mail links to, and its token. */
function linkOf(mail: ReceivedMail, subdomain: string, action: 'confirmar' | 'cancelar'): { path: string; token: string } {
  const match = new RegExp(`${BASE.replace(/\./g, '\\.')}(/tienda/${subdomain}\\?suscripcion=${action}&token=([A-Za-z0-9_.%-]+))`).exec(mail.decoded);
  if (!match) throw new Error(`sin enlace ${action} en el correo:\n${mail.decoded}`);
  return { path: match[1], token: decodeURIComponent(match[2]) };
}

const subscribe = (subdomain: string, body: Record<string, unknown>) => shopper().post(`/api/public/subscribe/${subdomain}`, body);
/** Subscribes and confirms with the mailed link, as a shopper does; reads the mails the two steps send. */
async function subscribeConfirmed(subdomain: string, body: Record<string, unknown>): Promise<void> {
  expect((await subscribe(subdomain, body)).status).toBe(201);
  const { token } = linkOf(await mailbox.next(), subdomain, 'confirmar');
  expect((await stack.client().post('/api/public/subscription/confirm', { token })).status).toBe(200);
  await mailbox.next();
}

const listed = async (client: StackClient) => (await client.get('/api/subscriptions?page=1')).body;

describe('subscriptions', () => {
  it('validates: Campos requeridos, Email inválido, Google and Facebook coming soon; an unknown store is 404', async () => {
    const { subdomain } = await owner();
    for (const [body, message] of [
      [{ email: 'a@b.gt' }, SubscriptionMessages.required],
      [{ name: 'Ana', email: '' }, SubscriptionMessages.required],
      [{ name: 'Ana', email: 'no-es-email' }, AuthMessages.invalidEmail],
      [{ name: 'Ana', email: 'ana@b.gt', provider: 'google' }, SubscriptionMessages.googleSoon],
      [{ name: 'Ana', email: 'ana@b.gt', provider: 'facebook' }, SubscriptionMessages.facebookSoon],
    ] as const) {
      const res = await subscribe(subdomain, body);
      expect({ status: res.status, message: res.body.message }).toEqual({ status: 400, message });
    }
    expect((await subscribe('no-existe-esta-tienda', { name: 'Ana', email: 'ana@b.gt' })).status).toBe(404);
  });

  it('double opt-in: a fixed-text mail, confirmed by the button of the shop page; the same answer when already subscribed', async () => {
    const { client, subdomain, registration } = await owner();
    const res = await subscribe(subdomain, { name: '¡GANASTE! Entra a http://estafa.example', email: 'Jose@Example.com', phone: '5555-1234', provider: 'email' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ message: SubscriptionMessages.requested });

    const mail = await mailbox.next();
    expect(mail.to).toContain('jose@example.com');
    expect(mail.subject).toBe('Confirma tu suscripción');
    // Nothing typed by the shopper or the store is in the mail.
    expect(mail.decoded).not.toContain('GANASTE');
    expect(mail.decoded).not.toContain('estafa');
    expect(mail.decoded).not.toContain(registration.storeName);
    const confirm = linkOf(mail, subdomain, 'confirmar');
    // Not subscribed until confirmed.
    expect(await listed(client)).toMatchObject({ total: 0 });

    // Opening the page (a GET, as a mail scanner would) changes nothing: it is the shop.
    expect((await stack.client().get(confirm.path)).status).not.toBe(500);
    expect(await listed(client)).toMatchObject({ total: 0 });

    const done = await stack.client().post('/api/public/subscription/confirm', { token: confirm.token });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: SubscriptionMessages.confirmed, storeName: registration.storeName });
    const after = await eventually(async () => ((await listed(client)).total === 1 ? listed(client) : null));
    expect(after.subscriptions[0]).toMatchObject({ email: 'jose@example.com', phone: '5555-1234', isActive: true });
    // Confirming again changes nothing; the confirmed mail carries the unsubscribe link.
    expect((await stack.client().post('/api/public/subscription/confirm', { token: confirm.token })).status).toBe(200);
    const welcome = await mailbox.next();
    expect(welcome.subject).toBe('Tu suscripción está confirmada');
    linkOf(welcome, subdomain, 'cancelar');

    // Subscribing an address that is already subscribed answers exactly as for a new one, and sends nothing.
    const again = await subscribe(subdomain, { name: 'Otro', email: 'jose@example.com' });
    expect({ status: again.status, body: again.body }).toEqual({ status: res.status, body: res.body });
    await expect(mailbox.next(700)).rejects.toThrow();
  });

  it('unsubscribing: the mailed link opens the shop page; a GET never unsubscribes, the button does', async () => {
    const { client, subdomain } = await owner();
    await subscribe(subdomain, { name: 'María', email: 'maria@example.com' });
    const confirm = linkOf(await mailbox.next(), subdomain, 'confirmar');
    await stack.client().post('/api/public/subscription/confirm', { token: confirm.token });
    const leave = linkOf(await mailbox.next(), subdomain, 'cancelar');
    await eventually(async () => (await listed(client)).active === 1);

    // A forged token and a confirmation token do nothing.
    const subscriptionId = leave.token.split('.')[0];
    for (const token of [`${subscriptionId}.${'A'.repeat(43)}`, confirm.token, 'basura']) {
      const forged = await stack.client().post('/api/public/unsubscribe', { token });
      expect({ status: forged.status, message: forged.body.message }).toEqual({ status: 400, message: SubscriptionMessages.invalidLink });
    }
    // An older mail's GET link leads to the shop page, changing nothing.
    const old = await stack.client().get(`/api/public/unsubscribe?token=${encodeURIComponent(leave.token)}`);
    expect(old.status).toBe(303);
    expect(old.headers.get('location')).toBe(leave.path);
    expect((await stack.client().get(leave.path)).status).not.toBe(500);
    const bad = await stack.client().get('/api/public/unsubscribe?token=basura');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain(SubscriptionMessages.invalidLink);
    await new Promise((r) => setTimeout(r, 300));
    expect(await listed(client)).toMatchObject({ active: 1 });

    const left = await stack.client().post('/api/public/unsubscribe', { token: leave.token });
    expect(left.body).toEqual({ message: SubscriptionMessages.unsubscribed, storeName: expect.any(String) });
    const after = await eventually(async () => ((await listed(client)).active === 0 ? listed(client) : null));
    expect(after.subscriptions[0].unsubscribedAt).toEqual(expect.any(String));
  });

  it('caps the mails one recipient receives across stores; the answer stays the same', async () => {
    const stores = await Promise.all([owner(), owner(), owner(), owner()]);
    const answers = [];
    for (const s of stores) answers.push(await subscribe(s.subdomain, { name: 'Víctima', email: 'victima@example.com' }));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201]);
    for (let i = 0; i < 3; i++) expect((await mailbox.next()).to).toContain('victima@example.com');
    await expect(mailbox.next(700)).rejects.toThrow();
  });

  it("lists only the session's store, active first and newest first, a page at a time", async () => {
    const a = await owner();
    const b = await owner();
    for (const n of [1, 2, 3]) await subscribeConfirmed(a.subdomain, { name: `Cliente ${n}`, email: `c${n}@example.com` });
    const page1 = await eventually(async () => {
      const r = await a.client.get('/api/subscriptions?page=1&limit=2');
      return r.body.total === 3 ? r.body : null;
    });
    expect(page1).toMatchObject({ total: 3, totalPages: 2, currentPage: 1 });
    expect(page1.subscriptions.map((s: { name: string }) => s.name)).toEqual(['Cliente 3', 'Cliente 2']);
    expect((await b.client.get('/api/subscriptions?limit=20')).body.total).toBe(0);
    expect((await b.client.get('/api/subscriptions')).body).toEqual([]);
    expect((await a.client.get('/api/subscriptions')).body.map((s: { name: string }) => s.name)).toEqual(['Cliente 3', 'Cliente 2', 'Cliente 1']);
    expect((await stack.client().get('/api/subscriptions')).status).toBe(401);
  });

  it('exports the CSV: BOM, the spec columns, formulas neutralised', async () => {
    const { client, subdomain } = await owner();
    const people = [
      { name: '=HYPERLINK("http://x")', email: 'f1@example.com', phone: '+50255551234' },
      { name: 'Ñandú Ramírez', email: 'n@example.com', phone: '-1' },
      { name: '@SUM(A1)', email: 'f2@example.com' },
    ];
    for (const p of people) await subscribeConfirmed(subdomain, p);
    await eventually(async () => (await listed(client)).active === 3);
    // Raw bytes: fetch's text() drops a BOM, so it is read before decoding.
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(`${stack.url}/api/subscriptions/export.csv`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('"Nombre","Email","Teléfono","Proveedor","Fecha de suscripción"');
    expect(lines).toHaveLength(4);
    expect(text).toContain(`"'=HYPERLINK(""http://x"")","f1@example.com","'+50255551234","email",`);
    expect(text).toContain(`"Ñandú Ramírez","n@example.com","'-1","email",`);
    expect(text).toContain(`"'@SUM(A1)","f2@example.com","","email",`);
  });

  it('is rate limited per address', async () => {
    const { subdomain } = await owner();
    const client = shopper();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await client.post(`/api/public/subscribe/${subdomain}`, { name: 'X', email: `r${i}@example.com` })).status);
    for (let i = 0; i < 5; i++) await mailbox.next();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});
