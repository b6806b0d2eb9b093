// The offline POS (issue 28), measured in chromium against a running Tiendita (BENCH_OFFLINE_URL,
// e.g. http://localhost:3000 after `npm start`): a new owner with one product opens /pos online once,
// goes offline and reloads BENCH_OFFLINE_RELOADS times, 5 by default (ms until the first product shows, and the
// CPU chromium used for it), sells offline (ms from 'Confirmar
// venta' to the receipt; BENCH_OFFLINE_SALES sales, 100 by default), goes online and waits until the
// queue is empty (s), then counts the sales on the server twice or more (duplicates).
// Last line: {"offline_first_product_ms":…,"offline_receipt_ms":…,"sync_100_s":…,"duplicates":…}
/* global navigator -- evaluated in the page */
import { readdirSync, readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';

const base = (process.env.BENCH_OFFLINE_URL ?? '').replace(/\/+$/, '');
if (!base) {
  console.error('Define BENCH_OFFLINE_URL con la dirección de un Tiendita en marcha (por ejemplo http://localhost:3000 después de npm start).');
  process.exit(1);
}
const SALES = Number(process.env.BENCH_OFFLINE_SALES ?? 100);
const RELOADS = Number(process.env.BENCH_OFFLINE_RELOADS ?? 5);

/** CPU time (ms) used so far by chromium's processes (every process under this one): on a shared machine, steadier than the wall clock. */
function chromiumCpuMs() {
  const stats = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      stats.push({ pid: Number(d), ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch {
      // gone meanwhile
    }
  }
  const under = new Set([process.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const s of stats) {
      if (under.has(s.pid) || !under.has(s.ppid)) continue;
      under.add(s.pid);
      grew = true;
    }
  }
  return stats.filter((s) => s.pid !== process.pid && under.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) * 10;
}
const loadAtStart = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const context = await browser.newContext({ baseURL: base, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, locale: 'es-GT', reducedMotion: 'reduce' });
  const page = await context.newPage();
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const owner = { firstName: 'Ana', lastName: 'Bench', email: `bench-offline-${suffix}@example.com`, password: 'secreto1', storeName: `Bench ${suffix}`, subdomain: `bench-off-${suffix}`, businessType: 'grocery', storeDepartment: 'Guatemala' };
  await page.goto('/login');
  const call = (method, url, body) =>
    page.evaluate(
      async ({ method, url, body }) => {
        const res = await fetch(url, { method, credentials: 'include', headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
        return { status: res.status, body: await res.json().catch(() => null) };
      },
      { method, url, body },
    );
  const reg = await call('POST', '/api/auth/register', owner);
  if (reg.status >= 300) throw new Error(`registro: ${reg.status}`);
  const login = await call('POST', '/api/auth/login', { email: owner.email, password: owner.password });
  if (login.status >= 300) throw new Error(`inicio de sesión: ${login.status}`);
  const made = await call('POST', '/api/products', { name: 'Agua pura', price: 5, stock: 1000, categoryId: 'none', images: [], isActive: true });
  if (made.status !== 201) throw new Error(`producto: ${made.status}`);

  await page.goto('/pos');
  const card = page.getByRole('button', { name: 'Agregar 1 de Agua pura' });
  await card.waitFor({ timeout: 60_000 });
  await page.evaluate(() => navigator.serviceWorker.ready);
  await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), null, { timeout: 30_000 });
  await page.waitForTimeout(1000); // the catalogue's save and the assets' copy

  await context.setOffline(true);
  const firstProduct = [];
  const firstProductCpu = [];
  for (let i = 0; i < RELOADS; i++) {
    const c0 = chromiumCpuMs();
    const t0 = Date.now();
    await page.reload();
    await card.waitFor({ timeout: 30_000 });
    firstProduct.push(Date.now() - t0);
    firstProductCpu.push(chromiumCpuMs() - c0);
  }

  const receipt = [];
  for (let i = 0; i < SALES; i++) {
    await card.click();
    await page.locator('.pos__bar').getByRole('button', { name: /^Cobrar/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Cobrar' });
    await dialog.getByRole('button', { name: 'Exacto' }).click();
    const t0 = Date.now();
    await dialog.getByRole('button', { name: 'Confirmar venta' }).click();
    const done = page.getByRole('dialog', { name: 'Venta' });
    await done.getByText('Venta guardada sin conexión').waitFor();
    receipt.push(Date.now() - t0);
    await done.getByRole('button', { name: 'Nueva venta' }).click();
    await done.waitFor({ state: 'hidden' });
  }

  const t0 = Date.now();
  await context.setOffline(false);
  await page.getByTestId('pos-offline-status').waitFor({ state: 'detached', timeout: 300_000 });
  const syncS = (Date.now() - t0) / 1000;

  const orders = [];
  for (let p = 1; ; p++) {
    const r = await call('GET', `/api/orders?limit=100&page=${p}`);
    orders.push(...r.body.orders);
    if (p >= r.body.totalPages) break;
  }
  const numbers = orders.map((o) => (o.notes ?? '').match(/^Venta sin conexión (\S+)/)?.[1]).filter(Boolean);
  const duplicates = numbers.length - new Set(numbers).size;
  if (new Set(numbers).size !== SALES) throw new Error(`en el servidor hay ${new Set(numbers).size} ventas de ${SALES}`);

  const sorted = [...firstProduct].sort((a, b) => a - b);
  console.log(`carga del sistema (loadavg 1 min) al empezar ${loadAtStart}, al terminar ${readFileSync('/proc/loadavg', 'utf8').split(' ')[0]}`);
  console.log(`primer producto sin conexión, cada recarga: ${firstProduct.join(', ')} ms; CPU de chromium: ${firstProductCpu.join(', ')} ms`);
  console.log(`POS sin conexión en ${base}: primer producto ${median(firstProduct)} ms (mediana de ${RELOADS}, ${sorted[0]}–${sorted.at(-1)}; CPU ${median(firstProductCpu)} ms), recibo ${median(receipt)} ms (mediana de ${SALES}), ${SALES} ventas enviadas en ${syncS.toFixed(1)} s, ${duplicates} duplicadas`);
  console.log(JSON.stringify({ offline_first_product_ms: median(firstProduct), offline_first_product_min_ms: sorted[0], offline_first_product_max_ms: sorted.at(-1), offline_first_product_cpu_ms: median(firstProductCpu), offline_receipt_ms: median(receipt), sync_100_s: Number(syncS.toFixed(1)), duplicates }));
} finally {
  await browser.close();
}
