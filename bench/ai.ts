// AI helpers bench (issue 15): the enhance-search fallback (no model) through the gateway on a
// store with 10,000 products at 100 req/s (open loop), the search's first-3 hit rate on the fixed
// catalogue of libs/ai/test/search-catalogue.ts, and the shop route's initial JS (gzipped).
// Starts identity, catalog, inventory and the gateway as separate processes (as `npm start` does).
// Last line: {"search_p99_ms":…,"search_top3_hit_rate":…,"shop_js_gz_kb":…}
import { SearchIndex, type SearchDoc } from '@tiendita/ai';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { CATALOGUE, QUERIES } from '../libs/ai/test/search-catalogue';
import { startBenchRun } from './_db';
import { percentile, round1, runBench, runOpenLoop, shopJsGzKb, waitFor } from './_measure';
import { machineBusySeconds } from './_proc';
import { appendCatalog, catalogSettled, cpuMeter, loadProductFields, registerOwner, startBenchStack } from './_stack';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const VARIANTS = ['clásico', 'económico', 'profesional', 'industrial', 'compacto', 'reforzado'];
/** What shoppers type: names, typos, plurals, categories, price phrases. */
const LOAD_QUERIES = QUERIES.map((q) => q.query);

async function main(): Promise<void> {
  const bench = await startBenchRun('ai');
  const { pool } = bench;
  try {
    const { gatewayUrl } = await startBenchStack(bench, ['identity', 'catalog', 'inventory', 'gateway'], { OPENAI_API_KEY: '', AI_SEARCH_RATE_LIMIT: '1000000' });
    console.log(`bench ai: identity, catalog, inventory y gateway arrancados (${gatewayUrl})`);

    const { storeId, subdomain } = await registerOwner(gatewayUrl, { lastName: 'Catálogo', storeName: 'Tienda de carga' });
    await waitFor('la tienda en el catálogo', async () => (await pool.query('SELECT 1 FROM catalog.stores WHERE id = $1', [storeId])).rowCount);

    // 10,000 products as catalog events (ten categories, one image each), the way commands append them.
    const seedStart = performance.now();
    const categoryNames = [...new Set(CATALOGUE.map((p) => p.category))];
    const categories = categoryNames.map((name) => ({ id: randomUUID(), name }));
    const products = Array.from({ length: PRODUCTS }, (_, i) => ({
      ...loadProductFields(i),
      productId: randomUUID(),
      storeId,
      name: `${CATALOGUE[i % CATALOGUE.length].name} ${VARIANTS[Math.floor(i / CATALOGUE.length) % VARIANTS.length]} ${i + 1}`,
      description: `${CATALOGUE[i % CATALOGUE.length].description} Modelo ${i + 1}.`,
      categoryId: categories[categoryNames.indexOf(CATALOGUE[i % CATALOGUE.length].category)].id,
    }));
    await appendCatalog(pool, storeId, 'bench', categories, products);
    await catalogSettled(pool, storeId, PRODUCTS);
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
      return runOpenLoop({ url: gatewayUrl, paths: [path], method: 'POST', bodies: LOAD_QUERIES.map((query) => ({ query })), headers: { [path]: { origin: gatewayUrl } }, rate, seconds, maxInFlight: 2000 });
    };
    await openLoop(RATE, 3); // warm-up
    const cpu = await cpuMeter(bench);
    const machineBefore = machineBusySeconds();
    const run = await openLoop(RATE, SECONDS);
    const used = cpu();
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
    await bench.stop();
  }
}

runBench(main);
