import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestDatabase, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createApp } from '../src/app';

let db: TestDatabase;
let webDir: string;

beforeAll(async () => {
  db = await createTestDatabase();
  webDir = mkdtempSync(join(tmpdir(), 'tiendita-web-'));
  mkdirSync(join(webDir, 'dist', 'assets'), { recursive: true });
  writeFileSync(join(webDir, 'dist', 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(webDir, 'dist', 'assets', 'app-abc123.js'), 'console.log("hola")');
});

afterAll(async () => {
  rmSync(webDir, { recursive: true, force: true });
  await db?.drop();
});

describe('the gateway serving the web build', () => {
  let app: NestFastifyApplication;
  beforeAll(async () => {
    app = await createApp(testEnv(db.url, { WEB_DIST_DIR: join(webDir, 'dist') }));
  });
  afterAll(() => app?.close());

  it('answers /health', async () => {
    const res = await app.inject({ method: 'GET', url: '/health' });
    expect(res.json()).toEqual({ status: 'ok', service: 'gateway', ready: true });
  });

  it('serves a built file with a long cache', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("hola")');
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('serves a file written after start (a rebuild) and answers 404 for a missing one', async () => {
    writeFileSync(join(webDir, 'dist', 'assets', 'app-new456.js'), 'console.log("nuevo")');
    const res = await app.inject({ method: 'GET', url: '/assets/app-new456.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('console.log("nuevo")');
    const missing = await app.inject({ method: 'GET', url: '/assets/app-old000.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Ruta no encontrada', code: 'NOT_FOUND' });
  });

  it('serves the pre-compressed file when the client accepts it', async () => {
    writeFileSync(join(webDir, 'dist', 'assets', 'big-789.js.gz'), 'gz-bytes');
    writeFileSync(join(webDir, 'dist', 'assets', 'big-789.js'), 'plain');
    const res = await app.inject({ method: 'GET', url: '/assets/big-789.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.body).toBe('gz-bytes');
  });

  it('refuses to leave the build folder', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/..%2F..%2Fetc%2Fpasswd.txt' });
    expect([403, 404]).toContain(res.statusCode);
  });

  it('answers index.html for client routes', async () => {
    for (const url of ['/', '/dashboard', '/demo/productos/123?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toBe('<!doctype html><div id="root"></div>');
    }
  });

  it('compresses a page as the browser accepts it (brotli, else gzip)', async () => {
    const br = await app.inject({ method: 'GET', url: '/dashboard', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe('<!doctype html><div id="root"></div>');
    const gzip = await app.inject({ method: 'GET', url: '/dashboard', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe('<!doctype html><div id="root"></div>');
  });

  it('answers an unknown /api route with the 404 error body', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/no-existe' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Ruta no encontrada', code: 'NOT_FOUND' });
    const post = await app.inject({ method: 'POST', url: '/api/no-existe', headers: { origin: 'http://localhost:80' }, payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ message: 'Ruta no encontrada', code: 'NOT_FOUND' });
  });
});

it('explains in Spanish when the web build is missing', async () => {
  const app = await createApp(testEnv(db.url, { WEB_DIST_DIR: join(webDir, 'no-hay') }));
  try {
    const res = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('Falta la compilación web');
  } finally {
    await app.close();
  }
});
