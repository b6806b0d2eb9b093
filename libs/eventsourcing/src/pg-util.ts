import type { Pool, PoolClient } from 'pg';

/**
 * The advisory lock namespace (with hashtext(schema) as key) of DDL that creates a schema's tables
 * in more than one place: a service's migrations and another service's event store creating the
 * events table of its source both take it, since concurrent CREATE … IF NOT EXISTS of one table
 * clash on pg_type.
 */
export const SCHEMA_DDL_LOCK_NAMESPACE = 0x7d1e;

/**
 * Checks a client out of the pool with an 'error' listener attached for as long as it is out:
 * a backend killed under a running query (pg_terminate_backend, a restart) makes node-pg emit
 * 'error' on the client, which would otherwise crash the process. The failed query rejects anyway.
 */
export async function checkout(pool: Pool): Promise<PoolClient & { done(err?: unknown): void }> {
  const client = await pool.connect();
  let lastError: unknown;
  const onError = (err: unknown): void => {
    lastError = err;
  };
  client.on('error', onError);
  let released = false;
  return Object.assign(client, {
    done(err?: unknown): void {
      if (released) return;
      released = true;
      client.removeListener('error', onError);
      // A client that failed is destroyed rather than handed to the next caller.
      client.release(err || lastError ? true : undefined);
    },
  });
}

/**
 * Runs `work` in one transaction: BEGIN, COMMIT when it resolves, ROLLBACK when it throws (and the
 * client is then destroyed rather than reused). Given a pool, it checks a client out for the
 * duration; given a client, it runs on it. The one helper for hand-written BEGIN/COMMIT blocks.
 */
export async function withTransaction<T>(db: Pool | PoolClient, work: (tx: PoolClient) => Promise<T>, options: { begin?: string } = {}): Promise<T> {
  const owned = isPool(db) ? await checkout(db) : null;
  const tx = owned ?? (db as PoolClient);
  let failure: unknown;
  try {
    await tx.query(options.begin ?? 'BEGIN');
    const result = await work(tx);
    await tx.query('COMMIT');
    return result;
  } catch (error) {
    failure = error;
    await tx.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    owned?.done(failure);
  }
}

function isPool(db: Pool | PoolClient): db is Pool {
  return typeof (db as Pool).totalCount === 'number';
}

/**
 * Runs `work` on one client while holding the schema's `projections:<schema>` advisory lock: the
 * transports and the projection runner create their tables under it, because concurrent
 * CREATE … IF NOT EXISTS on one schema (several transports or processes starting together) can
 * still clash on pg_type.
 */
export async function withSchemaLock<T>(pool: Pool, schema: string, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await checkout(pool);
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`projections:${schema}`]);
    return await work(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`projections:${schema}`]).catch(() => undefined);
    client.done();
  }
}

/** SQLSTATE classes worth retrying rather than blaming the event: connection, conflicts, resources, shutdown. */
export function isTransientError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  return /^(08|40|53|57|58)/.test(code) || code === '55P03' || code === '55006';
}

/** Quotes nothing: names are checked against /^[a-z_][a-z0-9_]*$/ before they reach SQL. */
export function qualified(schema: string, table: string): string {
  return `${schema}.${table}`;
}
