// AI helpers bench (issue 15): the enhance-search fallback (no model) through the gateway on a
// store with 10,000 products at 100 req/s (open loop), the search's first-3 hit rate on the fixed
// catalogue of libs/ai/test/search-catalogue.ts, and the shop route's initial JS (gzipped).
// Starts identity, catalog, inventory and the gateway as separate processes (as `npm start` does).
// Last line: {"search_p99_ms":…,"search_top3_hit_rate":…,"shop_js_gz_kb":…}
import { SearchIndex, type SearchDoc } from '@tiendita/ai';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { CATALOGUE, QUERIES } from '../libs/ai/test/search-catalogue';
import { cpuSeconds, machineBusySeconds } from './_proc';
import { benchServiceEnv, freePort, startServiceProcess, stopServiceProcess, type ServiceName, type ServiceProcess } from './_services';

const root = join(__dirname, '..');
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const VARIANTS = ['clásico', 'económico', 'profesional', 'industrial', 'compacto', 'reforzado'];
/** What shoppers type: names, typos, plurals, categories, price phrases. */
const LOAD_QUERIES = QUERIES.map((q) => q.query);

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

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL no está definida (npm run bench la define)');
  const dbName = `tiendita_bench_ai_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const databaseUrl = dbUrl.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-bench-ai-'));
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
      const env = benchServiceEnv({ urls, gatewayPort: ports.gateway, databaseUrl, secret, dataDir, extra: { OPENAI_API_KEY: '', AI_SEARCH_RATE_LIMIT: '1000000' } });
      children.push(await startServiceProcess(name, ports[name], env));
    };
    await start('identity');
    await start('catalog');
    await start('inventory');
    await start('gateway');
    const gatewayUrl = `http://127.0.0.1:${ports.gateway}`;
    console.log(`bench ai: identity, catalog, inventory y gateway arrancados (${gatewayUrl})`);

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
    const categoryNames = [...new Set(CATALOGUE.map((p) => p.category))];
    const categories = categoryNames.map((name) => ({ id: randomUUID(), name }));
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
          name: `${CATALOGUE[i % CATALOGUE.length].name} ${VARIANTS[Math.floor(i / CATALOGUE.length) % VARIANTS.length]} ${i + 1}`,
          description: `${CATALOGUE[i % CATALOGUE.length].description} Modelo ${i + 1}.`,
          sku: `SKU-${i + 1}`,
          priceCentavos: 500 + ((i * 37) % 20_000),
          discountPercentage: i % 7 === 0 ? 10 : 0,
          categoryId: categories[categoryNames.indexOf(CATALOGUE[i % CATALOGUE.length].category)].id,
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

    const first = await fetch(`${gatewayUrl}/api/ai/enhance-search/${subdomain}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: gatewayUrl },
      body: JSON.stringify({ query: 'martillo' }),
    });
    if (first.status !== 200 || !(await first.text()).includes('suggestedProducts')) throw new Error('enhance-search no respondió 200');
    /** Open loop at `rate` req/s for `seconds`, from its own lean process (bench/_openloop.mjs): what shoppers type, in turn. */
    const openLoop = async (rate: number, seconds: number) => {
      const path = `/api/ai/enhance-search/${subdomain}`;
      const input = JSON.stringify({ url: gatewayUrl, paths: [path], method: 'POST', bodies: LOAD_QUERIES.map((query) => ({ query })), headers: { [path]: { origin: gatewayUrl } }, rate, seconds, maxInFlight: 2000 });
      const child = spawn(process.execPath, ['--single-threaded-gc', join(__dirname, '_openloop.mjs'), input], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      if (code !== 0) throw new Error(`el generador de carga terminó con código ${code}`);
      return JSON.parse(out) as { latencies: number[]; errors: number; seconds: number };
    };
    await openLoop(RATE, 3); // warm-up
    const backends = (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [dbName])).rows.map((r) => r.pid);
    const pids = [...children.map((c) => [c.name, c.child.pid!] as const), ...backends.map((pid) => ['postgres', pid] as const)];
    const cpuBefore = pids.map(([, pid]) => cpuSeconds(pid));
    const machineBefore = machineBusySeconds();
    const run = await openLoop(RATE, SECONDS);
    const used = new Map<string, number>();
    pids.forEach(([name, pid], i) => used.set(name, (used.get(name) ?? 0) + (cpuSeconds(pid) - cpuBefore[i] || 0)));
    const requests = Math.max(1, run.latencies.length);
    const perRequest = (sec: number) => `${round1((sec * 1000) / requests)}`;
    const p = (q: number) => round1(percentile(run.latencies, q));
    console.log(`  enhance-search (sin modelo) a ${RATE} req/s durante ${SECONDS} s por el gateway: ${run.latencies.length} respuestas, ${run.errors} errores; p50 ${p(50)} ms · p90 ${p(90)} ms · p99 ${p(99)} ms · máx ${p(100)} ms`);
    console.log(
      `  CPU ms por búsqueda: ${[...used].map(([name, sec]) => `${name} ${perRequest(sec)}`).join(' · ')} · máquina entera ${perRequest(machineBusySeconds() - machineBefore)}; carga media ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );

    // The search alone, in this process, over the same 10,000 products (no HTTP, no other process):
    // what a query costs the catalog's event loop, to tell the code's share of the latency from the machine's.
    const docs: SearchDoc<null>[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      if (i % 50 === 0) continue; // the inactive ones
      const c = CATALOGUE[i % CATALOGUE.length];
      docs.push({
        id: String(i),
        name: `${c.name} ${VARIANTS[Math.floor(i / CATALOGUE.length) % VARIANTS.length]} ${i + 1}`,
        description: `${c.description} Modelo ${i + 1}.`,
        sku: `SKU-${i + 1}`,
        categoryName: c.category,
        finalPriceCentavos: Math.round((500 + ((i * 37) % 20_000)) * (i % 7 === 0 ? 0.9 : 1)),
        payload: null,
      });
    }
    const buildStart = performance.now();
    const big = new SearchIndex(docs);
    const buildMs = performance.now() - buildStart;
    const alone: number[] = [];
    for (let round = 0; round < 20; round++) {
      for (const q of LOAD_QUERIES) {
        const t0 = performance.now();
        big.search(q, { limit: 10 });
        alone.push(performance.now() - t0);
      }
    }
    alone.sort((a, b) => a - b);
    console.log(
      `  la búsqueda sola (${docs.length} productos activos, ${alone.length} consultas en este proceso): p50 ${percentile(alone, 50).toFixed(2)} ms · p99 ${percentile(alone, 99).toFixed(2)} ms · máx ${percentile(alone, 100).toFixed(2)} ms; índice construido en ${round1(buildMs)} ms`,
    );

    // Search quality: the fixed catalogue and its query table (the same index the endpoint uses).
    const index = new SearchIndex(CATALOGUE.map((c, i) => ({ id: String(i), name: c.name, description: c.description, categoryName: c.category, finalPriceCentavos: Math.round(c.price * 100), payload: null })));
    let hits = 0;
    for (const q of QUERIES) {
      const top = index.search(q.query).hits.slice(0, 3).map((h) => h.name);
      if (top.length > 0 && top.slice(0, Math.min(3, q.expect.length)).every((n) => q.expect.includes(n))) hits++;
    }
    const hitRate = Math.round((hits / QUERIES.length) * 1000) / 1000;
    console.log(`  calidad: ${hits}/${QUERIES.length} búsquedas con lo esperado en los 3 primeros`);
    const shopKb = shopJsGzKb();
    console.log(`  JS inicial de la tienda: ${shopKb} KB gzip (presupuesto 120)`);
    console.log(JSON.stringify({ search_p99_ms: p(99), search_top3_hit_rate: hitRate, shop_js_gz_kb: shopKb }));
  } finally {
    await stopAll();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
