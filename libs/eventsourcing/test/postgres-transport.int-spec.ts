import { randomBytes } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { notifyChannel, PostgresTransport, type RecordedEventWithTx, type Subscription } from '../src';
import { eventually, migratedStore, openTestDb, type TestDb } from './support';

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

describe('the postgres transport, woken with nothing new', () => {
  it('answers a NOTIFY with nothing new without a commit (its locked pass rolls back); a new event still arrives at once', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    // The transport's own pool, whose clients count the commits they send (a commit of a transaction
    // that locked the checkpoint row waits for a WAL flush; a rollback does not).
    const pool = new Pool({ connectionString: db.url, max: 4 });
    let commits = 0;
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
        if (text && /\bCOMMIT\b/.test(text)) commits++;
        return query(...args);
      };
    });
    const transport = new PostgresTransport({ pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
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
      await store.append('s-1', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 1, 10_000, 'the first event');
      await new Promise((r) => setTimeout(r, 200)); // the pass after the batch
      commits = 0;

      for (let i = 0; i < 20; i++) {
        await db.pool.query('SELECT pg_notify($1, $2)', [notifyChannel(source), '']);
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(commits).toBe(0);

      await store.append('s-2', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 2, 2_000, 'the second event, woken by its NOTIFY');
      expect(seen).toEqual(['s-1', 's-2']);
      expect(commits).toBeGreaterThan(0);
      // caughtUp() still takes the locked path and ends.
      await sub.caughtUp();
    } finally {
      await sub?.stop();
      await transport.close();
      await pool.end();
    }
  });

  it('looks again shortly for an event an older transaction held back, without waiting for the poll', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    const transport = new PostgresTransport({ pool: db.pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
    const seen: string[] = [];
    let sub: Subscription | null = null;
    const older = await db.pool.connect();
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        handle: async (events: RecordedEventWithTx[]) => {
          seen.push(...events.map((e) => e.streamId));
        },
      });
      await store.append('s-1', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 1, 10_000, 'the first event');
      // A transaction of this database with an id, still open: events committed after it began are
      // not readable until it ends, and its end sends no NOTIFY.
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await store.append('s-2', [{ type: 'Happened', data: {} }], 0);
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual(['s-1']);
      const ended = Date.now();
      await older.query('COMMIT');
      await eventually(async () => seen.length === 2, 5_000, 'the held-back event');
      // Far sooner than the 60 s poll: the look-again waits at most 5 ms × 2⁸ = 1.28 s.
      expect(Date.now() - ended).toBeLessThan(2_000);
      expect(seen).toEqual(['s-1', 's-2']);
    } finally {
      await older.query('ROLLBACK').catch(() => undefined);
      older.release();
      await sub?.stop();
      await transport.close();
    }
  });
});
