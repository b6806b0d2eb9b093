import pg from 'pg';
import { SCHEMA_DDL_LOCK_NAMESPACE, withTransaction } from '@tiendita/eventsourcing';

/** One migration of a service schema; applied once, in list order, inside a transaction. */
export interface Migration {
  id: string;
  sql: string;
}

export interface PoolOptions {
  /** Connections kept at most (default 10). */
  max?: number;
  /** Shows up in pg_stat_activity. */
  applicationName?: string;
  /**
   * false: commits on this pool return before their WAL reaches the disk (synchronous_commit=off).
   * Only for state whose loss in a database crash is harmless; the last few hundred milliseconds
   * of commits can be lost then, never half of one.
   */
  synchronousCommit?: boolean;
  /** Idle connections do not keep the process alive (for helper pools closed with their module). */
  allowExitOnIdle?: boolean;
}

/**
 * The planner's price of a random page read, for every service connection. PostgreSQL's default (4)
 * prices a disk seek; a service's working set sits in memory (or on an SSD), where an index walk
 * costs about what a sequential read does. With 4, a list of one large store is read as a scan of
 * the whole table plus a sort (25 ms for 10,000 products) instead of the sort's index (2 ms).
 */
export const RANDOM_PAGE_COST = 1.1;

/** A pg Pool with limits that suit one service process. */
export function createPool(url: string, options: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
    application_name: options.applicationName ?? 'tiendita',
    allowExitOnIdle: options.allowExitOnIdle ?? false,
    options: [`-c random_page_cost=${RANDOM_PAGE_COST}`, ...(options.synchronousCommit === false ? ['-c synchronous_commit=off'] : [])].join(' '),
  });
  // An idle client can die (database restart); without a listener that would crash the process.
  pool.on('error', () => undefined);
  return pool;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/** Quotes a schema or table name after checking it is a plain lower-case identifier. */
export function schemaIdentifier(name: string): string {
  if (!IDENTIFIER.test(name)) throw new Error(`Nombre de esquema inválido: ${name}`);
  return `"${name}"`;
}

// First key of the two-key advisory lock; the second is hashtext(schema).
const MIGRATION_LOCK_NAMESPACE = SCHEMA_DDL_LOCK_NAMESPACE;

/**
 * Creates `schema` and `<schema>.schema_migrations`, then applies each migration not yet
 * recorded, in order, each in its own transaction with `search_path` set to the schema (so
 * migration SQL may use unqualified names). A session advisory lock per schema makes two
 * processes that start together apply each migration exactly once. Returns the ids applied now.
 */
export async function runMigrations(pool: pg.Pool, schema: string, migrations: Migration[]): Promise<string[]> {
  const quoted = schemaIdentifier(schema);
  const ids = new Set<string>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`Migración repetida en ${schema}: ${m.id}`);
    ids.add(m.id);
  }
  const client = await pool.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema]);
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = new Set((await client.query<{ id: string }>(`SELECT id FROM ${quoted}.schema_migrations`)).rows.map((r) => r.id));
      for (const migration of migrations) {
        if (done.has(migration.id)) continue;
        try {
          await withTransaction(client, async (tx) => {
            await tx.query(`SET LOCAL search_path TO ${quoted}, public`);
            await tx.query(migration.sql);
            await tx.query(`INSERT INTO ${quoted}.schema_migrations (id) VALUES ($1)`, [migration.id]);
          });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(`La migración ${schema}.${migration.id} falló: ${reason}`, { cause: error });
        }
        applied.push(migration.id);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATION_LOCK_NAMESPACE, schema]);
    }
  } finally {
    client.release();
  }
  return applied;
}

/** Where a connection string points, without the password: `127.0.0.1:5432/tiendita`. */
export function describeDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(URL inválida)';
  }
}
