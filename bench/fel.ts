// `npm run bench -- fel`: FEL (issue 25) under a steady stream of POS sales. Starts identity, catalog,
// inventory, ordering, fel and the gateway (from dist/, as `npm start` runs them) on a fresh database,
// with the sandbox certifier in this process (so it can be taken down), registers an owner, seeds 20
// products with plenty of stock and turns FEL on with the 'pruebas' certifier. Then, per run:
//  1. 50 POS sales/s for 30 s (POST /api/orders through the gateway, open loop from its own process):
//     every sale's latency; each document's time from its sale (the payment's instant) to certified;
//     every document certified; duplicates = documents the certifier issued beyond one per order.
//  2. 50 sales/s for 20 s with the certifier down from the 5th to the 15th second: every document of
//     the phase certified once it is back.
// Last line: {"sale_p99_ms":…,"certified_p99_s":…,"documents":…,"certified":…,"duplicates":…,"certified_after_outage":…}
// (medians over BENCH_RUNS runs). Targets: sale p99 ≤ 150 ms, certified p99 ≤ 5 s, 0 duplicates, all certified.
// Knobs: BENCH_RUNS (5), BENCH_RATE (50), BENCH_SECONDS (30), BENCH_OUTAGE_SECONDS (20, down from 5 to 15 s);
// BENCH_FEL=off makes the same sales with FEL left off for the store (to compare what FEL adds);
// BENCH_PG_STATEMENTS=1 (with BENCH_PG_SETTINGS="shared_preload_libraries=pg_stat_statements") prints
// the steady phase's top statements. Each run prints CPU ms per sale by process, PostgreSQL's by the
// service whose connection spent it, the load generator's, and commits per sale.
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SandboxCertifier } from '../services/fel/src/sandbox/sandbox-certifier';
import { loadavg } from 'node:os';
import { childrenCpuSeconds, watchPostgres } from './_fel-cpu';
import type { OpenLoopResult } from './_payments';
import { printPgStatements, resetPgStatements } from './_pg-statements';
import { cpuSeconds, machineBusySeconds } from './_proc';
import { type BenchService, benchServiceEnv, freePort, startServiceProcess, stopServiceProcess, type ServiceProcess } from './_services';

const root = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const RATE = Number(process.env.BENCH_RATE ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const OUTAGE_SECONDS = Number(process.env.BENCH_OUTAGE_SECONDS ?? 20);
/** BENCH_PRODUCTS (20): how many products the sales share (two lines each: fewer products, hotter stock rows). */
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 20);
const FEL_ON = process.env.BENCH_FEL !== 'off';

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 300_000, everyMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando ${what}`);
    await sleep(everyMs);
  }
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL no está definida (npm run bench la define)');
  const dbName = `tiendita_bench_fel_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-bench-fel-'));
  const secret = randomBytes(24).toString('hex');
  const children: ServiceProcess[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4, application_name: 'tiendita-bench' });
  pool.on('error', () => undefined);
  const sandbox = new SandboxCertifier();

  const stopAll = async () => {
    for (const c of children.reverse()) await stopServiceProcess(c);
    await sandbox.stop();
    await pool.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const sandboxUrl = await sandbox.start();
    const names = ['identity', 'catalog', 'inventory', 'ordering', 'fel', 'gateway'] as const;
    const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()] as const))) as Record<(typeof names)[number], number>;
    const urls = {
      IDENTITY_URL: `http://127.0.0.1:${ports.identity}`,
      CATALOG_URL: `http://127.0.0.1:${ports.catalog}`,
      INVENTORY_URL: `http://127.0.0.1:${ports.inventory}`,
      ORDERING_URL: `http://127.0.0.1:${ports.ordering}`,
      FEL_URL: `http://127.0.0.1:${ports.fel}`,
      REPORTING_URL: 'http://127.0.0.1:9',
    };
    for (const name of names) {
      const extra = name === 'fel' ? { FEL_SANDBOX_URL: sandboxUrl, FEL_POLL_MS: '200', FEL_RETRY_BASE_MS: '500', FEL_RETRY_MAX_MS: '2000', FEL_CERTIFIER_TIMEOUT_MS: '2000' } : undefined;
      const env = benchServiceEnv({ urls, gatewayPort: ports.gateway, databaseUrl, secret, dataDir, extra });
      children.push(await startServiceProcess(name as BenchService, ports[name], env));
    }
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    console.log(`bench fel: servicios y certificador de pruebas arrancados (${gatewayUrl}, certificador ${sandboxUrl})`);

    // ---- an owner, 20 products, FEL on ---------------------------------------------------------
    const tag = randomBytes(4).toString('hex');
    const email = `bench-fel-${tag}@example.com`;
    const reg = await fetch(`${gatewayUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gatewayUrl },
      body: JSON.stringify({ firstName: 'Bench', lastName: 'FEL', email, password: 'Secreto123', storeName: 'Tienda FEL', subdomain: `bench-fel-${tag}`, businessType: 'grocery', storeDepartment: 'Guatemala', whatsappNumber: '5555-1234' }),
    });
    if (reg.status !== 201) throw new Error(`registro falló: ${reg.status} ${await reg.text()}`);
    const { store } = (await reg.json()) as { store: { id: string } };
    const login = await fetch(`${gatewayUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: gatewayUrl }, body: JSON.stringify({ email, password: 'Secreto123' }) });
    if (login.status !== 200) throw new Error(`inicio de sesión falló: ${login.status}`);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const owner = { cookie, origin: gatewayUrl, 'content-type': 'application/json' };
    const products = Array.from({ length: PRODUCTS }, () => randomUUID());
    await new PostgresEventStore(pool, 'catalog').appendEach(
      products.map((id, i) => ({
        streamId: `product-${id}`,
        event: {
          type: 'ProductCreated',
          data: { productId: id, storeId: store.id, name: `Producto ${i + 1}`, description: 'Bench FEL', sku: `FEL-${i + 1}`, priceCentavos: 333 + i * 517, discountPercentage: 0, categoryId: null, images: [], isActive: true, initialStock: 10_000_000, createdBy: 'bench' },
        },
        metadata: { storeId: store.id, actor: 'bench' },
      })),
    );
    await waitFor('los productos en ordering', async () => Number((await pool.query('SELECT count(*) AS n FROM ordering.products WHERE store_id = $1', [store.id])).rows[0].n) >= PRODUCTS);
    await waitFor('el stock en inventario', async () => Number((await pool.query('SELECT count(*) AS n FROM inventory.stock_rows WHERE store_id = $1', [store.id])).rows[0].n) >= PRODUCTS);
    const fel = !FEL_ON ? { status: 200, text: async () => '' } : await fetch(`${gatewayUrl}/api/fel/settings`, { method: 'PUT', headers: owner, body: JSON.stringify({ enabled: true, issuerNit: '12521337', legalName: 'Tienda FEL, S.A.', commercialName: 'Tienda FEL' }) });
    if (fel.status !== 200) throw new Error(`no se pudo activar FEL: ${fel.status} ${await fel.text()}`);

    const openLoop = async (rate: number, seconds: number): Promise<OpenLoopResult> => {
      const bodies = Array.from({ length: Math.round(rate * seconds) }, (_, i) => ({
        customerName: 'Cliente',
        customerNit: i % 3 === 0 ? '12521337' : 'CF',
        paymentMethod: 'cash',
        items: [
          { productId: products[i % PRODUCTS], quantity: 1 + (i % 3) },
          { productId: products[(i * 7 + 3) % PRODUCTS], quantity: 1 },
        ],
      }));
      const inputFile = join(dataDir, `openloop-${randomBytes(4).toString('hex')}.json`);
      writeFileSync(inputFile, JSON.stringify({ url: gatewayUrl, maxInFlight: 1000, method: 'POST', paths: ['/api/orders'], rate, seconds, bodies, commonHeaders: { cookie, origin: gatewayUrl }, okStatus: 201 }));
      const child = spawn(process.execPath, ['--single-threaded-gc', join(__dirname, '_openloop.mjs'), `@${inputFile}`], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      if (code !== 0) throw new Error(`el generador de carga terminó con código ${code}`);
      return JSON.parse(out) as OpenLoopResult;
    };

    /** Documents issued since `since` (the fel schema's clock): how many, how many certified, sale→certified in s. */
    const documentsSince = async (since: string) => {
      const r = await pool.query<{ n: number; certified: number; seconds: number[] | null }>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'certified')::int AS certified,
                array_agg(extract(epoch FROM certified_at - issued_at)::float8) FILTER (WHERE status = 'certified') AS seconds
           FROM fel.documents WHERE store_id = $1 AND created_at >= $2`,
        [store.id, since],
      );
      return { ...r.rows[0], seconds: (r.rows[0].seconds ?? []).sort((a, b) => a - b) };
    };
    /** Waits until every sale answered since `since` has its document certified (or the time runs out); polls a count, then reads the times once. */
    const settle = async (since: string, sold: number, timeoutMs: number) => {
      if (FEL_ON) {
        await waitFor('las facturas certificadas', async () => {
          const r = await pool.query<{ n: number; waiting: number }>(
            `SELECT count(*)::int AS n, count(*) FILTER (WHERE status <> 'certified')::int AS waiting FROM fel.documents WHERE store_id = $1 AND created_at >= $2`,
            [store.id, since],
          );
          return r.rows[0].n >= sold && r.rows[0].waiting === 0;
        }, timeoutMs, 500).catch(() => undefined);
      }
      return documentsSince(since);
    };
    const now = async () => (await pool.query<{ t: string }>('SELECT now()::text AS t')).rows[0].t;

    /** 20 s of sales with the certifier down from the 5th to the 15th second; its documents once it is back. */
    const outagePhase = async () => {
      const outageSince = await now();
      const load = openLoop(RATE, OUTAGE_SECONDS);
      await sleep(5000);
      await sandbox.stop();
      await sleep(10_000);
      await sandbox.start();
      const outage = await load;
      const outageSold = outage.statuses['201'] ?? 0;
      const after = await settle(outageSince, outageSold, 240_000);
      console.log(`  caída de 10 s: ${outageSold} ventas (p99 ${round1(percentile(outage.latencies, 99))} ms, ${outage.errors} errores), ${after.n} facturas, ${after.certified} certificadas al volver`);
      return after;
    };

    // Warm-up: 3 s at the rate, and its documents certified, before anything is measured.
    const warmSince = await now();
    const warm = await openLoop(RATE, 3);
    await settle(warmSince, warm.statuses['201'] ?? 0, 120_000);

    const results: { saleP99: number; certifiedP99: number; documents: number; certified: number; outageCertified: number; outageDocuments: number }[] = [];
    // CPU each process spends per sale while sales and certification run side by side (this process is the certifier).
    const procs: [string, number][] = [...children.map((c) => [c.name, c.child.pid ?? 0] as [string, number]), ['certificador', process.pid]];
    for (let run = 1; run <= RUNS; run++) {
      const since = await now();
      await resetPgStatements(pool);
      const commits = async () => Number((await pool.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [dbName])).rows[0].xact_commit);
      const commitsBefore = await commits();
      const postgres = await watchPostgres(pool, dbName);
      const cpuBefore = procs.map(([, pid]) => cpuSeconds(pid));
      const loaderBefore = childrenCpuSeconds();
      const machineBefore = machineBusySeconds();
      const loadBefore = loadavg()[0];
      const startedAt = new Date().toISOString().slice(11, 19);
      const steady = await openLoop(RATE, SECONDS);
      const sold = steady.statuses['201'] ?? 0;
      const settled = await settle(since, sold, 180_000);
      // FEL off: nothing to wait for but the sales' own tail of work (projections).
      if (!FEL_ON) await sleep(5000);
      const perSale = (seconds: number) => round2((seconds * 1000) / Math.max(1, sold));
      const byProcess = procs.map(([name, pid], i) => `${name} ${perSale(cpuSeconds(pid) - cpuBefore[i])}`);
      const machine = perSale(machineBusySeconds() - machineBefore);
      const pgBy = [...(await postgres.stop())].sort((a, b) => b[1] - a[1]);
      const pgTotal = perSale(pgBy.reduce((a, [, s]) => a + s, 0));
      console.log(`  CPU por venta (ms, hasta certificar todo): ${byProcess.join(', ')}, generador de carga ${perSale(childrenCpuSeconds() - loaderBefore)}; máquina entera (con la carga de otros) ${machine}; carga media ${round1(loadBefore)} → ${round1(loadavg()[0])}`);
      console.log(`  PostgreSQL ${pgTotal} ms por venta: ${pgBy.map(([g, s]) => `${g} ${perSale(s)}`).join(', ')}`);
      await sleep(1500); // pg_stat_database is updated by backends at most every second or so
      console.log(`  commits de PostgreSQL por venta: ${round2(((await commits()) - commitsBefore) / Math.max(1, sold))}`);
      await printPgStatements(pool, dbName, 30);
      const saleP99 = round1(percentile(steady.latencies, 99));
      const seconds = settled.seconds ?? [];
      const certifiedP99 = round2(percentile(seconds, 99));
      console.log(
        `  corrida ${run}: ${sold} ventas a ${RATE}/s, p50 ${round1(percentile(steady.latencies, 50))} ms, p99 ${saleP99} ms, ${steady.errors} errores${steady.errorSamples.length ? ` (${steady.errorSamples[0]})` : ''}; ` +
          `${settled.n} facturas, ${settled.certified} certificadas, venta→certificada p50 ${round2(percentile(seconds, 50))} s, p99 ${certifiedP99} s`,
      );
      console.log(`    peor latencia por segundo (ms, desde las ${startedAt} UTC): ${steady.worstBySecond.map((x) => Math.round(x)).join(' ')} · mayor pausa del propio generador ${round1(steady.lagMaxMs)} ms`);

      // The certifier down for 10 s in the middle of 20 s of sales (BENCH_OUTAGE_SECONDS=0: no outage phase).
      const after = OUTAGE_SECONDS > 0 ? await outagePhase() : { n: 0, certified: 0 };
      results.push({ saleP99, certifiedP99, documents: settled.n, certified: settled.certified, outageCertified: after.certified, outageDocuments: after.n });
    }
    // Duplicates: documents the certifier issued beyond the store's certified documents (one per order), every run and the warm-up together,
    // once nothing is pending any more (a document certified by the certifier and not yet written here is not a duplicate).
    const pending = async () => Number((await pool.query(`SELECT count(*) AS n FROM fel.documents WHERE store_id = $1 AND status = 'pending'`, [store.id])).rows[0].n);
    await waitFor('la cola de facturas vacía', async () => (FEL_ON ? (await pending()) === 0 : true), 240_000, 500).catch(() => undefined);
    if (FEL_ON && (await pending()) > 0) console.log(`  aún pendientes al contar duplicados: ${await pending()}`);
    const withAuthorization = Number((await pool.query('SELECT count(*) AS n FROM fel.documents WHERE store_id = $1 AND authorization_uuid IS NOT NULL', [store.id])).rows[0].n);
    const duplicates = sandbox.issued - withAuthorization;
    console.log(`  el certificador emitió ${sandbox.issued} documentos para ${withAuthorization} facturas certificadas`);
    console.log(
      JSON.stringify({
        sale_p99_ms: median(results.map((r) => r.saleP99)),
        certified_p99_s: median(results.map((r) => r.certifiedP99)),
        documents: median(results.map((r) => r.documents)),
        certified: median(results.map((r) => r.certified)),
        duplicates,
        certified_after_outage: median(results.map((r) => r.outageCertified)),
        outage_documents: median(results.map((r) => r.outageDocuments)),
        runs: RUNS,
      }),
    );
  } finally {
    await stopAll();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
