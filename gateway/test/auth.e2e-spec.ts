import { AuthMessages, BUSINESS_TYPES, DEPARTMENTS } from '@tiendita/contracts';
import { testEnv } from '@tiendita/service-kit/testing';
import { newRegistration, registerAndLogin, startStack, StackClient, type Stack } from './support/stack';
import { SESSION_CACHE_MS } from '../src/sessions/pg-session-store';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(() => stack?.stop());

describe('POST /api/auth/register', () => {
  it('creates the account and its store together (201) with the spec defaults', async () => {
    const client = stack.client();
    const registration = newRegistration({ storeDescription: 'Granos y bebidas', storeAddress: '5a calle 3-20, zona 1', storeDepartment: 'Petén' });
    const res = await client.post('/api/auth/register', registration);
    expect(res.status).toBe(201);
    expect(res.body.user).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      email: registration.email,
      firstName: 'Ana',
      lastName: 'López',
      profileImageUrl: null,
      storeId: res.body.store.id,
    });
    expect(res.body.store).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: registration.storeName, subdomain: registration.subdomain });
    // Registering does not sign in: the screen sends the user to /login.
    expect(client.cookie('tiendita.sid')).toBeUndefined();

    await client.post('/api/auth/login', { email: registration.email, password: registration.password });
    const store = await client.get('/api/store');
    expect(store.status).toBe(200);
    expect(store.body).toMatchObject({
      id: res.body.store.id,
      ownerId: res.body.user.id,
      name: registration.storeName,
      subdomain: registration.subdomain,
      businessType: 'grocery',
      description: 'Granos y bebidas',
      phone: '22223333',
      address: '5a calle 3-20, zona 1',
      department: 'Petén',
      whatsappNumber: '50212345678',
      isActive: true,
      allowOnlineOrders: true,
      requireCustomerInfo: false,
      primaryColor: '#0ea5e9',
      secondaryColor: '#0284c7',
      accentColor: '#dc2626',
      aiDescriptionLength: 'normal',
      totalProducts: 0,
      totalOrders: 0,
    });

    const settings = await stack.pool.query('SELECT tax_rate, currency, print_receipts, kash_enabled, zigi_enabled FROM identity.store_settings WHERE store_id = $1', [res.body.store.id]);
    expect(settings.rows).toEqual([{ tax_rate: '0.1200', currency: 'GTQ', print_receipts: true, kash_enabled: false, zigi_enabled: false }]);
  });

  it('keeps the e-mail in lower case, so the same address in capitals is the same account', async () => {
    const registration = newRegistration();
    const res = await stack.client().post('/api/auth/register', { ...registration, email: registration.email.toUpperCase() });
    expect(res.status).toBe(201);
    expect(res.body.user.email).toBe(registration.email);
    const again = await stack.client().post('/api/auth/register', newRegistration({ email: registration.email }));
    expect(again.status).toBe(409);
  });

  it.each([
    ['email', { email: 'no-es-un-email' }, AuthMessages.invalidEmail],
    ['password', { password: '12345' }, 'La contraseña debe tener al menos 6 caracteres'],
    ['firstName', { firstName: '' }, 'El nombre es requerido'],
    ['lastName', { lastName: '   ' }, 'El apellido es requerido'],
    ['storeName', { storeName: '' }, 'El nombre de la tienda es requerido'],
    ['businessType', { businessType: '' }, 'El tipo de negocio es requerido'],
    ['subdomain', { subdomain: 'ab' }, 'El subdominio debe tener al menos 3 caracteres'],
    ['subdomain', { subdomain: 'a'.repeat(51) }, 'El subdominio no puede tener más de 50 caracteres'],
    ['subdomain', { subdomain: 'Mi_Tienda' }, 'Solo letras minúsculas, números y guiones'],
    ['storeDepartment', { storeDepartment: '' }, 'El departamento es requerido'],
  ])('answers 400 for a bad %s: %s → the spec message', async (field, override, message) => {
    const res = await stack.client().post('/api/auth/register', { ...newRegistration(), ...override });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    expect(res.body.details.fields[field]).toBe(message);
  });

  it('answers 400 for missing required fields with their messages', async () => {
    const res = await stack.client().post('/api/auth/register', {});
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toMatchObject({
      email: AuthMessages.invalidEmail,
      firstName: AuthMessages.firstNameRequired,
      lastName: AuthMessages.lastNameRequired,
      storeName: AuthMessages.storeNameRequired,
      businessType: AuthMessages.businessTypeRequired,
      storeDepartment: AuthMessages.departmentRequired,
    });
  });

  it('accepts every one of the 14 business types and the 22 departments', async () => {
    expect(BUSINESS_TYPES).toHaveLength(14);
    expect(DEPARTMENTS).toHaveLength(22);
    for (const [i, type] of BUSINESS_TYPES.entries()) {
      const res = await stack.client().post('/api/auth/register', newRegistration({ businessType: type.value, storeDepartment: DEPARTMENTS[i] }));
      expect(res.status).toBe(201);
    }
  });

  it('treats the optional fields as optional (empty strings too)', async () => {
    const res = await stack.client().post('/api/auth/register', newRegistration({ storeDescription: '', storePhone: '', whatsappNumber: '', storeAddress: '' }));
    expect(res.status).toBe(201);
  });

  it('answers 409 when the e-mail already has an account', async () => {
    const first = newRegistration();
    expect((await stack.client().post('/api/auth/register', first)).status).toBe(201);
    const res = await stack.client().post('/api/auth/register', newRegistration({ email: first.email }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Ya existe una cuenta con ese email', code: 'CONFLICT', details: { fields: { email: 'Ya existe una cuenta con ese email' } } });
  });

  it('answers 409 when the subdomain is taken', async () => {
    const first = newRegistration();
    expect((await stack.client().post('/api/auth/register', first)).status).toBe(201);
    const res = await stack.client().post('/api/auth/register', newRegistration({ subdomain: first.subdomain }));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: 'Ese subdominio ya está en uso', code: 'CONFLICT', details: { fields: { subdomain: 'Ese subdominio ya está en uso' } } });
  });

  it('lets exactly one of two racing registrations of one e-mail (or subdomain) through', async () => {
    const email = newRegistration().email;
    const sameEmail = await Promise.all([1, 2, 3].map(() => stack.client().post('/api/auth/register', newRegistration({ email }))));
    expect(sameEmail.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const subdomain = newRegistration().subdomain;
    const sameSubdomain = await Promise.all([1, 2, 3].map(() => stack.client().post('/api/auth/register', newRegistration({ subdomain }))));
    expect(sameSubdomain.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const accounts = await stack.pool.query('SELECT count(*)::int AS n FROM identity.events WHERE type = $1 AND data->>$2 = $3', ['UserRegistered', 'email', email]);
    expect(accounts.rows[0].n).toBe(1);
  });

  it.each(['api', 'tienda', 'login', 'register', 'dashboard', 'products', 'orders', 'pos', 'reports', 'inventory', 'settings', 'forgot-password', 'reset-password'])(
    'refuses the subdomain %s that would shadow a route (400)',
    async (subdomain) => {
      const res = await stack.client().post('/api/auth/register', newRegistration({ subdomain }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: AuthMessages.subdomainReserved, code: 'VALIDATION_ERROR', details: { fields: { subdomain: AuthMessages.subdomainReserved } } });
    },
  );
});

describe('POST /api/auth/login', () => {
  it('signs in: 200 with the user, an HttpOnly SameSite=Lax session cookie', async () => {
    const registration = newRegistration();
    await stack.client().post('/api/auth/register', registration);
    const client = stack.client();
    const res = await client.post('/api/auth/login', { email: registration.email, password: registration.password });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email: registration.email, firstName: 'Ana', lastName: 'López', profileImageUrl: null });
    const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('tiendita.sid='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/i); // plain http without TRUST_PROXY
    // The id is ≥ 128 bits of randomness: 24 bytes base64url = 32 characters, before the signature.
    const sid = decodeURIComponent(client.cookie('tiendita.sid')!).split('.')[0];
    expect(sid).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = await stack.pool.query('SELECT sess, expire FROM gateway.sessions WHERE sid = $1', [sid]);
    expect(row.rows[0].sess.passport).toEqual({ userId: res.body.id, storeId: res.body.storeId });
    expect(row.rows[0].expire.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  it('records lastLoginAt', async () => {
    const client = stack.client();
    const { userId } = await registerAndLogin(client);
    let row: { last_login_at: Date | null } | undefined;
    for (let i = 0; i < 50 && !row?.last_login_at; i++) {
      row = (await stack.pool.query('SELECT last_login_at FROM identity.users WHERE id = $1', [userId])).rows[0];
      if (!row?.last_login_at) await new Promise((r) => setTimeout(r, 20));
    }
    expect(row?.last_login_at).toBeInstanceOf(Date);
    expect(Math.abs(row!.last_login_at!.getTime() - Date.now())).toBeLessThan(60_000);
    const events = await stack.pool.query('SELECT count(*)::int AS n FROM identity.events WHERE stream_id = $1 AND type = $2', [`user-logins-${userId}`, 'UserLoggedIn']);
    expect(events.rows[0].n).toBe(1);
  });

  it('rotates the session id at login: a session id from before is not kept', async () => {
    const registration = newRegistration();
    await stack.client().post('/api/auth/register', registration);
    const client = stack.client();
    await client.post('/api/auth/login', { email: registration.email, password: registration.password });
    const first = client.cookie('tiendita.sid')!;
    expect((await client.post('/api/auth/login', { email: registration.email, password: registration.password })).status).toBe(200);
    const second = client.cookie('tiendita.sid')!;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    // The old id no longer opens anything.
    const stale = stack.client();
    stale.cookies.set('tiendita.sid', first);
    expect((await stale.get('/api/auth/user')).status).toBe(401);
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const rows = await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions WHERE sid = $1', [decodeURIComponent(first).split('.')[0]]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('answers a wrong password and an unknown e-mail alike: 401 Email o contraseña incorrectos', async () => {
    const registration = newRegistration();
    await stack.client().post('/api/auth/register', registration);
    const wrongPassword = await stack.client().post('/api/auth/login', { email: registration.email, password: 'otra-cosa' });
    const unknownEmail = await stack.client().post('/api/auth/login', { email: 'nadie@example.com', password: registration.password });
    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Email o contraseña incorrectos', code: 'UNAUTHORIZED' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('takes about the same time for an unknown e-mail as for a wrong password', async () => {
    const registration = newRegistration();
    await stack.client().post('/api/auth/register', registration);
    const time = async (email: string) => {
      const start = performance.now();
      await stack.client().post('/api/auth/login', { email, password: 'no-es-esta' });
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 8; i++) {
      known.push(await time(registration.email));
      unknown.push(await time(`nadie-${i}@example.com`));
    }
    // Load only ever adds time, so the fastest of each is the fairest comparison. Both do one
    // argon2 verification; without the dummy hash an unknown e-mail would answer several times faster.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.5);
  });

  it.each([
    [{ email: 'no-es-email', password: 'x' }, 'Email inválido', 'email'],
    [{ email: 'ana@example.com', password: '' }, 'La contraseña es requerida', 'password'],
    [{ email: 'ana@example.com' }, 'La contraseña es requerida', 'password'],
  ])('validates the payload %j: %s', async (payload, message, field) => {
    const res = await stack.client().post('/api/auth/login', payload);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'VALIDATION_ERROR' });
    expect(res.body.details.fields[field]).toBe(message);
  });
});

describe('session expiry', () => {
  // These tests change a session row behind the gateway's back (time passing), as another gateway
  // process would: the gateway sees the change once its in-memory read of the session lapses.
  const sessionReadLapses = () => new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS + 50));

  it('slides: a request after an hour renews the row and the cookie, other requests write nothing', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const sid = decodeURIComponent(client.cookie('tiendita.sid')!).split('.')[0];
    const quiet = await client.get('/api/auth/user');
    expect(quiet.status).toBe(200);
    expect(quiet.headers.getSetCookie()).toEqual([]);

    // Two hours pass since the last refresh; the row would expire in a day.
    await stack.pool.query(
      `UPDATE gateway.sessions SET expire = now() + interval '1 day',
         sess = jsonb_set(sess::jsonb, '{touchedAt}', to_jsonb((extract(epoch FROM now()) * 1000 - 2 * 3600 * 1000)::bigint))::json
       WHERE sid = $1`,
      [sid],
    );
    await sessionReadLapses();
    const renewed = await client.get('/api/auth/user');
    expect(renewed.status).toBe(200);
    expect(renewed.headers.getSetCookie().some((c) => c.startsWith('tiendita.sid='))).toBe(true);
    const row = await stack.pool.query('SELECT expire FROM gateway.sessions WHERE sid = $1', [sid]);
    expect(row.rows[0].expire.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
  });

  it('ends: an expired row no longer opens the session', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const sid = decodeURIComponent(client.cookie('tiendita.sid')!).split('.')[0];
    await stack.pool.query(`UPDATE gateway.sessions SET expire = now() - interval '1 second' WHERE sid = $1`, [sid]);
    await sessionReadLapses();
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('has an absolute lifetime: a session older than SESSION_ABSOLUTE_HOURS is refused with 401 and deleted, however recently used', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const sid = decodeURIComponent(client.cookie('tiendita.sid')!).split('.')[0];
    const row = await stack.pool.query('SELECT sess FROM gateway.sessions WHERE sid = $1', [sid]);
    expect(Math.abs(row.rows[0].sess.createdAt - Date.now())).toBeLessThan(60_000);
    // Signed in 31 days ago (default: 30 days), used a minute ago, the row still valid for days.
    await stack.pool.query(
      `UPDATE gateway.sessions SET expire = now() + interval '5 days',
         sess = jsonb_set(jsonb_set(sess::jsonb, '{createdAt}', to_jsonb((extract(epoch FROM now() - interval '31 days') * 1000)::bigint)),
                          '{touchedAt}', to_jsonb((extract(epoch FROM now()) * 1000 - 60 * 1000)::bigint))::json
       WHERE sid = $1`,
      [sid],
    );
    await sessionReadLapses();
    const res = await client.get('/api/auth/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'No autenticado', code: 'UNAUTHORIZED' });
    expect(client.cookie('tiendita.sid')).toBeUndefined();
    const rows = await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions WHERE sid = $1', [sid]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('never lets a row outlive the absolute lifetime when the sliding expiry renews it', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const sid = decodeURIComponent(client.cookie('tiendita.sid')!).split('.')[0];
    // Signed in 29 days ago, last refresh two hours ago: the renewal stops at day 30, not day 36.
    await stack.pool.query(
      `UPDATE gateway.sessions SET
         sess = jsonb_set(jsonb_set(sess::jsonb, '{createdAt}', to_jsonb((extract(epoch FROM now() - interval '29 days') * 1000)::bigint)),
                          '{touchedAt}', to_jsonb((extract(epoch FROM now()) * 1000 - 2 * 3600 * 1000)::bigint))::json
       WHERE sid = $1`,
      [sid],
    );
    await sessionReadLapses();
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const row = await stack.pool.query('SELECT expire FROM gateway.sessions WHERE sid = $1', [sid]);
    const dayMs = 24 * 3600 * 1000;
    expect(row.rows[0].expire.getTime()).toBeLessThanOrEqual(Date.now() + dayMs + 60_000);
    expect(row.rows[0].expire.getTime()).toBeGreaterThan(Date.now() + dayMs - 60_000);
  });

  it('refuses a session that does not say when it was opened (one from before the absolute lifetime)', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const sid = decodeURIComponent(client.cookie('tiendita.sid')!).split('.')[0];
    await stack.pool.query(`UPDATE gateway.sessions SET sess = (sess::jsonb - 'createdAt')::json WHERE sid = $1`, [sid]);
    await sessionReadLapses();
    expect((await client.get('/api/auth/user')).status).toBe(401);
    expect((await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions WHERE sid = $1', [sid])).rows[0].n).toBe(0);
  });
});

describe('GET /api/auth/user', () => {
  it('answers the signed-in owner with exactly the public fields: never a hash or a token', async () => {
    const client = stack.client();
    const { userId, storeId, registration } = await registerAndLogin(client);
    const res = await client.get('/api/auth/user');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: userId, email: registration.email, firstName: 'Ana', lastName: 'López', profileImageUrl: null, storeId });
    expect(res.text).not.toMatch(/argon2|hash|token/i);
  });

  it('answers 401 No autenticado when signed out', async () => {
    const res = await stack.client().get('/api/auth/user');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'No autenticado', code: 'UNAUTHORIZED' });
  });

  it('answers 401 for a forged or tampered cookie', async () => {
    const client = stack.client();
    client.cookies.set('tiendita.sid', 'inventado.firma');
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const real = stack.client();
    await registerAndLogin(real);
    const value = decodeURIComponent(real.cookie('tiendita.sid')!);
    const tampered = stack.client();
    tampered.cookies.set('tiendita.sid', encodeURIComponent(`${value.split('.')[0]}.firmaFalsa`));
    expect((await tampered.get('/api/auth/user')).status).toBe(401);
  });
});

describe('logout', () => {
  it('POST /api/auth/logout ends the session: the cookie is cleared and the old cookie no longer works', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const cookie = client.cookie('tiendita.sid')!;
    const res = await client.post('/api/auth/logout');
    expect(res.status).toBe(200);
    expect(client.cookie('tiendita.sid')).toBeUndefined();
    expect((await client.get('/api/auth/user')).status).toBe(401);
    const replay = stack.client();
    replay.cookies.set('tiendita.sid', cookie);
    expect((await replay.get('/api/auth/user')).status).toBe(401);
    expect((await replay.get('/api/store')).status).toBe(401);
    const rows = await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions WHERE sid = $1', [decodeURIComponent(cookie).split('.')[0]]);
    expect(rows.rows[0].n).toBe(0);
  });

  it('GET /api/logout ends the session and redirects to /, for a same-origin or typed navigation', async () => {
    const sameSite: Record<string, string>[] = [{ 'sec-fetch-site': 'same-origin' }, { 'sec-fetch-site': 'none' }, { referer: `${stack.url}/dashboard` }];
    for (const headers of sameSite) {
      const client = stack.client();
      await registerAndLogin(client);
      const cookie = client.cookie('tiendita.sid')!;
      const res = await client.get('/api/logout', headers);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      expect(client.cookie('tiendita.sid')).toBeUndefined();
      const replay = stack.client();
      replay.cookies.set('tiendita.sid', cookie);
      expect((await replay.get('/api/auth/user')).status).toBe(401);
    }
  });

  it('GET /api/logout from another site (an <img>, a link) leads home without ending the session', async () => {
    const client = stack.client();
    await registerAndLogin(client);
    const cookie = client.cookie('tiendita.sid')!;
    const crossSite: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-dest': 'image', referer: 'https://evil.example/' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' },
      { referer: 'https://evil.example/pagina' },
      { origin: 'https://evil.example' },
      {},
    ];
    for (const headers of crossSite) {
      const attacker = new StackClient(stack.url);
      attacker.cookies.set('tiendita.sid', cookie);
      const res = await attacker.get('/api/logout', headers);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe('/');
      expect(res.headers.getSetCookie().some((c) => c.startsWith('tiendita.sid='))).toBe(false);
    }
    expect((await client.get('/api/auth/user')).status).toBe(200);
    const rows = await stack.pool.query('SELECT count(*)::int AS n FROM gateway.sessions WHERE sid = $1', [decodeURIComponent(cookie).split('.')[0]]);
    expect(rows.rows[0].n).toBe(1);
  });

  it('deletes the row durably before answering: the old cookie is refused by a new gateway too', async () => {
    // A trigger notes where the commit mode of each session delete came from: the relaxed pool sets
    // synchronous_commit=off per connection (source 'client'); the durable pool keeps the server's
    // own setting, whatever it is (the embedded test server runs with it off as a whole).
    await stack.pool.query(`CREATE TABLE IF NOT EXISTS public.session_deletes (sid text, commit_mode text)`);
    await stack.pool.query(`CREATE OR REPLACE FUNCTION public.note_session_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO public.session_deletes SELECT OLD.sid, source FROM pg_settings WHERE name = 'synchronous_commit'; RETURN OLD; END $$`);
    await stack.pool.query(`CREATE OR REPLACE TRIGGER note_session_delete BEFORE DELETE ON gateway.sessions FOR EACH ROW EXECUTE FUNCTION public.note_session_delete()`);
    try {
      const client = stack.client();
      await registerAndLogin(client);
      const cookie = client.cookie('tiendita.sid')!;
      const sid = decodeURIComponent(cookie).split('.')[0];
      expect((await client.post('/api/auth/logout')).status).toBe(200);
      const noted = await stack.pool.query('SELECT commit_mode FROM public.session_deletes WHERE sid = $1', [sid]);
      expect(noted.rows).toHaveLength(1);
      expect(noted.rows[0].commit_mode).not.toBe('client');

      const { createApp } = await import('../src/app');
      const second = await createApp(testEnv(stack.db.url, { IDENTITY_URL: stack.services.identity!.url, WEB_DIST_DIR: '/nonexistent' }));
      try {
        await second.listen({ port: 0, host: '127.0.0.1' });
        const replay = new StackClient(`http://127.0.0.1:${(second.getHttpServer().address() as { port: number }).port}`);
        replay.cookies.set('tiendita.sid', cookie);
        expect((await replay.get('/api/auth/user')).status).toBe(401);
      } finally {
        await second.close();
      }
    } finally {
      await stack.pool.query('DROP TRIGGER IF EXISTS note_session_delete ON gateway.sessions');
    }
  });

  it('does not say "Sesión cerrada" when the session could not be deleted', async () => {
    await stack.pool.query(`CREATE OR REPLACE FUNCTION public.refuse_session_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'sesiones bloqueadas por la prueba'; END $$`);
    const client = stack.client();
    await registerAndLogin(client);
    await stack.pool.query(`CREATE OR REPLACE TRIGGER refuse_session_delete BEFORE DELETE ON gateway.sessions FOR EACH ROW EXECUTE FUNCTION public.refuse_session_delete()`);
    try {
      const res = await client.post('/api/auth/logout');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ message: 'Error interno del servidor', code: 'INTERNAL_ERROR' });
      expect(res.text).not.toContain('bloqueadas');
      expect(res.headers.getSetCookie().some((c) => c.startsWith('tiendita.sid='))).toBe(false);
    } finally {
      await stack.pool.query('DROP TRIGGER IF EXISTS refuse_session_delete ON gateway.sessions');
    }
    // The session was not ended, and the owner can log out for real now.
    expect((await client.get('/api/auth/user')).status).toBe(200);
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect((await client.get('/api/auth/user')).status).toBe(401);
  });

  it('POST /api/auth/logout without a session still answers 200', async () => {
    expect((await stack.client().post('/api/auth/logout')).status).toBe(200);
  });

  it('GET /api/login leads to the login screen', async () => {
    const res = await stack.client().get('/api/login');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/login');
  });
});

describe('stores', () => {
  it('GET /api/store needs a session (401)', async () => {
    const res = await stack.client().get('/api/store');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'No autenticado', code: 'UNAUTHORIZED' });
  });

  it('GET /api/public/store/:store finds an active store by subdomain or id, without a session, and hides the owner', async () => {
    const owner = stack.client();
    const { storeId, subdomain } = await registerAndLogin(owner);
    const visitor = stack.client();
    for (const key of [subdomain, storeId, subdomain.toUpperCase()]) {
      const res = await visitor.get(`/api/public/store/${key}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: storeId, subdomain, isActive: true, primaryColor: '#0ea5e9', totalProducts: 0 });
      expect(res.body).not.toHaveProperty('ownerId');
      expect(res.body).not.toHaveProperty('totalOrders');
    }
    expect(visitor.cookies.size).toBe(0);
  });

  it('GET /api/public/store/:store answers 404 Tienda no encontrada for an unknown or inactive store', async () => {
    const unknown = await stack.client().get('/api/public/store/no-existe-esta-tienda');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Tienda no encontrada', code: 'NOT_FOUND' });
    const { storeId, subdomain } = await registerAndLogin(stack.client());
    // The stores read model is written by a projection: wait for the row before switching it off.
    for (let tries = 0; (await stack.pool.query('UPDATE identity.stores SET is_active = false WHERE id = $1', [storeId])).rowCount === 0; tries++) {
      if (tries > 200) throw new Error('la tienda no llegó a identity.stores');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const inactive = await stack.client().get(`/api/public/store/${subdomain}`);
    expect(inactive.status).toBe(404);
    expect(inactive.body).toEqual({ message: 'Tienda no encontrada', code: 'NOT_FOUND' });
  });
});
