// The owner app's speed (issue 27). Sizes from Vite's manifest (gzip): the JavaScript the landing
// page loads, what the owner's first screen loads (entry + owner app + the dashboard), and each
// owner route's own chunks (those no other owner screen loads) beside all it adds beyond the first screen. Then Lighthouse (mobile,
// bench/_lighthouse.mjs) with a signed-in demo owner: BENCH_RUNS (5) runs of /dashboard, /orders
// and /pos, median performance; one accessibility run of /login and every owner screen.
// The product runs as `npm start` does (scripts/start.mjs) on a free port, with a fresh database on
// DATABASE_URL's server; BENCH_WEB_URL=<url of a running Tiendita> measures that one instead, and
// BENCH_WEB_SIZES_ONLY=1 stops after the sizes, BENCH_RUNS=0 measures accessibility alone; --no-build reads
// the build in WEB_DIST_DIR (else web/dist). The build writes .br/.gz beside its files (vite.config.ts), so
// the gateway serves them compressed as under npm start (before 2026-11-28 the bench's copy had none, and
// Lighthouse downloaded the owner app's ~850 KB raw).
// Last line: {"landing_js_gz_kb":…,"owner_js_gz_kb":…,"max_route_chunk_gz_kb":…,"dashboard_lighthouse_perf":…,"orders_lighthouse_perf":…,"pos_lighthouse_perf":…}
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const webDir = join(root, 'web');
// The build is copied aside at once: other builds in the same tree (npm start, other benches) rewrite
// web/dist, and the product measured here serves this copy (WEB_DIST_DIR).
const distDir = mkdtempSync(join(tmpdir(), 'tiendita-bench-web-dist-'));
process.on('exit', () => rmSync(distDir, { recursive: true, force: true }));
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const LANDING_BUDGET_KB = 120;
const OWNER_BUDGET_KB = 250;
const ROUTE_BUDGET_KB = 150;

const OWNER_ROUTES = {
  products: 'src/features/products/products-page.tsx',
  orders: 'src/features/orders/pages/orders-page.tsx',
  receipt: 'src/features/orders/pages/receipt-page.tsx',
  pos: 'src/features/pos/pos-page.tsx',
  reports: 'src/features/reports/reports-page.tsx',
  inventory: 'src/features/inventory/inventory-page.tsx',
  settings: 'src/features/settings/settings-page.tsx',
  reviews: 'src/features/reviews/pages/reviews-page.tsx',
};

// ---- sizes --------------------------------------------------------------------------------
if (!process.argv.includes('--no-build')) {
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn', '--outDir', distDir, '--emptyOutDir'], { cwd: webDir, stdio: 'inherit' });
} else {
  cpSync(process.env.WEB_DIST_DIR ?? join(webDir, 'dist'), distDir, { recursive: true });
}
const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry in the Vite manifest');

/** A chunk and everything it imports statically, as output file names. */
function closure(key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the Vite manifest`);
  if (seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) closure(imported, seen);
  return seen;
}
const gzCache = new Map();
const gzBytes = (file) => {
  if (!gzCache.has(file)) gzCache.set(file, gzipSync(readFileSync(join(distDir, file))).length);
  return gzCache.get(file);
};
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;
const js = (files) => [...files].filter((f) => f.endsWith('.js'));
const total = (files) => files.reduce((sum, f) => sum + gzBytes(f), 0);

function report(title, files) {
  console.log(`\n${title} (${files.length} archivos JS):`);
  for (const f of [...files].sort((a, b) => gzBytes(b) - gzBytes(a))) console.log(`  ${String(kb(gzBytes(f))).padStart(7)} KB  ${f}`);
  console.log(`  ${String(kb(total(files))).padStart(7)} KB  total gzip`);
}

const entry = closure(entryKey);
const landing = js(new Set([...entry, ...closure('src/features/landing/landing-page.tsx')]));
// The owner's first screen: the entry, the owner app, and the dashboard (its own chunk or inside the owner app).
const dashboardKey = Object.keys(manifest).find((k) => k.endsWith('src/features/dashboard/dashboard-page.tsx'));
const ownerFiles = new Set([...entry, ...closure('src/features/shell/owner-app.tsx'), ...(dashboardKey ? closure(dashboardKey) : [])]);
const owner = js(ownerFiles);
report('página de inicio', landing);
report('primera pantalla del dueño (/dashboard)', owner);

// A route's own chunks: its chunk and those no other owner screen loads, also those it loads on
// demand (the charts of reports, its dialogs). Chunks several screens share (antd's Table, Form,
// DatePicker) are listed apart: each is loaded once, by whichever of those screens opens first. All
// beyond the first screen; 'en total' is what the screen loads when it opens (static imports).
const routeKeys = Object.entries(OWNER_ROUTES)
  .map(([route, source]) => [route, Object.keys(manifest).find((k) => k.endsWith(source))])
  .filter(([, key]) => key);
const routeEntryFiles = new Set(routeKeys.map(([, key]) => manifest[key].file));
const fileKey = new Map(Object.entries(manifest).map(([k, c]) => [c.file, k]));
/** The route's static closure and, one level down, what its own chunks load on demand (not other screens). */
function routeClosure(key) {
  const files = closure(key);
  for (const file of [...files]) {
    for (const dyn of manifest[fileKey.get(file)]?.dynamicImports ?? []) {
      if (!routeEntryFiles.has(manifest[dyn].file) && !ownerFiles.has(manifest[dyn].file)) closure(dyn, files);
    }
  }
  return files;
}
const routeFiles = Object.fromEntries(routeKeys.map(([route, key]) => [route, js(routeClosure(key)).filter((f) => !ownerFiles.has(f))]));
const routeOpening = Object.fromEntries(routeKeys.map(([route, key]) => [route, js(closure(key)).filter((f) => !ownerFiles.has(f))]));
const usedBy = new Map();
for (const files of Object.values(routeFiles)) for (const f of files) usedBy.set(f, (usedBy.get(f) ?? 0) + 1);
console.log('\nlo propio de cada pantalla del dueño (sus chunks, que ninguna otra pantalla carga) · todo lo que carga más allá de la primera pantalla:');
let maxRoute = 0;
for (const [route, files] of Object.entries(routeFiles)) {
  const own = files.filter((f) => usedBy.get(f) === 1);
  const size = total(own);
  maxRoute = Math.max(maxRoute, size);
  const biggest = [...own].sort((a, b) => gzBytes(b) - gzBytes(a))[0];
  console.log(`  ${String(kb(size)).padStart(7)} KB  ${route} (${own.length} archivos; el mayor ${biggest ? `${biggest} ${kb(gzBytes(biggest))} KB` : '—'}) · ${kb(total(routeOpening[route]))} KB en total`);
}
const shared = [...usedBy].filter(([, n]) => n > 1).map(([f]) => f);
console.log(`  ${String(kb(total(shared))).padStart(7)} KB  compartidos por varias pantallas (${shared.length} archivos; el mayor ${[...shared].sort((a, b) => gzBytes(b) - gzBytes(a)).slice(0, 3).map((f) => `${f} ${kb(gzBytes(f))} KB`).join(', ')})`);

const result = { landing_js_gz_kb: kb(total(landing)), owner_js_gz_kb: kb(total(owner)), max_route_chunk_gz_kb: kb(maxRoute) };
if (result.landing_js_gz_kb > LANDING_BUDGET_KB) console.log(`AVISO: la página de inicio supera ${LANDING_BUDGET_KB} KB`);
if (result.owner_js_gz_kb > OWNER_BUDGET_KB) console.log(`AVISO: la primera pantalla del dueño supera ${OWNER_BUDGET_KB} KB`);
if (result.max_route_chunk_gz_kb > ROUTE_BUDGET_KB) console.log(`AVISO: una pantalla supera ${ROUTE_BUDGET_KB} KB propios`);

// ---- Lighthouse, signed in --------------------------------------------------------------------
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const { freePort } = createRequire(import.meta.url)('../scripts/lib/free-ports.cjs');

function lighthouseOnce(url, cookie, categories) {
  const input = JSON.stringify({ url, categories, extraHeaders: cookie ? { Cookie: cookie } : undefined });
  const child = spawn(process.execPath, [join(root, 'bench', '_lighthouse.mjs'), input], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => child.once('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`lighthouse terminó con código ${code}`)))));
}

async function signIn(base) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: base },
      body: JSON.stringify({ email: 'demo@tiendita.gt', password: 'Demo1234' }),
    }).catch(() => null);
    if (res?.ok) return res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    if (attempt > 120) throw new Error(`no se pudo iniciar sesión como la dueña demo (${res?.status ?? 'sin respuesta'})`);
    await sleep(1000);
  }
}

async function startProduct() {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL no está definida (npm run bench la define)');
  const dbName = `tiendita_bench_web_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = new URL(adminUrl);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-bench-web-'));
  const port = await freePort();
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: dbUrl.toString(), LOG_LEVEL: 'warn', WEB_DIST_DIR: distDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (log += chunk));
  const deadline = Date.now() + 240_000;
  while (!log.includes('Tiendita lista')) {
    if (child.exitCode !== null) throw new Error(`Tiendita no arrancó:\n${log.slice(-2000)}`);
    if (Date.now() > deadline) throw new Error('Tiendita no arrancó en 4 minutos');
    await sleep(500);
  }
  const stop = async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('close', resolve)));
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { base: `http://127.0.0.1:${port}`, stop };
}

if (process.env.BENCH_WEB_SIZES_ONLY === '1') {
  console.log(JSON.stringify(result));
  process.exit(0);
}

const product = process.env.BENCH_WEB_URL ? { base: process.env.BENCH_WEB_URL.replace(/\/+$/, ''), stop: async () => undefined } : await startProduct();
try {
  const cookie = await signIn(product.base);
  console.log(`\nLighthouse (móvil) con la dueña demo en ${product.base}, ${RUNS} corridas por pantalla:`);
  for (const page of RUNS > 0 ? ['dashboard', 'orders', 'pos'] : []) {
    const url = `${product.base}/${page}`;
    await lighthouseOnce(url, cookie, ['performance']).catch(() => undefined); // unmeasured: caches, projections
    const scores = [];
    for (let i = 0; i < RUNS; i++) {
      try {
        const run = await lighthouseOnce(url, cookie, ['performance']);
        scores.push(run.performance);
        const m = run.metrics;
        console.log(`  /${page}: rendimiento ${run.performance} · FCP ${m.fcp} ms · LCP ${m.lcp} ms · TBT ${m.tbt} ms · CLS ${m.cls} · SI ${m.si} ms · benchmarkIndex ${run.benchmarkIndex} · carga ${loadavg()[0].toFixed(2)} · LCP en ${String(run.lcpElement ?? '—').slice(0, 60)}`);
      } catch (error) {
        console.log(`  /${page}: corrida fallida (${error.message})`);
      }
    }
    result[`${page}_lighthouse_perf`] = median(scores);
  }
  console.log('\naccesibilidad (una corrida por pantalla):');
  for (const page of ['login', 'dashboard', 'products', 'orders', 'pos', 'reports', 'inventory', 'settings']) {
    const run = await lighthouseOnce(`${product.base}/${page}`, page === 'login' ? null : cookie, ['accessibility']).catch((error) => ({ accessibility: null, failedA11y: [error.message] }));
    console.log(`  /${page}: ${run.accessibility}${run.failedA11y.length ? ` (falla: ${run.failedA11y.join(', ')})` : ''}`);
  }
} finally {
  await product.stop();
}
console.log(JSON.stringify(result));
