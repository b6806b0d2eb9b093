import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthMessages } from '@tiendita/contracts';
import { createTestDatabase, signedRequest, testCallerHeaders, testEnv, type TestDatabase } from '@tiendita/service-kit/testing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { createApp } from '../src/app';
import { LoginLog } from '../src/users/application/login-log';

let db: TestDatabase;
let app: NestFastifyApplication;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createApp(testEnv(db.url));
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const registration = {
  firstName: 'Ana',
  lastName: 'López',
  email: 'ana@example.com',
  password: 'secreto1',
  storeName: 'Abarrotería Ana',
  subdomain: 'abarroteria-ana',
  businessType: 'grocery',
  storeDepartment: 'Guatemala',
};

function signed(method: string, url: string, ids: { userId?: string; storeId?: string } = {}) {
  return testCallerHeaders({ method, path: url, ...ids });
}

describe('identity, called directly (only signed calls get in)', () => {
  it('refuses an unsigned call to an internal endpoint with 401', async () => {
    const res = await app.inject({ method: 'POST', url: '/internal/auth/register', payload: registration });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses a call signed with another secret', async () => {
    const headers = testCallerHeaders({ method: 'POST', path: '/internal/auth/verify' }, 'otro-secreto-de-prueba-1234');
    const res = await app.inject({ method: 'POST', url: '/internal/auth/verify', payload: { email: 'a@b.gt', password: 'x' }, headers });
    expect(res.statusCode).toBe(401);
  });

  it('registers, verifies the password and reads the store, user and public store', async () => {
    const reg = await app.inject(signedRequest({ method: 'POST', url: '/internal/auth/register', payload: registration }));
    expect(reg.statusCode).toBe(201);
    const { user, store } = reg.json();
    expect(user).toEqual({ id: expect.any(String), email: 'ana@example.com', firstName: 'Ana', lastName: 'López', profileImageUrl: null, storeId: store.id });

    const ok = await app.inject(signedRequest({ method: 'POST', url: '/internal/auth/verify', payload: { email: 'ANA@example.com', password: 'secreto1' } }));
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual(user);

    const bad = await app.inject(signedRequest({ method: 'POST', url: '/internal/auth/verify', payload: { email: 'ana@example.com', password: 'otra' } }));
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ message: AuthMessages.invalidCredentials, code: 'UNAUTHORIZED' });

    const me = await app.inject({ method: 'GET', url: '/api/auth/user', headers: signed('GET', '/api/auth/user', { userId: user.id, storeId: store.id }) });
    expect(me.json()).toEqual(user);

    const mine = await app.inject({ method: 'GET', url: '/api/store', headers: signed('GET', '/api/store', { userId: user.id, storeId: store.id }) });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ id: store.id, subdomain: 'abarroteria-ana', totalProducts: 0, totalOrders: 0 });

    const pub = await app.inject({ method: 'GET', url: '/api/public/store/abarroteria-ana', headers: signed('GET', '/api/public/store/abarroteria-ana') });
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).not.toHaveProperty('ownerId');
  });
});

describe('the sign-in log (UserLoggedIn, batched)', () => {
  const verify = (email: string, password: string) =>
    app.inject(signedRequest({ method: 'POST', url: '/internal/auth/verify', payload: { email, password } }));
  const loginEvents = (userIds: string[]) =>
    app
      .get<Pool>(PG_POOL)
      .query<{ stream_id: string; transaction_id: string; data: { userId: string; loggedInAt: string } }>(
        `SELECT stream_id, transaction_id::text, data FROM identity.events WHERE type = 'UserLoggedIn' AND stream_id = ANY($1) ORDER BY global_position`,
        [userIds.map((id) => `user-logins-${id}`)],
      );

  it('writes the sign-ins of a burst together, one event each, and sets lastLoginAt from them', async () => {
    const users: string[] = [];
    for (const name of ['uno', 'dos', 'tres']) {
      const reg = await app.inject(
        signedRequest({
          method: 'POST',
          url: '/internal/auth/register',
          payload: { ...registration, email: `${name}@example.com`, subdomain: `tienda-${name}` },
        }),
      );
      expect(reg.statusCode).toBe(201);
      users.push(reg.json().user.id);
    }
    const log = app.get(LoginLog);
    // Three sign-ins at once, answered before the log is written.
    const answers = await Promise.all(['uno', 'dos', 'tres'].map((name) => verify(`${name}@example.com`, 'secreto1')));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    await log.flush();
    const events = await loginEvents(users);
    expect(events.rows.map((e) => e.data.userId).sort()).toEqual([...users].sort());

    const pool = app.get<Pool>(PG_POOL);
    let rows: { id: string; last_login_at: Date | null }[] = [];
    for (let i = 0; i < 100; i++) {
      rows = (await pool.query('SELECT id, last_login_at FROM identity.users WHERE id = ANY($1)', [users])).rows;
      if (rows.length === 3 && rows.every((r) => r.last_login_at)) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(rows.map((r) => r.last_login_at?.toISOString()).sort()).toEqual(events.rows.map((e) => e.data.loggedInAt).sort());
    // A wrong password records nothing.
    expect((await verify('uno@example.com', 'mala')).statusCode).toBe(401);
    await log.flush();
    expect((await loginEvents(users)).rows).toHaveLength(3);
  });

  it('writes the sign-ins waiting at a flush in one statement (one transaction)', async () => {
    const log = app.get(LoginLog);
    const ids = ['5d7a0e1c-0000-4000-8000-000000000001', '5d7a0e1c-0000-4000-8000-000000000002', '5d7a0e1c-0000-4000-8000-000000000003'];
    const at = new Date().toISOString();
    for (const userId of ids) log.record({ data: { userId, loggedInAt: at }, storeId: '5d7a0e1c-0000-4000-8000-0000000000ff', correlationId: null });
    await log.flush();
    const events = await loginEvents(ids);
    expect(events.rows.map((e) => e.data.userId)).toEqual(ids);
    expect(new Set(events.rows.map((e) => e.transaction_id)).size).toBe(1);
  });

  it('sets lastLoginAt to the latest of several sign-ins of one user written together', async () => {
    const log = app.get(LoginLog);
    const reg = await app.inject(
      signedRequest({
        method: 'POST',
        url: '/internal/auth/register',
        payload: { ...registration, email: 'cinco@example.com', subdomain: 'tienda-cinco' },
      }),
    );
    const { user } = reg.json();
    const times = ['2026-03-01T10:00:02.000Z', '2026-03-01T10:00:03.000Z', '2026-03-01T10:00:01.000Z'];
    for (const loggedInAt of times) log.record({ data: { userId: user.id, loggedInAt }, storeId: user.storeId, correlationId: null });
    await log.flush();
    const events = await loginEvents([user.id]);
    expect(events.rows.map((e) => e.data.loggedInAt)).toEqual(times);
    const pool = app.get<Pool>(PG_POOL);
    let last: Date | null = null;
    for (let i = 0; i < 100 && last?.toISOString() !== times[1]; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      last = (await pool.query<{ last_login_at: Date | null }>('SELECT last_login_at FROM identity.users WHERE id = $1', [user.id])).rows[0]?.last_login_at ?? null;
    }
    expect(last?.toISOString()).toBe(times[1]);
  });

  it('keeps the sign-ins when the database refuses them and writes them on the next try', async () => {
    const log = app.get(LoginLog);
    const pool = app.get<Pool>(PG_POOL);
    const userId = '5d7a0e1c-0000-4000-8000-000000000010';
    // A real refusal from PostgreSQL: a constraint that no UserLoggedIn passes, for a while.
    await pool.query(`ALTER TABLE identity.events ADD CONSTRAINT test_refuse_logins CHECK (type <> 'UserLoggedIn') NOT VALID`);
    try {
      log.record({ data: { userId, loggedInAt: new Date().toISOString() }, storeId: '5d7a0e1c-0000-4000-8000-0000000000ff', correlationId: null });
      await log.flush();
      expect((await loginEvents([userId])).rows).toHaveLength(0);
    } finally {
      await pool.query('ALTER TABLE identity.events DROP CONSTRAINT test_refuse_logins');
    }
    // The retry comes by itself, about a second later.
    let rows: unknown[] = [];
    for (let i = 0; i < 60 && rows.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = (await loginEvents([userId])).rows;
    }
    expect(rows).toHaveLength(1);
  });

  it('writes what is waiting when the service stops', async () => {
    const other = await createApp(testEnv(db.url));
    try {
      const reg = await other.inject(
        signedRequest({
          method: 'POST',
          url: '/internal/auth/register',
          payload: { ...registration, email: 'cuatro@example.com', subdomain: 'tienda-cuatro' },
        }),
      );
      const userId = reg.json().user.id;
      const ok = await other.inject(signedRequest({ method: 'POST', url: '/internal/auth/verify', payload: { email: 'cuatro@example.com', password: 'secreto1' } }));
      expect(ok.statusCode).toBe(200);
      await other.close();
      expect((await loginEvents([userId])).rows).toHaveLength(1);
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});
