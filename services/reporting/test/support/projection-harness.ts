import { eventStoreDdl, type Position, type Projection, type RecordedEventWithTx, START } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';

/**
 * Drives one projection by hand on a test database: applies a history in batches of given sizes
 * (as the live runner would), or stores it as a source's events table and applies it in ranges in
 * SQL (as a rebuild would), into fresh schemas whose rows the tests compare. `db` gives the pool
 * (made in beforeAll).
 */
export function projectionHarness<T extends string>(db: () => pg.Pool, projection: Projection<T>, keys: Record<T, string>, source: string) {
  const tables = Object.keys(keys) as T[];
  const pool = { query: (...args: Parameters<pg.Pool['query']>) => db().query(...args), connect: () => db().connect() } as unknown as pg.Pool;

  async function fresh(schema: string): Promise<Record<T, string>> {
    const t = Object.fromEntries(tables.map((x) => [x, `${schema}.${x}`])) as Record<T, string>;
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE; CREATE SCHEMA ${schema}`);
    const c = await pool.connect();
    try {
      await projection.setup(c, t);
    } finally {
      c.release();
    }
    return t;
  }

  /** Runs `step` on consecutive slices of the events of the given sizes, each slice in its own transaction. */
  async function inTransactions(events: RecordedEventWithTx[], sizes: number[], step: (c: pg.PoolClient, slice: RecordedEventWithTx[]) => Promise<void>): Promise<void> {
    const c = await pool.connect();
    try {
      for (let i = 0, k = 0; i < events.length; k++) {
        const size = Math.max(1, sizes[k % sizes.length]);
        await c.query('BEGIN');
        await step(c, events.slice(i, i + size));
        await c.query('COMMIT');
        i += size;
      }
    } catch (err) {
      await c.query('ROLLBACK');
      throw err;
    } finally {
      c.release();
    }
  }

  async function applyInBatches(t: Record<T, string>, events: RecordedEventWithTx[], sizes: number[]): Promise<void> {
    await inTransactions(events, sizes, (c, batch) => projection.apply(c, batch, t));
  }

  /** The events as a source's events table holds them (each its own transaction). */
  async function storeEvents(events: RecordedEventWithTx[]): Promise<void> {
    await pool.query(`DROP SCHEMA IF EXISTS ${source} CASCADE`);
    await pool.query(eventStoreDdl(source));
    if (events.length === 0) return;
    await pool.query(
      `INSERT INTO ${source}.events (global_position, stream_id, stream_position, type, data, metadata, transaction_id)
       SELECT * FROM json_to_recordset($1::json) AS x(global_position bigint, stream_id text, stream_position int, type text, data jsonb, metadata jsonb, transaction_id xid8)`,
      [JSON.stringify(events.map((e) => ({ global_position: e.globalPosition, stream_id: e.streamId, stream_position: e.globalPosition, type: e.type, data: e.data, metadata: e.metadata, transaction_id: e.transactionId })))],
    );
  }

  /** Applies the stored events in SQL, in consecutive ranges of the given sizes, each range in its own transaction. */
  async function applyInRanges(t: Record<T, string>, events: RecordedEventWithTx[], sizes: number[]): Promise<void> {
    let from: Position = START;
    await inTransactions(events, sizes, async (c, range) => {
      const last = range[range.length - 1];
      const to = { transactionId: last.transactionId, globalPosition: last.globalPosition };
      await projection.applyRange!(c, { source, from, to }, t);
      from = to;
    });
  }

  const rows = async (t: Record<T, string>) =>
    Object.fromEntries(await Promise.all(tables.map(async (x) => [x, (await pool.query(`SELECT * FROM ${t[x]} ORDER BY ${keys[x]}`)).rows] as const)));

  return { fresh, applyInBatches, storeEvents, applyInRanges, rows };
}

/** Events as a source's table holds them, with made-up transaction ids from `firstTransaction` on (one per event). */
export function recorded(events: { type: string; data: unknown }[], firstTransaction: number, storeId: string): RecordedEventWithTx[] {
  return events.map((e, i) => ({
    globalPosition: i + 1,
    transactionId: String(firstTransaction + i),
    streamId: `order-${(e.data as { orderId: string }).orderId}`,
    streamPosition: 1,
    type: e.type,
    data: e.data,
    metadata: { eventId: randomUUID(), schemaVersion: 1, storeId, occurredAt: new Date().toISOString(), correlationId: null, causationId: null, actor: null },
    recordedAt: new Date(),
  }));
}

/**
 * Moves the cluster's transaction ids past `past`: events with made-up transaction ids are hidden by
 * the safe read bound until the cluster has reached them, which a fresh embedded cluster may not have.
 */
export async function advanceTransactionIds(pool: pg.Pool, past: number): Promise<void> {
  await pool.query(`DO $$ BEGIN
    WHILE pg_current_xact_id()::text::bigint < ${Number(past)} LOOP COMMIT; END LOOP;
  END $$`);
}
