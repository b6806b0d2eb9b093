import { DeadLetters, PostgresEventStore, PostgresTransport, type Projection } from '@tiendita/eventsourcing';
import { createPool, mapError, ProjectionHost, StoreDataUnavailableError } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import pino from 'pino';
import type pg from 'pg';

/**
 * A store whose event a read model set aside reads 503 in Spanish; the other stores read on, and the
 * store reads again once the event is skipped (or retried) from the replay tool.
 */
let db: TestDatabase;
let pool: pg.Pool;
let source: PostgresEventStore;
let host: ProjectionHost;
let tool: PostgresTransport;

const orders: Projection<'orders'> = {
  name: 'orders',
  version: 1,
  sources: ['caja'],
  tables: ['orders'],
  async setup(tx, t) {
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.orders} (id text PRIMARY KEY, store_id text NOT NULL)`);
  },
  async apply(tx, events, t) {
    for (const e of events) {
      if ((e.data as { total: number }).total > 1_000_000) throw new Error('total fuera de rango');
      await tx.query(`INSERT INTO ${t.orders} (id, store_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [e.streamId, e.metadata.storeId]);
    }
  },
};
const pairs = [{ projection: 'orders', source: 'caja' }];

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url);
  await pool.query('CREATE SCHEMA lector');
  source = new PostgresEventStore(pool, 'caja');
  await source.migrate();
  const transport = new PostgresTransport({ pool, schema: 'lector', connectionString: db.url, pollIntervalMs: 100, retryDelayMs: 20 });
  host = new ProjectionHost(pool, transport, pino({ level: 'silent' }), { schema: 'lector', projections: [orders] });
  await host.onApplicationBootstrap();
  tool = new PostgresTransport({ pool, schema: 'lector', connectionString: db.url });
}, 30_000);

afterAll(async () => {
  await host?.onModuleDestroy();
  await tool?.close();
  await pool?.end();
  await db?.drop();
});

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`no llegó: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('reads of a store with an event set aside', () => {
  it('answer 503 in Spanish for that store only, until the event is skipped', async () => {
    await source.append('pedido-b', [{ type: 'Pedido', data: { total: 5_000_000_000 } }], 0, { storeId: 'B' });
    await source.append('pedido-a', [{ type: 'Pedido', data: { total: 100 } }], 0, { storeId: 'A' });
    await until(() => host.runner.isStoreBlocked('orders', 'B'), 15_000, 'la tienda B apartada');
    await until(async () => (await pool.query(`SELECT 1 FROM lector.orders WHERE id = 'pedido-a'`)).rowCount === 1, 10_000, 'el pedido de A');

    const refused = await host.fresh(pairs, undefined, 'B').then(() => null, (error: unknown) => error);
    expect(refused).toBeInstanceOf(StoreDataUnavailableError);
    expect(mapError(refused)).toEqual({
      status: 503,
      body: {
        message: 'Esta información de la tienda no está disponible por ahora: un cambio no se pudo procesar y se está revisando. Inténtalo más tarde.',
        code: 'SERVICE_UNAVAILABLE',
        details: { projection: 'orders', storeId: 'B' },
      },
    });
    await expect(host.fresh(pairs, undefined, 'A')).resolves.toBeUndefined();

    const dead = new DeadLetters({ pool, schema: 'lector', projections: [orders], transport: tool });
    const [entry] = await dead.list();
    expect(entry).toMatchObject({ storeId: 'B', held: false, streamId: 'pedido-b' });
    await dead.skip(entry.id);
    // The running service sees it within its resume check (every 2 s).
    await until(() => !host.runner.isStoreBlocked('orders', 'B'), 10_000, 'la tienda B de vuelta');
    await expect(host.fresh(pairs, undefined, 'B')).resolves.toBeUndefined();
  }, 40_000);
});
