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
import { signInternalHeaders } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import { Pool } from 'undici';
import { startBenchRun } from './_db';
import { percentile, round1, runBench, runOpenLoop, shopJsGzKb, waitFor } from './_measure';
import { printPgStatements, resetPgStatements } from './_pg-statements';
import { machineBusySeconds } from './_proc';
import { appendCatalog, catalogSettled, cpuMeter, loadProductFields, registerOwner, startBenchStack } from './_stack';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 500);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const THROUGHPUT_SECONDS = Number(process.env.BENCH_THROUGHPUT_SECONDS ?? 10);
const CONCURRENCY = 32;
const MAX_IN_FLIGHT = 1000;
const PAGES = 20;
const LIMIT = 24;

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
  const bench = await startBenchRun('catalog');
  const { pool, secret } = bench;
  const dbName = bench.db.name;
  try {
    const stack = await startBenchStack(bench, ['identity', 'catalog', 'inventory', 'gateway']);
    const { gatewayUrl } = stack;
    console.log(`bench catalog: identity, catalog, inventory y gateway arrancados (${gatewayUrl})`);

    const { storeId, subdomain } = await registerOwner(gatewayUrl, { lastName: 'Catálogo', storeName: 'Tienda de carga' });
    await waitFor('la tienda en el catálogo', async () => (await pool.query('SELECT 1 FROM catalog.stores WHERE id = $1', [storeId])).rowCount);

    // 10,000 products as catalog events (ten categories, one image each), the way commands append them.
    const seedStart = performance.now();
    const categories = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), name: `Categoría ${i + 1}` }));
    const products = Array.from({ length: PRODUCTS }, (_, i) => ({
      ...loadProductFields(i),
      productId: randomUUID(),
      storeId,
      name: `Producto ${String(i + 1).padStart(5, '0')}`,
      description: `Descripción del producto ${i + 1}`,
      categoryId: categories[i % categories.length].id,
    }));
    await appendCatalog(pool, storeId, 'bench', categories, products);
    await catalogSettled(pool, storeId, PRODUCTS);
    console.log(`  ${PRODUCTS} productos sembrados y proyectados en ${round1((performance.now() - seedStart) / 1000)} s`);

    const path = (i: number) => `/api/public/products/${subdomain}?page=${(i % PAGES) + 1}&limit=${LIMIT}`;
    const gateway = new Pool(gatewayUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    const direct = new Pool(stack.urls.catalog!, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    const signedFor = (p: string) => signInternalHeaders(secret, { method: 'GET', path: p });

    const first = await gateway.request({ method: 'GET', path: path(0) });
    const firstText = await first.body.text();
    const firstBody = JSON.parse(firstText) as { total: number; products: unknown[] };
    if (first.statusCode !== 200 || firstBody.products.length !== LIMIT) throw new Error(`respuesta inesperada: ${first.statusCode}`);
    console.log(`  la lista pública responde: ${firstBody.total} productos activos, ${firstBody.products.length} por página (${round1(Buffer.byteLength(firstText) / 1024)} KB)`);

    /** Open loop at `rate` req/s for `seconds`, from its own process (bench/_openloop.mjs). */
    const openLoop = async (rate: number, seconds: number, target = gatewayUrl, signed = false) => {
      const paths = Array.from({ length: PAGES }, (_, i) => path(i));
      return runOpenLoop({ url: target, paths, rate, seconds, maxInFlight: MAX_IN_FLIGHT, ...(signed ? { internalSecret: secret } : {}) });
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
      const d = await openLoop(RATE, SECONDS, stack.urls.catalog!, true);
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
      const cpu = await cpuMeter(bench);
      const self = process.cpuUsage();
      const machine = machineBusySeconds();
      const result = await phase();
      const n = requests();
      const per = (seconds: number) => round1((seconds * 1000) / n);
      const own = process.cpuUsage(self);
      const used = cpu();
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
    await bench.stop();
  }
}

runBench(main);
