import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestDatabase, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
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

it('answers GET /health once its database is reachable', async () => {
  const res = await app.inject({ method: 'GET', url: '/health' });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'ok', service: 'ordering', ready: true });
});
