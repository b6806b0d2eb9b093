// `npm run bench -- catalog`: the public product list of a 10,000-product shop.
//
// Starts identity, inventory, catalog and the gateway as separate processes (their built dist/, as
// `npm start` runs them) on a fresh database, registers an owner through the gateway, seeds 10,000
// products as catalog events and waits for the read model. Then:
//  1. open loop: GET /api/public/products/{store}?page=1..20&limit=24 through the gateway at
//     500 req/s for 30 s (a request is sent when it is due, whether or not earlier ones answered;
//     latency counts from the due time; at most 1,000 in flight, more counts as an error);
//  2. throughput: the same call closed-loop (32 concurrent) for 10 s through the gateway, then
//     straight to the catalog service with the gateway's signed headers; gateway_ratio = gw / direct;
//  3. the shop route's initial JS gzipped, from web/dist's Vite manifest (null without a build).
// Last line: {"catalog_p99_ms":…,"catalog_errors":…,"gateway_ratio":…,"shop_js_gz_kb":…}
// Targets: p99 ≤ 25 ms with 0 errors, ratio ≥ 0.60, shop JS ≤ 120 KB.
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { signInternalHeaders } from '@tiendita/service-kit';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { Pool } from 'undici';
import { printPgStatements, resetPgStatements } from './_pg-statements';
import { cpuSeconds, machineBusySeconds } from './_proc';
import { benchServiceEnv, freePort, startServiceProcess, stopServiceProcess, type ServiceName, type ServiceProcess } from './_services';

const root = join(__dirname, '..');
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 10);
const CONCURRENCY = 32;
const MAX_IN_FLIGHT = 1000;
const PAGES = 20;
const LIMIT = 24;

const round1 = (x: number) => Math.round(x * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))];
}

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`tiempo agotado esperando ${what}`);
    await sleep(100);
  }
}

/** Vite manifest → gzipped bytes of the entry plus the shop chunk and their static imports. */
function shopJsGzKb(): number | null {
  const dist = join(root, 'web', 'dist');
  const manifestFile = join(dist, '.vite', 'manifest.json');
  if (!existsSync(manifestFile)) return null;
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  const shop = Object.keys(manifest).find((k) => /^src\/shop\/shop-app\.[jt]sx?$/.test(k)) ?? Object.keys(manifest).find((k) => k.startsWith('src/shop/'));
  if (!entry || !shop) return null;
  const files = new Set<string>();
  const walk = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const i of chunk.imports ?? []) walk(i);
  };
  walk(entry);
  walk(shop);
  const bytes = [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f))).length, 0);
  return round1(bytes / 1024);
}

/**
 * Reads a response body to its end and answers its length, without gathering it: buffering
 * 500 bodies a second as ArrayBuffers made this process run a full (mark-compact) GC every few
 * hundred ms, 5 to 19 ms each, which showed up as latency of the service being measured.
 */
async function drain(body: AsyncIterable<Buffer>): Promise<number> {
  let bytes = 0;
  for await (const chunk of body) bytes += chunk.length;
  return bytes;
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL no está definida (npm run bench la define)');
  const dbName = `tiendita_bench_catalog_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-bench-catalog-'));
  const secret = randomBytes(24).toString('hex');
  const children: ServiceProcess[] = [];
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });

  const stopAll = async () => {
    for (const c of children.reverse()) await stopServiceProcess(c);
    await pool.end().catch(() => undefined);
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const ports = { identity: await freePort(), catalog: await freePort(), inventory: await freePort(), gateway: await freePort() };
    const urls = {
      IDENTITY_URL: `http://127.0.0.1:${ports.identity}`,
      CATALOG_URL: `http://127.0.0.1:${ports.catalog}`,
      INVENTORY_URL: `http://127.0.0.1:${ports.inventory}`,
      ORDERING_URL: 'http://127.0.0.1:9',
      REPORTING_URL: 'http://127.0.0.1:9',
    };
    const start = async (name: ServiceName) => {
      const env = benchServiceEnv({ urls, gatewayPort: ports.gateway, databaseUrl, secret, dataDir });
      children.push(await startServiceProcess(name, ports[name], env));
    };
    await start('identity');
    await start('catalog');
    await start('inventory');
    await start('gateway');
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    console.log(`bench catalog: identity, catalog, inventory y gateway arrancados (${gatewayUrl})`);

    // An owner and store, registered the normal way.
    const tag = randomBytes(4).toString('hex');
    const subdomain = `bench-${tag}`;
    const reg = await fetch(`${gatewayUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gatewayUrl },
      body: JSON.stringify({
        firstName: 'Bench',
        lastName: 'Catálogo',
        email: `bench-${tag}@example.com`,
        password: 'Secreto123',
        storeName: 'Tienda de carga',
        subdomain,
        businessType: 'grocery',
        storeDepartment: 'Guatemala',
      }),
    });
    if (reg.status !== 201) throw new Error(`registro falló: ${reg.status} ${await reg.text()}`);
    const { store } = (await reg.json()) as { store: { id: string } };
    const storeId = store.id;
    await waitFor('la tienda en el catálogo', async () => (await pool.query('SELECT 1 FROM catalog.stores WHERE id = $1', [storeId])).rowCount);

    // 10,000 products as catalog events (ten categories, one image each), the way commands append them.
    const seedStart = performance.now();
    const events = new PostgresEventStore(pool, 'catalog');
    const categories = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), name: `Categoría ${i + 1}` }));
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (const c of categories) {
        await events.append(`category-${c.id}`, [{ type: 'CategoryCreated', data: { categoryId: c.id, storeId, name: c.name, description: null } }], 0, { storeId, actor: 'bench' }, client);
      }
      for (let i = 0; i < PRODUCTS; i++) {
        const productId = randomUUID();
        const data = {
          productId,
          storeId,
          name: `Producto ${String(i + 1).padStart(5, '0')}`,
          description: `Descripción del producto ${i + 1}`,
          sku: `SKU-${i + 1}`,
          priceCentavos: 500 + ((i * 37) % 20_000),
          discountPercentage: i % 7 === 0 ? 10 : 0,
          categoryId: categories[i % categories.length].id,
          images: [`/temp-uploads/products/${randomUUID()}.png`],
          isActive: i % 50 !== 0,
          initialStock: i % 40,
          createdBy: 'bench',
        };
        await events.append(`product-${productId}`, [{ type: 'ProductCreated', data }], 0, { storeId, actor: 'bench' }, client);
        if (i % 1000 === 999) {
          await client.query('COMMIT');
          await client.query('BEGIN');
        }
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await waitFor(
      'la proyección de productos',
      async () => Number((await pool.query('SELECT count(*) AS n FROM catalog.products WHERE store_id = $1', [storeId])).rows[0].n) >= PRODUCTS,
      300_000,
    );
    // Inventory opens each product's stock item (from ProductCreated) and catalog projects it back:
    // let that settle so the measurement sees the steady state, not the tail of the bulk load.
    await waitFor(
      'los ítems de inventario',
      async () => Number((await pool.query('SELECT count(*) AS n FROM catalog.stock_levels WHERE store_id = $1', [storeId])).rows[0].n) >= PRODUCTS,
      300_000,
    );
    // What autovacuum does on its own after a bulk load: statistics and the visibility map.
    await pool.query('VACUUM ANALYZE');
    console.log(`  ${PRODUCTS} productos sembrados y proyectados en ${round1((performance.now() - seedStart) / 1000)} s`);

    const path = (i: number) => `/api/public/products/${subdomain}?page=${(i % PAGES) + 1}&limit=${LIMIT}`;
    const gateway = new Pool(gatewayUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    const direct = new Pool(`http://127.0.0.1:${ports.catalog}`, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    const signedFor = (p: string) => signInternalHeaders(secret, { method: 'GET', path: p });

    const first = await gateway.request({ method: 'GET', path: path(0) });
    const firstText = await first.body.text();
    const firstBody = JSON.parse(firstText) as { total: number; products: unknown[] };
    if (first.statusCode !== 200 || firstBody.products.length !== LIMIT) throw new Error(`respuesta inesperada: ${first.statusCode}`);
    console.log(`  la lista pública responde: ${firstBody.total} productos activos, ${firstBody.products.length} por página (${round1(Buffer.byteLength(firstText) / 1024)} KB)`);

    /** Open loop at `rate` req/s for `seconds`, from its own process (bench/_openloop.mjs). */
    const openLoop = async (rate: number, seconds: number, target = gatewayUrl, signed = false) => {
      const paths = Array.from({ length: PAGES }, (_, i) => path(i));
      const input = JSON.stringify({ url: target, paths, rate, seconds, maxInFlight: MAX_IN_FLIGHT, ...(signed ? { internalSecret: secret } : {}) });
      const child = spawn(process.execPath, ['--single-threaded-gc', join(__dirname, '_openloop.mjs'), input], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      if (code !== 0) throw new Error(`el generador de carga terminó con código ${code}`);
      return JSON.parse(out) as { latencies: number[]; errors: number; seconds: number; worstBySecond: number[]; lagMaxMs: number };
    };

    /** Closed loop: `concurrency` workers back to back for `seconds`; answers requests per second. */
    const closedLoop = async (target: Pool, signed: boolean, seconds: number) => {
      let done = 0;
      let errors = 0;
      const end = performance.now() + seconds * 1000;
      const worker = async (w: number) => {
        for (let i = w; performance.now() < end; i += CONCURRENCY) {
          const p = path(i);
          try {
            const res = await target.request({ method: 'GET', path: p, headers: signed ? signedFor(p) : {} });
            const bytes = await drain(res.body);
            if (res.statusCode === 200 && bytes >= 2) done++;
            else errors++;
          } catch {
            errors++;
          }
        }
      };
      const t0 = performance.now();
      await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
      return { rps: done / ((performance.now() - t0) / 1000), errors };
    };

    // BENCH_EXPLAIN=1: the plan of the deepest page and the products table's writes, before and after the phases.
    const explain = async (when: string) => {
      if (!process.env.BENCH_EXPLAIN) return;
      const st = (await pool.query(`SELECT n_tup_ins, n_tup_upd, n_tup_hot_upd, n_dead_tup, last_vacuum, last_autovacuum FROM pg_stat_user_tables WHERE schemaname = 'catalog' AND relname = 'products'`)).rows[0];
      console.log(`  [${when}] catalog.products: ${JSON.stringify(st)}`);
      const db = (await pool.query(`SELECT sessions, xact_commit, xact_rollback, (SELECT count(*) FROM pg_stat_activity WHERE datname = $1) AS backends FROM pg_stat_database WHERE datname = $1`, [dbName])).rows[0];
      console.log(`  [${when}] base de datos: ${JSON.stringify(db)}`);
      const plan = await pool.query(
        `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) WITH s AS (SELECT id FROM catalog.stores WHERE subdomain = $1 AND is_active LIMIT 1)
             SELECT EXISTS (SELECT 1 FROM s) AS found,
               '{"products":[' || COALESCE((SELECT string_agg((SELECT p.public_json FROM catalog.products p WHERE p.id = page.id), ',' ORDER BY page.created_at DESC, page.id DESC)
                  FROM (SELECT p.id, p.created_at FROM catalog.products p WHERE p.store_id = (SELECT id FROM s) AND p.is_active ORDER BY p.created_at DESC, p.id DESC LIMIT $2 OFFSET $3) page), '')
               || '],"total":' || t.total || ',"totalPages":' || ceil(t.total / $2::numeric)::int || ',"currentPage":' || $4::int || '}' AS body
             FROM (SELECT COALESCE(sum(active), 0)::int AS total FROM catalog.product_counts WHERE store_id = (SELECT id FROM s)) t`,
        [subdomain, 24, 456, 20],
      );
      for (const r of plan.rows) console.log(`    ${r['QUERY PLAN']}`);
    };
    await explain('antes');
    await openLoop(Math.min(RATE, 200), 3); // warm-up: connections, prepared statements, JIT
    await openLoop(RATE, 5); // and at full rate, so pools have grown to what the rate needs
    const run = await openLoop(RATE, SECONDS);
    if (process.env.BENCH_DIRECT_OPEN) {
      const d = await openLoop(RATE, SECONDS, `http://127.0.0.1:${ports.catalog}`, true);
      console.log(`  directo: p50 ${round1(percentile(d.latencies, 50))} · p99 ${round1(percentile(d.latencies, 99))} · lag ${round1(d.lagMaxMs)} · peor por segundo ${d.worstBySecond.map((x) => Math.round(x)).join(' ')}`);
    }
    await explain('después');
    const p = (q: number) => round1(percentile(run.latencies, q));
    console.log(`  bucle abierto a ${RATE} req/s durante ${SECONDS} s a través del gateway: ${run.latencies.length} respuestas, ${run.errors} errores`);
    console.log(`  latencia ms: p50 ${p(50)} · p95 ${p(95)} · p99 ${p(99)} · máx ${p(100)}`);
    console.log(`  peor latencia por segundo (ms): ${run.worstBySecond.map((x) => Math.round(x)).join(' ')}`);
    console.log(`  retraso máximo del event loop del generador de carga: ${round1(run.lagMaxMs)} ms`);

    /** Runs a phase and prints the CPU milliseconds per request each process spent on it. */
    const profiled = async <T extends { rps?: number }>(label: string, requests: () => number, phase: () => Promise<T>): Promise<T> => {
      await resetPgStatements(pool);
      const backends = (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName])).rows.map((r) => r.pid);
      const pids = [...children.map((c) => [c.name, c.child.pid!] as const), ...backends.map((pid) => ['postgres', pid] as const)];
      const before = pids.map(([, pid]) => cpuSeconds(pid));
      const self = process.cpuUsage();
      const machine = machineBusySeconds();
      const result = await phase();
      const n = requests();
      const per = (seconds: number) => round1((seconds * 1000) / n);
      const own = process.cpuUsage(self);
      const used = new Map<string, number>();
      pids.forEach(([name, pid], i) => used.set(name, (used.get(name) ?? 0) + (cpuSeconds(pid) - before[i] || 0)));
      const parts = [...used].map(([name, seconds]) => `${name} ${per(seconds)}`);
      console.log(`    CPU ms por solicitud (${label}): ${parts.join(' · ')} · bench ${per((own.user + own.system) / 1e6)} · máquina entera ${per(machineBusySeconds() - machine)}`);
      await printPgStatements(pool, dbName, 15);
      return result;
    };
    let count = 0;
    const viaGateway = await profiled('gateway', () => count, async () => {
      const r = await closedLoop(gateway, false, THROUGHPUT_SECONDS);
      count = Math.round(r.rps * THROUGHPUT_SECONDS);
      return r;
    });
    const straight = await profiled('directo', () => count, async () => {
      const r = await closedLoop(direct, true, THROUGHPUT_SECONDS);
      count = Math.round(r.rps * THROUGHPUT_SECONDS);
      return r;
    });
    const ratio = Math.round((viaGateway.rps / straight.rps) * 100) / 100;
    console.log(`  rendimiento (${CONCURRENCY} concurrentes, ${THROUGHPUT_SECONDS} s): gateway ${Math.round(viaGateway.rps)} req/s · directo al catálogo ${Math.round(straight.rps)} req/s · proporción ${ratio}`);
    await gateway.close();
    await direct.close();

    const shopKb = shopJsGzKb();
    console.log(`  JS inicial de la tienda (gzip): ${shopKb === null ? 'sin compilación web' : `${shopKb} KB`}`);
    const p99 = p(99);
    const errors = run.errors + viaGateway.errors + straight.errors;
    console.log(
      `  objetivos: p99 ≤ 25 ms ${p99 <= 25 ? '✓' : '✗'} · 0 errores ${errors === 0 ? '✓' : '✗'} · proporción ≥ 0.60 ${ratio >= 0.6 ? '✓' : '✗'} · JS ≤ 120 KB ${shopKb !== null && shopKb <= 120 ? '✓' : '✗'}`,
    );
    console.log(JSON.stringify({ catalog_p99_ms: p99, catalog_errors: run.errors, gateway_ratio: ratio, shop_js_gz_kb: shopKb }));
  } finally {
    await stopAll();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
