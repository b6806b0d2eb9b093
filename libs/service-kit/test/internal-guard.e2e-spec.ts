import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@tiendita/contracts';
import { Caller, type CallerIdentity, createServiceApp, Owner, type OwnerIdentity, parseConfig, signInternalHeaders } from '@tiendita/service-kit';
import { createTestDatabase, TEST_INTERNAL_SECRET, type TestDatabase, testCallerHeaders, testEnv } from '@tiendita/service-kit/testing';

@Controller()
class WhoController {
  @Get('who')
  who(@Caller() caller: CallerIdentity) {
    return caller;
  }

  @Get('mine')
  mine(@Owner() owner: OwnerIdentity) {
    return owner;
  }

  @Post('echo')
  echo(@Body() body: unknown) {
    return body;
  }
}

@Module({ controllers: [WhoController] })
class WhoModule {}

let db: TestDatabase;
let app: NestFastifyApplication;
let url: string;

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createServiceApp({ name: 'prueba', module: WhoModule, config: parseConfig(undefined, testEnv(db.url)) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  url = await app.getUrl();
  url = url.replace('[::1]', '127.0.0.1');
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const unauthorized = { message: 'Llamada interna no autorizada', code: ErrorCode.unauthorized };

describe('the internal caller guard (real HTTP)', () => {
  it('lets a signed call through and exposes the caller', async () => {
    const res = await fetch(`${url}/who?x=1`, { headers: testCallerHeaders({ method: 'GET', path: '/who?x=1', userId: 'u1', storeId: 's1' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ userId: 'u1', storeId: 's1' });
  });

  it('gives @Caller() nulls for an anonymous signed call, and @Owner() answers 401 No autenticado', async () => {
    const anonymous = await fetch(`${url}/who`, { headers: testCallerHeaders({ method: 'GET', path: '/who' }) });
    expect(await anonymous.json()).toEqual({ userId: null, storeId: null });
    const owner = await fetch(`${url}/mine`, { headers: testCallerHeaders({ method: 'GET', path: '/mine', userId: 'u1' }) });
    expect(owner.status).toBe(401);
    expect(await owner.json()).toEqual({ message: 'No autenticado', code: ErrorCode.unauthorized });
    const ok = await fetch(`${url}/mine`, { headers: testCallerHeaders({ method: 'GET', path: '/mine', userId: 'u1', storeId: 's1' }) });
    expect(await ok.json()).toEqual({ userId: 'u1', storeId: 's1' });
  });

  it('refuses an unsigned call with 401', async () => {
    const res = await fetch(`${url}/who`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(unauthorized);
  });

  it('refuses a bad signature and a tampered store with 401', async () => {
    const wrongSecret = await fetch(`${url}/who`, { headers: signInternalHeaders('otro-secreto-largo-123', { method: 'GET', path: '/who', userId: 'u1', storeId: 's1' }) });
    expect(wrongSecret.status).toBe(401);
    const tampered = await fetch(`${url}/who`, { headers: { ...testCallerHeaders({ method: 'GET', path: '/who', userId: 'u1', storeId: 's1' }), 'x-tiendita-store-id': 's2' } });
    expect(tampered.status).toBe(401);
    expect(await tampered.json()).toEqual(unauthorized);
  });

  it('refuses the same signed call sent twice (a replay) with 401', async () => {
    const headers = testCallerHeaders({ method: 'GET', path: '/who', userId: 'u1', storeId: 's1' });
    expect((await fetch(`${url}/who`, { headers })).status).toBe(200);
    const replay = await fetch(`${url}/who`, { headers });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual(unauthorized);
  });

  it('checks the body against its signed hash, and the query string', async () => {
    const body = JSON.stringify({ total: 100 });
    const signed = { 'content-type': 'application/json', ...testCallerHeaders({ method: 'POST', path: '/echo', userId: 'u1', storeId: 's1', body }) };
    const ok = await fetch(`${url}/echo`, { method: 'POST', headers: signed, body });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ total: 100 });
    const again = { 'content-type': 'application/json', ...testCallerHeaders({ method: 'POST', path: '/echo', userId: 'u1', storeId: 's1', body }) };
    const tampered = await fetch(`${url}/echo`, { method: 'POST', headers: again, body: JSON.stringify({ total: 1 }) });
    expect(tampered.status).toBe(401);
    const query = await fetch(`${url}/who?storeId=otra`, { headers: testCallerHeaders({ method: 'GET', path: '/who', userId: 'u1', storeId: 's1' }) });
    expect(query.status).toBe(401);
  });

  it('refuses a stale call (older than the 30 s window) with 401', async () => {
    const res = await fetch(`${url}/who`, { headers: signInternalHeaders(TEST_INTERNAL_SECRET, { method: 'GET', path: '/who', userId: 'u1', storeId: 's1', timestamp: Date.now() - 60 * 1000 }) });
    expect(res.status).toBe(401);
  });

  it('leaves /health open and checks the database', async () => {
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok', service: 'prueba', ready: true });
  });
});
