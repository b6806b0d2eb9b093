import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import { PostgresTransport, type RecordedEventWithTx, type Subscription, type TransportLogger } from '../src';
import { eventually, migratedStore, openTestDb, type TestDb } from './support';

jest.setTimeout(60_000);

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

/** Backends of this database listening for a transport of `schema` (its LISTEN connection). */
async function listeners(schema: string): Promise<number[]> {
  const r = await db.pool.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1`, [`tiendita-${schema}-listen`]);
  return r.rows.map((x) => x.pid);
}

describe('the postgres transport after PostgreSQL drops its LISTEN connection', () => {
  it('connects it again with backoff, logs it, listens again, and NOTIFYs wake the subscription without the poll', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    const lines: string[] = [];
    const logger: TransportLogger = { info: (_o, msg) => lines.push(`info ${msg}`), warn: (_o, msg) => lines.push(`warn ${msg}`) };
    // A poll of a minute: only a NOTIFY can bring an event within the waits below.
    const transport = new PostgresTransport({ pool: db.pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000, listenRetryMs: 100, logger });
    const seen: string[] = [];
    let sub: Subscription | null = null;
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        handle: async (events: RecordedEventWithTx[], _tx: PoolClient) => {
          seen.push(...events.map((e) => e.streamId));
        },
      });
      await store.append('antes', [{ type: 'Paso', data: {} }], 0);
      await eventually(async () => seen.length === 1, 5_000, 'the event before the loss');
      const [pid] = await listeners(consumer);
      expect(pid).toBeDefined();

      // What a PostgreSQL restart does to the connection: the server ends it.
      await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
      await eventually(async () => lines.some((l) => l.startsWith('info Conexión LISTEN') && l.includes('restablecida')), 10_000, 'the reconnection');
      expect(lines[0]).toBe(`warn Se perdió la conexión LISTEN de ${consumer} con PostgreSQL; se reconecta`);
      const again = await listeners(consumer);
      expect(again).toHaveLength(1);
      expect(again[0]).not.toBe(pid);

      await store.append('despues', [{ type: 'Paso', data: {} }], 0);
      await eventually(async () => seen.length === 2, 3_000, 'the event after the reconnection, woken by its NOTIFY');
      expect(seen).toEqual(['antes', 'despues']);
    } finally {
      await sub?.stop();
      await transport.close();
    }
    expect(await listeners(consumer)).toEqual([]);
  });
});
