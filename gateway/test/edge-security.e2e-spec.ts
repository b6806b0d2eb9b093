import { AuthMessages } from '@tiendita/contracts';
import { newRegistration, registerAndLogin, startStack, StackClient, type Stack } from './support/stack';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(() => stack?.stop());

describe('CSRF: state-changing /api calls must come from our own origin', () => {
  const csrf = { message: 'Solicitud rechazada: el origen no está permitido', code: 'FORBIDDEN' };

  it('refuses a login posted from another site (403)', async () => {
    const registration = newRegistration();
    await stack.client().post('/api/auth/register', registration);
    const evil = stack.client({ origin: 'https://evil.example' });
    const res = await evil.post('/api/auth/login', { email: registration.email, password: registration.password });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(csrf);
    expect(evil.cookie('tiendita.sid')).toBeUndefined();
  });

  it('refuses a signed-in owner’s write coming from another site, and one with no Origin nor Referer', async () => {
    const owner = stack.client();
    await registerAndLogin(owner);
    const cookie = owner.cookie('tiendita.sid')!;
    for (const origin of ['https://evil.example', 'null', null]) {
      const attacker = new StackClient(stack.url, { origin });
      attacker.cookies.set('tiendita.sid', cookie);
      const res = await attacker.post('/api/auth/logout');
      expect(res.status).toBe(403);
      expect(res.body).toEqual(csrf);
    }
    // The session survived every attempt.
    expect((await owner.get('/api/auth/user')).status).toBe(200);
  });

  it('judges by Referer when there is no Origin', async () => {
    const noOrigin = stack.client({ origin: null });
    const bad = await noOrigin.post('/api/auth/forgot-password', { email: 'a@example.com' }, { referer: 'https://evil.example/page' });
    expect(bad.status).toBe(403);
    const good = await noOrigin.post('/api/auth/forgot-password', { email: 'a@example.com' }, { referer: `${stack.url}/forgot-password` });
    expect(good.status).toBe(200);
  });

  it('refuses public writes from another site too', async () => {
    const res = await stack.client({ origin: 'https://evil.example' }).post('/api/public/orders/demo', {});
    expect(res.status).toBe(403);
  });

  it('lets reads through whatever their origin', async () => {
    const res = await stack.client().get('/api/public/store/no-existe', { origin: 'https://evil.example' });
    expect(res.status).toBe(404);
  });

  it('accepts an origin listed in ALLOWED_ORIGINS', async () => {
    const other = await startStack({ gatewayEnv: { ALLOWED_ORIGINS: 'http://localhost:5173' } });
    try {
      const res = await other.client({ origin: 'http://localhost:5173' }).post('/api/auth/register', newRegistration());
      expect(res.status).toBe(201);
    } finally {
      await other.stop();
    }
  });
});

describe('the tenant is always the session’s store', () => {
  it('owner A can never read or change store B: a storeId in the query or body is refused', async () => {
    const a = stack.client();
    const ownerA = await registerAndLogin(a);
    const b = stack.client();
    const ownerB = await registerAndLogin(b);

    const mine = await a.get(`/api/store`);
    expect(mine.body.id).toBe(ownerA.storeId);

    const viaQuery = await a.get(`/api/store?storeId=${ownerB.storeId}`);
    expect(viaQuery.status).toBe(403);
    expect(viaQuery.body).toEqual({ message: 'No tienes acceso a esta tienda', code: 'FORBIDDEN' });
    expect(viaQuery.text).not.toContain(ownerB.subdomain);

    const viaBody = await a.put(`/api/store/${ownerB.storeId}`, { storeId: ownerB.storeId, name: 'Robada' });
    expect(viaBody.status).toBe(403);
    const viaArray = await a.post(`/api/store`, [{ storeId: ownerB.storeId }]);
    expect(viaArray.status).toBe(403);

    // Headers meant for the services are dropped at the edge, forged or not.
    const forged = await a.get('/api/store', {
      'x-tiendita-store-id': ownerB.storeId,
      'x-tiendita-user-id': ownerB.userId,
      'x-tiendita-timestamp': String(Date.now()),
      'x-tiendita-signature': 'f'.repeat(64),
    });
    expect(forged.status).toBe(200);
    expect(forged.body.id).toBe(ownerA.storeId);

    // B's store is untouched and B still sees only B's store.
    const theirs = await b.get('/api/store');
    expect(theirs.body).toMatchObject({ id: ownerB.storeId, name: ownerB.registration.storeName });
    const me = await a.get('/api/auth/user');
    expect(me.body.storeId).toBe(ownerA.storeId);
  });

  it('lets a storeId equal to the session’s own through', async () => {
    const a = stack.client();
    const owner = await registerAndLogin(a);
    const res = await a.get(`/api/store?storeId=${owner.storeId}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(owner.storeId);
  });
});

describe('routing and the edge', () => {
  it('never exposes identity’s internal calls', async () => {
    const registration = newRegistration();
    const res = await stack.client().post('/internal/auth/register', registration);
    expect(res.status).toBe(404);
    const verify = await stack.client().post('/internal/auth/verify', { email: 'demo@tiendita.gt', password: 'Demo1234' });
    expect(verify.status).toBe(404);
    const count = await stack.pool.query(`SELECT count(*)::int AS n FROM identity.email_reservations WHERE email = $1`, [registration.email]);
    expect(count.rows[0].n).toBe(0);
  });

  it('answers 404 for an unknown /api route, and 401 for an owner route without a session', async () => {
    expect((await stack.client().get('/api/no-existe')).status).toBe(404);
    const res = await stack.client().get('/api/products');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: AuthMessages.notAuthenticated, code: 'UNAUTHORIZED' });
    expect((await stack.client().get('/api/stats')).status).toBe(401);
  });

  it('answers 503 with the error body when a service is not running', async () => {
    const owner = stack.client();
    await registerAndLogin(owner);
    const res = await owner.get('/api/products');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ message: 'Servicio no disponible, inténtalo de nuevo en un momento', code: 'SERVICE_UNAVAILABLE' });
    expect(res.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|:9\b|catalog/i);
  });

  it('answers 413 with the error body for a body over the limit', async () => {
    const res = await stack.client().post('/api/auth/register', { ...newRegistration(), storeDescription: 'x'.repeat(1024 * 1024 + 10) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: 'La solicitud es demasiado grande', code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers 400 JSON inválido for a malformed body', async () => {
    const res = await stack.client().post('/api/auth/login', '{"email": ', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: 'JSON inválido', code: 'VALIDATION_ERROR' });
  });

  it('sends security headers on API answers and pages, with a CSP that allows the web build', async () => {
    for (const path of ['/api/auth/user', '/dashboard']) {
      const res = await stack.client().get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('does not open a session (nor touch the sessions table) for public calls', async () => {
    const before = await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions');
    const visitor = stack.client();
    await visitor.get('/api/public/store/loquesea');
    await visitor.post('/api/auth/forgot-password', { email: 'nadie@example.com' });
    expect(visitor.cookies.size).toBe(0);
    const after = await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe('behind a TLS proxy (TRUST_PROXY=1)', () => {
  it('marks the session cookie Secure and judges the origin by X-Forwarded-Proto/Host', async () => {
    const tls = await startStack({ gatewayEnv: { TRUST_PROXY: '1' } });
    try {
      const host = new URL(tls.url).host;
      const headers = { 'x-forwarded-proto': 'https', 'x-forwarded-host': host };
      const client = new StackClient(tls.url, { origin: `https://${host}` });
      const registration = newRegistration();
      expect((await client.post('/api/auth/register', registration, headers)).status).toBe(201);
      const login = await client.post('/api/auth/login', { email: registration.email, password: registration.password }, headers);
      expect(login.status).toBe(200);
      const cookie = login.headers.getSetCookie().find((c) => c.startsWith('tiendita.sid='))!;
      expect(cookie).toMatch(/; Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(login.headers.get('strict-transport-security')).toContain('max-age=');
      // The plain-http origin is not ours when the proxy says the site is https.
      const plain = new StackClient(tls.url, { origin: tls.url });
      expect((await plain.post('/api/auth/register', newRegistration(), headers)).status).toBe(403);
    } finally {
      await tls.stop();
    }
  });
});
