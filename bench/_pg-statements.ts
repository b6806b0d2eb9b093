// BENCH_PG_STATEMENTS=1 (with BENCH_PG_SETTINGS="shared_preload_libraries=pg_stat_statements"): the
// statements a bench phase ran, from pg_stat_statements. Used by the catalog and ordering benches.
import type pg from 'pg';

const enabled = () => Boolean(process.env.BENCH_PG_STATEMENTS);

/** Empties pg_stat_statements before a phase (nothing without BENCH_PG_STATEMENTS). */
export async function resetPgStatements(pool: pg.Pool): Promise<void> {
  if (enabled()) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()');
}

/** Prints the phase's `limit` statements of database `dbName` that took the most time (nothing without BENCH_PG_STATEMENTS). */
export async function printPgStatements(pool: pg.Pool, dbName: string, limit: number): Promise<void> {
  if (!enabled()) return;
  // Planning time too (with pg_stat_statements.track_planning=on in BENCH_PG_SETTINGS; 0 otherwise).
  const top = await pool.query<{ calls: string; rows: string; ms: number; plan_ms: number; query: string }>(
    `SELECT calls, rows, round(total_exec_time::numeric, 1)::float8 AS ms, round(total_plan_time::numeric, 1)::float8 AS plan_ms,
            regexp_replace(left(query, 150), '\\s+', ' ', 'g') AS query FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) ORDER BY total_exec_time + total_plan_time DESC LIMIT ${Math.trunc(limit)}`,
    [dbName],
  );
  for (const r of top.rows) console.log(`      ${String(r.calls).padStart(7)} llamadas ${String(r.rows).padStart(8)} filas ${String(r.ms).padStart(9)} ms (plan ${String(r.plan_ms).padStart(7)} ms)  ${r.query}`);
  // The statements that sent the services the most rows (each row is parsed in the service), and
  // those run most often (each a round trip: a socket write and a wake-up on both sides).
  await printListing(pool, dbName, 'las que más filas devolvieron', 'rows', 8);
  await printListing(pool, dbName, 'las que más veces se ejecutaron', 'calls', 45);
}

/** The `limit` statements of database `dbName` with the most `order` (rows or calls). */
async function printListing(pool: pg.Pool, dbName: string, title: string, order: 'rows' | 'calls', limit: number): Promise<void> {
  const listed = await pool.query<{ calls: string; rows: string; query: string }>(
    `SELECT calls, rows, regexp_replace(left(query, 150), '\\s+', ' ', 'g') AS query FROM pg_stat_statements
     WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1) ORDER BY ${order} DESC LIMIT ${Math.trunc(limit)}`,
    [dbName],
  );
  console.log(`    ${title}:`);
  for (const r of listed.rows) console.log(`      ${String(r.calls).padStart(7)} llamadas ${String(r.rows).padStart(8)} filas  ${r.query}`);
}
