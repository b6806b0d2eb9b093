import { PostgresEventStore, PostgresTransport, type Projection } from '@tiendita/eventsourcing';
import { recordStatements } from '@tiendita/eventsourcing/testing';
import { createPool, ProjectionHost } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import pino from 'pino';
import type pg from 'pg';

/**
 * ProjectionHost.fresh: a read right after another service's write waits until the read model has
 * taken that write in. The projection here is slow on purpose (each batch sleeps), so a read that
 * did not wait would see the old rows every time, not by chance.
 */
let db: TestDatabase;
let pool: pg.Pool;
let source: PostgresEventStore;
let host: ProjectionHost;
let applyDelayMs = 300;

const sales: Projection<'sales'> = {
  name: 'sales',
  version: 1,
  sources: ['tienda'],
  tables: ['sales'],
  async setup(tx, t) {
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.sales} (id text PRIMARY KEY)`);
  },
  async apply(tx, events, t) {
    await new Promise((r) => setTimeout(r, applyDelayMs));
    for (const e of events) await tx.query(`INSERT INTO ${t.sales} (id) VALUES ($1) ON CONFLICT DO NOTHING`, [e.streamId]);
  },
};

/** Statements sent by the host's pool, by text (to count the checkpoint reads of the waits). */
let texts: string[] = [];
const count = async () => Number((await pool.query('SELECT count(*) AS n FROM lector.sales')).rows[0].n);

beforeAll(async () => {
  db = await createTestDatabase();
  pool = createPool(db.url);
  texts = recordStatements(pool);
  await pool.query('CREATE SCHEMA lector');
  source = new PostgresEventStore(pool, 'tienda');
  await source.migrate();
  const transport = new PostgresTransport({ pool, schema: 'lector', connectionString: db.url, pollIntervalMs: 60_000 });
  host = new ProjectionHost(pool, transport, pino({ level: 'silent' }), { schema: 'lector', projections: [sales] });
  await host.onApplicationBootstrap();
  await host.caughtUp();
}, 30_000);

afterAll(async () => {
  await host?.onModuleDestroy();
  await pool?.end();
  await db?.drop();
});

describe('ProjectionHost.fresh (read-your-writes for reads)', () => {
  it('waits until a committed event of another service is in the read model, then answers', async () => {
    applyDelayMs = 300;
    for (let i = 1; i <= 3; i++) {
      await source.append(`venta-${i}`, [{ type: 'Sold', data: {} }], 0);
      const started = Date.now();
      await host.fresh([{ projection: 'sales', source: 'tienda' }]);
      expect(await count()).toBe(i);
      // It waited for the slow batch (≈300 ms), and no longer than needed.
      expect(Date.now() - started).toBeGreaterThanOrEqual(150);
      expect(Date.now() - started).toBeLessThan(1_000);
    }
  });

  it('fifty reads behind at once share one wait, and all see the write', async () => {
    applyDelayMs = 300;
    await source.append('venta-extra', [{ type: 'Sold', data: {} }], 0);
    texts.length = 0;
    const seen = await Promise.all(
      Array.from({ length: 50 }, async () => {
        await host.fresh([{ projection: 'sales', source: 'tienda' }]);
        return count();
      }),
    );
    expect(new Set(seen)).toEqual(new Set([4]));
    // One wait polls the checkpoint (about every 20 ms over ~300 ms), not fifty.
    const checkpointReads = texts.filter((t) => t.includes('FROM lector.subscription_checkpoints WHERE group_name = $1 AND source = $2')).length;
    expect(checkpointReads).toBeLessThan(50);
    await pool.query(`DELETE FROM lector.sales WHERE id = 'venta-extra'`);
  });

  it('answers at once when the read model is up to date (one small query)', async () => {
    const started = Date.now();
    for (let i = 0; i < 20; i++) await host.fresh([{ projection: 'sales', source: 'tienda' }]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await count()).toBe(3);
  });

  it('never fails the read: after timeoutMs it answers with what is there', async () => {
    applyDelayMs = 1_500;
    await source.append('venta-4', [{ type: 'Sold', data: {} }], 0);
    const started = Date.now();
    await host.fresh([{ projection: 'sales', source: 'tienda' }], 200);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await count()).toBe(3);
    applyDelayMs = 0;
    await host.caughtUp();
    expect(await count()).toBe(4);
  });

  it('a source with no events, or an empty list, waits for nothing', async () => {
    const empty = new PostgresEventStore(pool, 'vacia');
    await empty.migrate();
    await pool.query(`INSERT INTO lector.subscription_checkpoints (group_name, source, partition) VALUES ('lector.sales', 'vacia', 0) ON CONFLICT DO NOTHING`);
    const started = Date.now();
    await host.fresh([{ projection: 'sales', source: 'vacia' }]);
    await host.fresh([]);
    expect(Date.now() - started).toBeLessThan(500);
  });
});
