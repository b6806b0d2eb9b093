import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import type { PoolClient } from 'pg';
import { PostgresEventStore, type Projection, type RecordedEventWithTx } from '../src';

/** A database of its own for one test file, with a pool on it. */
export interface TestDb {
  url: string;
  pool: Pool;
  close(): Promise<void>;
}

export async function openTestDb(max = 12): Promise<TestDb> {
  const db: TestDatabase = await createTestDatabase();
  const pool = new Pool({ connectionString: db.url, max });
  pool.on('error', () => undefined); // idle clients killed by a test (pg_terminate_backend) or by drop()
  return {
    url: db.url,
    pool,
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}

export async function migratedStore(pool: Pool, schema: string): Promise<PostgresEventStore> {
  const store = new PostgresEventStore(pool, schema);
  await store.migrate();
  return store;
}

/** Polls until `check` holds (for effects that happen in the background), failing after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 10000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

type Deposit = { amount: number };

/**
 * A small read model used across the tests: per stream, how many events, the sum of their
 * `amount`, and the last type; per type, how many events. Set-based SQL, one statement per table.
 */
export function ledgerProjection(name = 'ledger', sources: readonly string[] = ['bank'], version = 1): Projection {
  const accounts = `${name}_accounts`;
  const kinds = `${name}_kinds`;
  return {
    name,
    version,
    sources,
    tables: [accounts, kinds],
    async setup(tx: PoolClient, t: Record<string, string>) {
      await tx.query(`CREATE TABLE IF NOT EXISTS ${t[accounts]} (stream_id text PRIMARY KEY, events integer NOT NULL, balance bigint NOT NULL, last_type text NOT NULL)`);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${t[kinds]} (type text PRIMARY KEY, events integer NOT NULL)`);
    },
    async apply(tx: PoolClient, events: RecordedEventWithTx[], t: Record<string, string>) {
      await applyLedger(tx, events, t[accounts], t[kinds]);
    },
  };
}

export async function applyLedger(tx: PoolClient, events: RecordedEventWithTx[], accounts: string, kinds: string): Promise<void> {
  const streams = events.map((e) => e.streamId);
  const amounts = events.map((e) => (e.data as Deposit).amount ?? 0);
  const types = events.map((e) => e.type);
  const ords = events.map((_, i) => i);
  await tx.query(
    `INSERT INTO ${accounts} AS a (stream_id, events, balance, last_type)
     SELECT s, count(*), sum(amount), (array_agg(type ORDER BY ord DESC))[1]
     FROM unnest($1::text[], $2::bigint[], $3::text[], $4::int[]) AS u(s, amount, type, ord) GROUP BY s
     ON CONFLICT (stream_id) DO UPDATE SET events = a.events + EXCLUDED.events, balance = a.balance + EXCLUDED.balance, last_type = EXCLUDED.last_type`,
    [streams, amounts, types, ords],
  );
  await tx.query(
    `INSERT INTO ${kinds} AS k (type, events) SELECT type, count(*) FROM unnest($1::text[]) AS u(type) GROUP BY type
     ON CONFLICT (type) DO UPDATE SET events = k.events + EXCLUDED.events`,
    [types],
  );
}

/** Rows of a table as sorted JSON strings, for equality checks. */
export async function rowsOf(pool: Pool, table: string): Promise<string[]> {
  const r = await pool.query(`SELECT * FROM ${table}`);
  return r.rows.map((row) => JSON.stringify(row)).sort();
}
