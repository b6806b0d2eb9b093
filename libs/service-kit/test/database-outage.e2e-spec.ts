import { Controller, Get, Inject, Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@tiendita/contracts';
import { createPool, createServiceApp, parseConfig, PG_POOL } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import { freePort } from '../../../scripts/lib/free-ports.cjs';
import type pg from 'pg';

const SPANISH_503 = { message: 'Servicio no disponible, inténtalo de nuevo en un momento', code: ErrorCode.unavailable };

/** A port nothing listens on (free below the ephemeral range, so no connection's source port either). */
const closedPort = freePort;

@Controller('t')
class ReadController {
  constructor(@Inject(PG_POOL) private readonly pool: pg.Pool) {}

  @Get('read')
  async read() {
    return (await this.pool.query<{ one: number }>('SELECT 1 AS one')).rows[0];
  }

  /** A connection killed under a running query (as a PostgreSQL restart does). */
  @Get('terminated')
  async terminated() {
    const client = await this.pool.connect();
    client.on('error', () => undefined);
    try {
      const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const killer = createPool(process.env.__OUTAGE_DB_URL__ as string, { max: 1 });
      const running = client.query('SELECT pg_sleep(5)');
      // The query fails as soon as its backend is gone, which may be before the killer's own answer
      // arrives: a rejection with no handler yet would fail the test on its own (Node's unhandled rejection).
      running.catch(() => undefined);
      await new Promise((r) => setTimeout(r, 100));
      await killer.query('SELECT pg_terminate_backend($1)', [pid]);
      await killer.end();
      return await running;
    } finally {
      client.release(true);
    }
  }

  @Get('broken-sql')
  async broken() {
    return (await this.pool.query('SELECT * FROM no_such_table')).rows;
  }
}

@Module({ controllers: [ReadController] })
class ReadModule {}

let db: TestDatabase;
const apps: NestFastifyApplication[] = [];
const pools: pg.Pool[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  process.env.__OUTAGE_DB_URL__ = db.url;
});

afterAll(async () => {
  for (const app of apps) await app.close();
  for (const pool of pools) await pool.end().catch(() => undefined);
  await db?.drop();
});

async function appOn(pool: pg.Pool): Promise<NestFastifyApplication> {
  pools.push(pool);
  const app = await createServiceApp({ name: 'prueba', module: ReadModule, config: parseConfig(undefined, testEnv(db.url)), internalAuth: false, pool });
  apps.push(app);
  return app;
}

describe('a database that cannot be reached answers 503 in Spanish, not 500', () => {
  it('a refused connection (PostgreSQL down) is a 503 the client may retry', async () => {
    const app = await appOn(createPool(db.url));
    // The pool the requests use points at a closed port from now on: every new connection is refused.
    const refused = createPool(`postgres://postgres@127.0.0.1:${await closedPort()}/nada`);
    pools.push(refused);
    const original = (app.get(PG_POOL) as pg.Pool).query;
    (app.get(PG_POOL) as pg.Pool).query = refused.query.bind(refused) as typeof original;
    const res = await app.inject({ method: 'GET', url: '/t/read' });
    (app.get(PG_POOL) as pg.Pool).query = original;
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(SPANISH_503);
  });

  it('a connection lost under a running query (a restart) is a 503 too', async () => {
    const app = await appOn(createPool(db.url));
    const res = await app.inject({ method: 'GET', url: '/t/terminated' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(SPANISH_503);
  });

  it('a query that fails on its own is still a 500 with the generic message', async () => {
    const app = await appOn(createPool(db.url));
    const res = await app.inject({ method: 'GET', url: '/t/broken-sql' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Error interno del servidor', code: ErrorCode.internal });
  });
});
