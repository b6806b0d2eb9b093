// The shop's speed on a phone (issue 15): Lighthouse 12 (mobile settings: its default, simulated
// slow 4G and a 4× slower CPU) on Debian's chromium against a started product: identity, catalog
// with the demo seed, inventory and the gateway serving the web build, each in its own process as
// `npm start` runs them. Measures the demo shop (/demo) and one of its product pages, with the
// search box and the assistant in place. One unmeasured run of each page first (image variants,
// caches), then BENCH_RUNS (5) runs each; the figure is the median. BENCH_LIGHTHOUSE_DIR=<dir> keeps
// each run's whole report; BENCH_SHOP_SERVE=1 only starts the product and waits; BENCH_SHOP_NO_JS=1
// also measures both pages with their scripts blocked (see below).
// Last line: {"shop_lighthouse_perf":…,"product_lighthouse_perf":…,"shop_lighthouse_a11y":…,"product_lighthouse_a11y":…}
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { startBenchRun } from './_db';
import { runBench, waitFor } from './_measure';
import { startBenchStack } from './_stack';

const root = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface LighthouseRun {
  performance: number;
  accessibility: number;
  metrics: { fcp: number; lcp: number; tbt: number; cls: number; si: number; ttfb: number };
  lcpElement: string | null;
  failedA11y: string[];
  mainThread: Record<string, number>;
  bootup: { url: string; total: number; scripting: number }[];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * One Lighthouse run in its own process (bench/_lighthouse.mjs). Lighthouse now and then fails to
 * record a trace on a busy machine (NO_NAVSTART): such a run is started again, up to twice, and said.
 */
async function lighthouse(url: string, blockScripts = false): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, blockScripts);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`  (Lighthouse falló: ${(error as Error).message}; se repite la corrida)`);
    }
  }
}

async function lighthouseOnce(url: string, blockScripts: boolean): Promise<LighthouseRun> {
  const child = spawn(process.execPath, [join(__dirname, '_lighthouse.mjs'), JSON.stringify({ url, chromePath: CHROMIUM, blockScripts })], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  if (code !== 0) throw new Error(`lighthouse terminó con código ${code}`);
  return JSON.parse(out) as LighthouseRun;
}

function describe(run: LighthouseRun): string {
  const m = run.metrics;
  return `rendimiento ${run.performance} · accesibilidad ${run.accessibility} · FCP ${m.fcp} ms · LCP ${m.lcp} ms · TBT ${m.tbt} ms · CLS ${m.cls} · SI ${m.si} ms · carga ${loadavg()[0].toFixed(2)}`;
}

async function main(): Promise<void> {
  const bench = await startBenchRun('shop');
  try {
    const { gatewayUrl } = await startBenchStack(bench, ['identity', 'catalog', 'inventory', 'gateway'], { SEED_DEMO: '1', OPENAI_API_KEY: '' });
    console.log(`bench shop: identity, catalog (con la tienda demo), inventory y gateway arrancados (${gatewayUrl})`);

    const products = await waitFor('los productos de la tienda demo', async () => {
      const r = await fetch(`${gatewayUrl}/api/public/products/demo?limit=12`);
      if (!r.ok) return null;
      const body = (await r.json()) as { products: { id: string; imageUrl: string | null }[] };
      return body.products.length > 0 ? body.products : null;
    }, 120_000, 200);
    const productUrl = `${gatewayUrl}/demo/product/${products[0].id}`;
    const pages = [
      { key: 'shop', url: `${gatewayUrl}/demo` },
      { key: 'product', url: productUrl },
    ] as const;

    // BENCH_SHOP_SERVE=1: only start the product and keep it running (for Lighthouse or a profiler by hand) until Ctrl-C.
    if (process.env.BENCH_SHOP_SERVE === '1') {
      console.log(`sirviendo: ${pages.map((p) => p.url).join(' · ')} (Ctrl-C termina)`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      return;
    }

    const results: Record<string, LighthouseRun[]> = { shop: [], product: [] };
    for (const page of pages) {
      console.log(`\n${page.url}`);
      const warm = await lighthouse(page.url);
      console.log(`  (sin contar) ${describe(warm)}`);
      for (let i = 0; i < RUNS; i++) {
        const run = await lighthouse(page.url);
        results[page.key].push(run);
        console.log(`  ${i + 1}. ${describe(run)}`);
      }
      const last = results[page.key][results[page.key].length - 1];
      console.log(`  elemento LCP: ${last.lcpElement ?? '—'}`);
      console.log(`  hilo principal (ms): ${Object.entries(last.mainThread).map(([k, v]) => `${k} ${v}`).join(' · ')}`);
      console.log(`  JS más costoso: ${last.bootup.map((b) => `${b.url} ${b.total} ms`).join(' · ')}`);
      if (last.failedA11y.length) console.log(`  accesibilidad, auditorías no aprobadas: ${last.failedA11y.join(', ')}`);
    }
    // BENCH_SHOP_NO_JS=1: the same runs again with every script blocked (the first screen alone): the
    // blocking time the browser's own work on the HTML costs on this machine, which no change to the
    // app's JavaScript can take away.
    const noJs: Record<string, number[]> = { shop: [], product: [] };
    if (process.env.BENCH_SHOP_NO_JS === '1') {
      for (const page of pages) {
        console.log(`\n${page.url} sin JavaScript`);
        for (let i = 0; i < RUNS; i++) {
          const run = await lighthouse(page.url, true);
          noJs[page.key].push(run.metrics.tbt);
          console.log(`  ${i + 1}. ${describe(run)}`);
        }
      }
    }
    const figure = (key: string, pick: (r: LighthouseRun) => number) => {
      const xs = results[key].map(pick);
      return { median: median(xs), spread: `${Math.min(...xs)}–${Math.max(...xs)}` };
    };
    const out = {
      shop_lighthouse_perf: figure('shop', (r) => r.performance),
      product_lighthouse_perf: figure('product', (r) => r.performance),
      shop_lighthouse_a11y: figure('shop', (r) => r.accessibility),
      product_lighthouse_a11y: figure('product', (r) => r.accessibility),
    };
    const tbt = (xs: number[]) => `${median(xs)} ms (${Math.min(...xs)}–${Math.max(...xs)})`;
    console.log(`\nmedianas (rango): ${Object.entries(out).map(([k, v]) => `${k} ${v.median} (${v.spread})`).join(' · ')}`);
    console.log(`tiempo de bloqueo: /demo ${tbt(results.shop.map((r) => r.metrics.tbt))} · producto ${tbt(results.product.map((r) => r.metrics.tbt))}`);
    if (noJs.shop.length) console.log(`tiempo de bloqueo sin JavaScript: /demo ${tbt(noJs.shop)} · producto ${tbt(noJs.product)}`);
    console.log(JSON.stringify(Object.fromEntries(Object.entries(out).map(([k, v]) => [k, v.median]))));
  } finally {
    await bench.stop();
  }
}

runBench(main);
