// The database and scratch room of one bench run: a database of its own on DATABASE_URL's server
// (`npm run bench` sets it), a DATA_DIR, a fresh INTERNAL_SECRET, and, on stop, the started service
// processes stopped and all of it removed. One place, so every bench sets up and cleans up alike.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { stopServiceProcess, type ServiceProcess } from './_services';

export interface BenchDatabase {
  /** tiendita_bench_<bench>_<8 hex>. */
  name: string;
  url: string;
  /** Drops the database (unless `keep`) and closes the admin connection; errors are ignored. */
  drop(options?: { keep?: boolean }): Promise<void>;
}

/** The server's URL the benches create their databases on. */
export function adminDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL no está definida (npm run bench la define)');
  return url;
}

/** Creates `tiendita_bench_<bench>_<hex>` on the admin URL's server. */
export async function createBenchDatabase(bench: string, adminUrl = adminDatabaseUrl()): Promise<BenchDatabase> {
  const name = `tiendita_bench_${bench}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop(options = {}) {
      if (!options.keep) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
      await admin.end().catch(() => undefined);
    },
  };
}

export interface BenchRun {
  db: BenchDatabase;
  /** The bench's DATA_DIR, removed on stop. */
  dataDir: string;
  /** INTERNAL_SECRET of the services this run starts. */
  secret: string;
  /** A pool on the run's database, `poolMax` connections (4 by default), opened on its first query. */
  pool: pg.Pool;
  /** The service processes started for this run, stopped on stop in reverse order. */
  children: ServiceProcess[];
  /** Stops the services, ends the pool, drops the database (unless `keep`) and removes the DATA_DIR. */
  stop(options?: { keep?: boolean }): Promise<void>;
}

/** A bench run: its database, DATA_DIR, secret and a pool of `poolMax` connections (errors of idle ones ignored). */
export async function startBenchRun(bench: string, options: { poolMax?: number } = {}): Promise<BenchRun> {
  const db = await createBenchDatabase(bench);
  const dataDir = mkdtempSync(join(tmpdir(), `tiendita-bench-${bench}-`));
  const pool = new pg.Pool({ connectionString: db.url, max: options.poolMax ?? 4 });
  pool.on('error', () => undefined);
  const children: ServiceProcess[] = [];
  return {
    db,
    dataDir,
    secret: randomBytes(24).toString('hex'),
    pool,
    children,
    async stop(stopOptions = {}) {
      for (const c of children.reverse()) await stopServiceProcess(c);
      await pool.end().catch(() => undefined);
      await db.drop(stopOptions);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
