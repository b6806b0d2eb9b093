import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestDatabase, signedRequest, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { createApp } from '../src/app';
import { orderingStore, orderPlaced, place } from './support/orders';

/**
 * The operator's command against a running reporting service: `npm run replay -- --list`,
 * `--dead-letters`, `--retry <id>` and `--skip <id>` (scripts/replay.mjs, run as an operator runs
 * it, on the test's database), while the service keeps answering /api/stats.
 */
const root = join(__dirname, '..', '..', '..');
let db: TestDatabase;
let app: NestFastifyApplication;
let pool: pg.Pool;
const storeId = randomUUID();

beforeAll(async () => {
  db = await createTestDatabase();
  app = await createApp(testEnv(db.url));
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await orderingStore(pool).migrate();
}, 60_000);
afterAll(async () => {
  await app?.close();
  await pool?.end();
  await db?.drop();
});

function replay(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(root, 'scripts', 'replay.mjs'), ...args], { cwd: root, env: { ...process.env, DATABASE_URL: db.url }, timeout: 120_000 }, (error, out, err) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: String(out), err: String(err) }),
    );
  });
}

async function stats(): Promise<{ todayOrders: number; todaySales: number }> {
  const res = await app.inject(signedRequest({ method: 'GET', url: '/api/stats', userId: randomUUID(), storeId }));
  return res.json();
}

async function eventually<T>(probe: () => Promise<T>, ok: (x: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const x = await probe();
    if (ok(x) || Date.now() > until) return x;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const sale = (unitPrice: number) =>
  orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: new Date().toISOString(), lines: [{ productId: randomUUID(), productName: 'Café', quantity: 1, unitPrice }] });

/** The id of the one dead letter `--dead-letters` prints (its first column). */
function onlyId(out: string): string {
  const lines = out.split('\n').filter((l) => l.startsWith('reporting.sales:'));
  // The store's sale that failed, and its later sale held behind it (issue 26: dead letters per store).
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain('apartado detrás de otro');
  return lines[0].split(/\s+/)[0];
}

/** The sale's store has both its sales set aside: the failed one and the one behind it. */
const setAside = async () => Number((await pool.query(`SELECT count(*) AS n FROM reporting.dead_letters WHERE projection = 'sales'`)).rows[0].n);

it('lists, retries and skips a dead-lettered sale from the command line while the service runs; the service follows again by itself', async () => {
  const ordering = orderingStore(pool);
  await place(ordering, sale(1000));
  expect((await eventually(stats, (s) => s.todayOrders === 1)).todayOrders).toBe(1);

  // A constraint the read model cannot honour (say, left by a bad migration): the next big sale is dead-lettered.
  await pool.query('ALTER TABLE reporting.sales_daily ADD CONSTRAINT tope_diario CHECK (amount <= 100000)');
  await place(ordering, sale(250_000));
  await place(ordering, sale(2000));
  await eventually(setAside, (n) => n === 2);
  expect(await stats()).toMatchObject({ todayOrders: 1, todaySales: 10 });

  const list = await replay('--list');
  expect(list.code).toBe(0);
  const salesLine = list.out.split('\n').find((l) => l.startsWith('reporting.sales '))!;
  // Only this store is set aside: the projection runs on for every other store.
  expect(salesLine).toMatch(/en marcha/);
  expect(salesLine.trimEnd()).toMatch(/ 2 \(tienda apartada: [0-9a-f-]{36}\)$/);
  // Every service's projections are listed, with or without tables here.
  for (const p of ['catalog.', 'identity.', 'inventory.', 'ordering.', 'reporting.stock']) expect(list.out).toContain(p);

  const dead = await replay('--dead-letters', 'reporting');
  expect(dead.code).toBe(0);
  const id = onlyId(dead.out);
  expect(dead.out).toContain('evento apartado');
  expect(dead.out).toContain('tope_diario');

  const failed = await replay('--retry', id);
  expect(failed.code).toBe(1);
  expect(failed.err).toContain('volvió a fallar en sales');
  expect(failed.err).toContain(`Sigue en pausa (4 intentos). Corrige la proyección y vuelve a intentarlo, o descártalo con --skip ${id}`);

  await pool.query('ALTER TABLE reporting.sales_daily DROP CONSTRAINT tope_diario'); // the fix
  const retried = await replay('--retry', id);
  expect(retried.code).toBe(0);
  expect(retried.out).toContain(`${id}: OrderPlaced`);
  expect(retried.out).toContain('aplicado a la proyección en vivo (2 evento(s)) y dead letter quitado; la tienda');
  // The retry applied the sale that waited behind it, in order.
  expect(await eventually(stats, (s) => s.todayOrders === 3)).toMatchObject({ todayOrders: 3, todaySales: 10 + 2500 + 20 });

  // Once more, and this time the operator leaves the event out.
  await pool.query('ALTER TABLE reporting.sales_daily ADD CONSTRAINT tope_diario CHECK (amount <= 300000)');
  await place(ordering, sale(500_000));
  await place(ordering, sale(3000));
  await eventually(setAside, (n) => n === 2);
  const second = onlyId((await replay('--dead-letters', 'reporting.sales')).out);
  expect(second).not.toBe(id);
  const skipped = await replay('--skip', second);
  expect(skipped.code).toBe(0);
  expect(skipped.out).toContain('descartado; la proyección sigue sin él; la tienda');
  expect(await eventually(stats, (s) => s.todayOrders === 4)).toMatchObject({ todayOrders: 4, todaySales: 10 + 2500 + 20 + 30 });

  expect((await replay('--dead-letters')).out).toContain('No hay dead letters.');
  const after = (await replay('--list')).out.split('\n').find((l) => l.startsWith('reporting.sales '))!;
  expect(after).toMatch(/en marcha/);
  expect(after.trimEnd()).toMatch(/ 0$/);

  const bad = await replay('--retry', 'reporting.sales:999999');
  expect(bad.code).toBe(1);
  expect(bad.err.trim()).toBe('No existe el dead letter reporting.sales:999999 (npm run replay -- --dead-letters los lista)');
  const malformed = await replay('--skip');
  expect(malformed.code).toBe(1);
  expect(malformed.err).toContain('Falta el id del dead letter');
}, 240_000);
