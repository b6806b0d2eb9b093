import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AuthMessages } from '@tiendita/contracts';
import { createTestDatabase, testCallerHeaders, testEnv, type TestDatabase } from '@tiendita/service-kit/testing';
import { createApp } from '../src/app';

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
    const reg = await app.inject({ method: 'POST', url: '/internal/auth/register', payload: registration, headers: signed('POST', '/internal/auth/register') });
    expect(reg.statusCode).toBe(201);
    const { user, store } = reg.json();
    expect(user).toEqual({ id: expect.any(String), email: 'ana@example.com', firstName: 'Ana', lastName: 'López', profileImageUrl: null, storeId: store.id });

    const ok = await app.inject({ method: 'POST', url: '/internal/auth/verify', payload: { email: 'ANA@example.com', password: 'secreto1' }, headers: signed('POST', '/internal/auth/verify') });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual(user);

    const bad = await app.inject({ method: 'POST', url: '/internal/auth/verify', payload: { email: 'ana@example.com', password: 'otra' }, headers: signed('POST', '/internal/auth/verify') });
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
