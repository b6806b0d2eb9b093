// `npm run bench -- reporting`: the owner's dashboard and reports on a store with 1,000,000 order events.
//
// Starts identity, reporting and the gateway as separate processes (their built dist/, as `npm start`
// runs them) on a fresh database, registers an owner and signs in through the gateway, then seeds the
// store with ordering's events: 1,000,000 OrderPlaced / OrderStatusChanged over the last year, bulk
// inserted into ordering's events table (multi-row INSERT … SELECT, one transaction per 10,000 orders,
// so the history spans many transaction ids), plus 200 products and their stock items appended with
// the event store. The reporting service projects all of it live (the measured paths are the real ones).
//  1. open loop through the gateway at 200 req/s for 30 s: GET /api/stats, then GET /api/reports?period=year
//     (a request is sent when due whether or not earlier ones answered; latency from the due time);
//  2. rebuild of every reporting projection from position 0, as `npm run replay` does it (shadow tables,
//     verify against the live ones, swap) while the service keeps serving; events/s, and the ratio to a
//     plain keyset SELECT of the same rows (the projections' sources) measured in the same run;
//  3. event to report: POS sales appended to ordering's event store one at a time at 20/s; for each, the
//     commit time (the event store's own append latency) and the time from its commit to the first
//     answer of GET /api/stats that counts it (sent every 4 ms after the commit, up to 2 in flight);
//  4. the dashboard route's initial JS gzipped (entry + owner app + static imports, from web/dist's Vite
//     manifest), and whether the charts library (recharts) is in it.
// Last line: {"stats_p99_ms":…,"reports_p99_ms":…,"rebuild_eps":…,"rebuild_ratio":…,"event_to_report_ratio":…,"dashboard_js_gz_kb":…}
// Targets: both p99 ≤ 25 ms; rebuild ≥ 50,000 events/s and ≥ 0.25 of the keyset read; event to report p99
// ≤ 2 × commit p99; charts library not in the dashboard's initial JS.
// Knobs: BENCH_EVENTS (1000000), BENCH_RATE (200), BENCH_SECONDS (30), BENCH_SALES (400), BENCH_SALES_RATE (20); BENCH_KEEP_DB=1 keeps the seeded database;
// BENCH_TRACE=1 also times each sale's stages (its NOTIFY's arrival, its row in reporting.orders, the
// /api/stats calls), from two more connections of the bench: it adds load, so not for the figures.
import { notifyChannel, PostgresEventStore, PostgresTransport, ProjectionRunner, type Projection } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { Pool } from 'undici';
import { startBenchRun } from './_db';
import { initialJs, percentile, round1, round2, runBench, runOpenLoop, sleep, waitFor } from './_measure';
import { machineBusySeconds } from './_proc';
import { cpuMeter, registerOwner, signIn, startBenchStack } from './_stack';

const root = join(__dirname, '..');
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const SALES = Number(process.env.BENCH_SALES ?? 400);
const SALES_RATE = Number(process.env.BENCH_SALES_RATE ?? 20);
const TRACE = process.env.BENCH_TRACE === '1';
/** BENCH_KEEP_DB=1 keeps the seeded database (its URL is printed): to look into a phase again without seeding. */
const KEEP_DB = process.env.BENCH_KEEP_DB === '1';
const PRODUCTS = 200;
const ORDERS_PER_TX = 10_000;
const READ_PAGE = 5000;

const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const log = (line: string) => console.log(line);

/**
 * The dashboard route's first load: the entry chunk, the owner app chunk (the dashboard page is in it)
 * and everything they import statically, gzipped; and whether recharts is among those files.
 */
function dashboardJs(): { kb: number; charts: boolean } | null {
  const load = initialJs((source) => /^src\/features\/shell\/owner-app\.[jt]sx?$/.test(source));
  // recharts marks its root element with this class; it is in its code whichever chunk holds it.
  return load && { kb: load.kb, charts: load.js.some((b) => b.includes('recharts-wrapper')) };
}

/** One chunk of the seed: orders [from, to) of the year, as ordering's events, in one INSERT. */
const SEED_SQL = `
INSERT INTO ordering.events (stream_id, stream_position, type, data, metadata)
SELECT 'order-' || o.id, e.pos, e.type, e.data,
       jsonb_build_object('eventId', gen_random_uuid(), 'schemaVersion', 1, 'storeId', $1::text, 'occurredAt', e.at,
                          'correlationId', null, 'causationId', null, 'actor', null)
FROM (
  SELECT g, gen_random_uuid() AS id, CASE WHEN $9::boolean THEN 0 ELSE g % 5 END AS kind, CASE WHEN $9::boolean THEN 'C' ELSE 'B' END AS prefix,
         $4::timestamptz + (g * $5::double precision) * interval '1 millisecond' AS placed_at
  FROM generate_series($2::int, $3::int - 1) AS g
) o
CROSS JOIN LATERAL (
  SELECT jsonb_agg(jsonb_build_object('productId', ($6::text[])[1 + l.p], 'productName', ($7::text[])[1 + l.p], 'sku', null,
                   'quantity', l.q, 'unitPrice', ($8::int[])[1 + l.p], 'lineTotal', l.q * ($8::int[])[1 + l.p])) AS items,
         sum(l.q * ($8::int[])[1 + l.p])::bigint AS total
  FROM (SELECT (o.g * 7 + k * 13) % ${PRODUCTS} AS p, 1 + (o.g + k) % 4 AS q FROM generate_series(0, o.g % 3) AS k) l
) it
CROSS JOIN LATERAL (
  SELECT o.kind < 3 AS pos,
         CASE WHEN o.kind < 3 THEN 1 WHEN o.placed_at > now() - interval '3 hours' THEN 1 WHEN o.kind = 3 THEN 3 ELSE 2 END AS events,
         to_char(o.placed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS placed
) x
CROSS JOIN LATERAL generate_series(1, x.events) AS s(pos)
CROSS JOIN LATERAL (SELECT s.pos, CASE s.pos WHEN 1 THEN 'OrderPlaced' ELSE 'OrderStatusChanged' END, x.placed, CASE s.pos
  WHEN 1 THEN jsonb_build_object(
      'orderId', o.id, 'storeId', $1::text, 'code', o.prefix || lpad(o.g::text, 7, '0'),
      'orderType', CASE WHEN x.pos THEN 'pos' ELSE 'whatsapp' END,
      'status', CASE WHEN x.pos THEN 'completed' ELSE 'pending' END,
      'paymentMethod', CASE WHEN x.pos THEN (ARRAY['cash', 'card', 'kash', 'zigi'])[1 + (o.g / 5) % 4] ELSE 'whatsapp' END,
      'paymentStatus', CASE WHEN x.pos THEN 'paid' ELSE 'pending' END,
      'customerName', CASE WHEN x.pos THEN 'Cliente de mostrador' ELSE 'Cliente ' || (o.g % 997) END,
      'customerPhone', CASE WHEN x.pos THEN null ELSE '502' || lpad((o.g % 100000000)::text, 8, '0') END,
      'customerAddress', null, 'customerEmail', null, 'customerNit', null, 'notes', null,
      'items', it.items, 'subtotal', it.total, 'tax', 0, 'total', it.total,
      'cashReceived', null, 'change', null, 'whatsappMessage', null,
      'placedBy', CASE WHEN x.pos THEN 'owner' ELSE 'public' END, 'placedAt', x.placed)
  WHEN 2 THEN jsonb_build_object(
      'orderId', o.id, 'storeId', $1::text, 'status', CASE WHEN o.kind = 3 THEN 'confirmed' ELSE 'cancelled' END,
      'previousStatus', 'pending', 'notes', null, 'changedBy', 'owner', 'changedAt', x.placed)
  ELSE jsonb_build_object(
      'orderId', o.id, 'storeId', $1::text, 'status', 'delivered', 'previousStatus', 'confirmed', 'notes', null,
      'changedBy', 'owner', 'changedAt', x.placed)
  END) AS e(pos, type, at, data)
ORDER BY o.g, e.pos`;

async function main(): Promise<void> {
  const bench = await startBenchRun('reporting', { poolMax: 6 });
  const { pool } = bench;
  const databaseUrl = bench.db.url;
  try {
    const server = (await pool.query<{ v: string; fsync: string; sc: string }>(`SELECT version() AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc`)).rows[0];
    log(`bench reporting: ${server.v.split(' on ')[0]}, fsync=${server.fsync}, synchronous_commit=${server.sc}; carga de la máquina ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    const { gatewayUrl } = await startBenchStack(bench, ['identity', 'reporting', 'gateway']);
    log(`  identity, reporting y gateway arrancados (${gatewayUrl})`);

    // An owner and store, registered and signed in the normal way.
    const registered = await registerOwner(gatewayUrl, { lastName: 'Reportes', storeName: 'Tienda de reportes' });
    const { storeId } = registered;
    const cookie = await signIn(gatewayUrl, registered);
    const gateway = new Pool(gatewayUrl, { connections: 64, pipelining: 1, keepAliveTimeout: 30_000 });
    const getJson = async <T>(path: string): Promise<T> => {
      const res = await gateway.request({ method: 'GET', path, headers: { cookie } });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode} ${text}`);
      return JSON.parse(text) as T;
    };

    // ---- seed ---------------------------------------------------------------------------------
    const seedStart = performance.now();
    const ordering = new PostgresEventStore(pool, 'ordering');
    await ordering.migrate();
    const catalog = new PostgresEventStore(pool, 'catalog');
    await catalog.migrate();
    const inventory = new PostgresEventStore(pool, 'inventory');
    await inventory.migrate();
    const products = Array.from({ length: PRODUCTS }, (_, i) => ({ id: randomUUID(), name: `Producto ${String(i + 1).padStart(3, '0')}`, price: 500 + ((i * 37) % 20_000) }));
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      for (let c = 0; c < 10; c++) {
        const categoryId = randomUUID();
        await catalog.append(`category-${categoryId}`, [{ type: 'CategoryCreated', data: { categoryId, storeId, name: `Categoría ${c + 1}`, description: null } }], 0, { storeId, actor: 'bench' }, client);
      }
      for (const [i, p] of products.entries()) {
        const data = { productId: p.id, storeId, name: p.name, description: null, sku: `SKU-${i + 1}`, priceCentavos: p.price, discountPercentage: 0, categoryId: null, images: [], isActive: i % 20 !== 0, initialStock: 50, createdBy: 'bench' };
        await catalog.append(`product-${p.id}`, [{ type: 'ProductCreated', data }], 0, { storeId, actor: 'bench' }, client);
        await inventory.append(`stock-${p.id}`, [{ type: 'StockItemOpened', data: { productId: p.id, storeId, stock: i % 10 === 0 ? 3 : 50 } }], 0, { storeId, actor: 'bench' }, client);
      }
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    // Orders spread evenly over the last 365 days up to a minute ago; 3 in 5 are POS sales (1 event),
    // 1 in 5 WhatsApp orders confirmed and delivered (3 events), 1 in 5 WhatsApp orders cancelled (2);
    // WhatsApp orders of the last 3 hours are still pending (1). Then POS sales up to EVENTS exactly.
    const orders = Math.round(EVENTS / 1.6);
    const end = Date.now() - 60_000;
    const span = 365 * 24 * 3600_000 - 120_000;
    const first = new Date(end - span).toISOString();
    const step = span / orders;
    const seedArgs = (from: number, to: number, posOnly: boolean) => [storeId, from, to, first, step, products.map((p) => p.id), products.map((p) => p.name), products.map((p) => p.price), posOnly];
    const seeder = await pool.connect();
    let seeded: number;
    try {
      // The planner's JIT would spend ~0.7 s compiling each chunk's expressions; the sort fits in memory.
      await seeder.query(`SET jit = off; SET work_mem = '64MB'`);
      for (let from = 0; from < orders; from += ORDERS_PER_TX) await seeder.query(SEED_SQL, seedArgs(from, Math.min(orders, from + ORDERS_PER_TX), false));
      seeded = Number((await seeder.query<{ n: string }>('SELECT count(*) AS n FROM ordering.events')).rows[0].n);
      let extra = 0;
      while (seeded < EVENTS) {
        // Spread over the same year (positions g reuse the same instants), POS only: one event each.
        const n = Math.min(EVENTS - seeded, ORDERS_PER_TX);
        await seeder.query(SEED_SQL, seedArgs(extra, extra + n, true));
        extra += n;
        seeded += n;
      }
    } finally {
      seeder.release();
    }
    const orderCount = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM ordering.events WHERE type = 'OrderPlaced'`)).rows[0].n);
    log(`  sembrados ${fmt(seeded)} eventos de ordering (${fmt(orderCount)} pedidos en 365 días), ${PRODUCTS} productos y su stock en ${round1((performance.now() - seedStart) / 1000)} s`);

    // The live projection follows (the service reads ordering's table as it does under `npm start`).
    const projectStart = performance.now();
    await waitFor(
      'la proyección de ventas',
      async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM reporting.orders WHERE store_id = $1', [storeId])).rows[0].n) >= orderCount,
      900_000,
    );
    await waitFor('la proyección de stock', async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM reporting.stock WHERE store_id = $1', [storeId])).rows[0].n) >= PRODUCTS);
    log(`  proyectados en vivo por el servicio en ${round1((performance.now() - projectStart) / 1000)} s`);
    // What autovacuum does on its own after a bulk load: statistics and the visibility map.
    await pool.query('VACUUM ANALYZE');
    await pool.query('CHECKPOINT');

    const stats = await getJson<{ todayOrders: number; todaySales: number; totalProducts: number; lowStockProducts: number; whatsappOrders: number }>('/api/stats');
    const year = await getJson<{ orderCount: number; totalSales: number; series: unknown[]; topProductsByUnits: unknown[] }>('/api/reports?period=year');
    log(`  /api/stats: hoy ${stats.todayOrders} pedidos, Q${stats.todaySales}; ${stats.totalProducts} productos, ${stats.lowStockProducts} con stock bajo, ${stats.whatsappOrders} WhatsApp pendientes`);
    log(`  /api/reports?period=year: ${fmt(year.orderCount)} ventas, Q${fmt(year.totalSales)}, ${year.series.length} meses, ${year.topProductsByUnits.length} productos top`);
    if (year.orderCount < orderCount * 0.5) throw new Error('el reporte anual no cuenta las ventas sembradas');

    // ---- 1: open loop ---------------------------------------------------------------------------
    /** Open loop at `rate` req/s for `seconds` on one path, from its own process (bench/_openloop.mjs). */
    const openLoop = async (path: string, rate: number, seconds: number) => {
      return runOpenLoop({ url: gatewayUrl, paths: [path], rate, seconds, maxInFlight: 1000, headers: { [path]: { cookie } } });
    };
    /** CPU ms per request of each process during a phase. */
    const profiled = async <T>(requests: (result: T) => number, phase: () => Promise<T>): Promise<{ result: T; line: string }> => {
      const cpu = await cpuMeter(bench);
      const machine = machineBusySeconds();
      const result = await phase();
      const n = requests(result);
      const per = (seconds: number) => round2((seconds * 1000) / n);
      const used = cpu();
      return { result, line: `CPU ms por solicitud: ${[...used].map(([name, s]) => `${name} ${per(s)}`).join(' · ')} · máquina entera ${per(machineBusySeconds() - machine)}` };
    };
    const measure = async (label: string, path: string) => {
      await openLoop(path, Math.min(RATE, 100), 3); // warm-up: connections, prepared statements, JIT
      await openLoop(path, RATE, 5); // and at full rate, so the pools have grown to what the rate needs
      const { result: run, line } = await profiled((r) => r.latencies.length, () => openLoop(path, RATE, SECONDS));
      const p = (q: number) => round1(percentile(run.latencies, q));
      log(`  ${label} a ${RATE} req/s durante ${SECONDS} s: ${run.latencies.length} respuestas, ${run.errors} errores; ms p50 ${p(50)} · p95 ${p(95)} · p99 ${p(99)} · máx ${p(100)}`);
      log(`    peor por segundo (ms): ${run.worstBySecond.map((x) => Math.round(x)).join(' ')}`);
      log(`    ${line}; carga ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
      return { p99: p(99), errors: run.errors };
    };
    const statsRun = await measure('GET /api/stats', '/api/stats');
    const reportsRun = await measure('GET /api/reports?period=year', '/api/reports?period=year');

    // ---- 2: rebuild -------------------------------------------------------------------------------
    const { projections } = require(join(root, 'services', 'reporting', 'dist', 'projections.js')) as { projections: Projection[] };
    const sources = [...new Set(projections.flatMap((p) => p.sources))];
    const reader = await pool.connect();
    const columns = 'global_position, stream_id, stream_position, type, data, metadata, transaction_id::text, recorded_at';
    const keyset = async (): Promise<number> => {
      const t0 = performance.now();
      let n = 0;
      for (const source of sources) {
        let last = 0;
        for (;;) {
          const r = await reader.query({ name: `keyset_${source}`, text: `SELECT ${columns} FROM ${source}.events WHERE global_position > $1 ORDER BY global_position LIMIT $2`, values: [last, READ_PAGE] });
          if (r.rows.length === 0) break;
          n += r.rows.length;
          last = Number(r.rows[r.rows.length - 1].global_position);
        }
      }
      const eps = n / ((performance.now() - t0) / 1000);
      return eps;
    };
    await keyset(); // warm the cache
    const keysetEps = await keyset();
    reader.release();
    log(`  lectura keyset simple de las fuentes (${sources.join(', ')}): ${fmt(keysetEps)} filas/s`);

    const transport = new PostgresTransport({ pool, schema: 'reporting', connectionString: databaseUrl });
    const quiet = { info: () => undefined, warn: () => undefined, error: (obj: object, msg?: string) => console.error(msg ?? '', obj) };
    const runner = new ProjectionRunner({ pool, schema: 'reporting', transport, projections, logger: quiet });
    // The live service keeps answering during the rebuild: a GET /api/stats every 250 ms.
    let probing = true;
    const probeLatencies: number[] = [];
    let probeErrors = 0;
    const prober = (async () => {
      while (probing) {
        const t0 = performance.now();
        try {
          await getJson('/api/stats');
          probeLatencies.push(performance.now() - t0);
        } catch {
          probeErrors++;
        }
        await sleep(250);
      }
    })();
    let rebuildEvents = 0;
    let rebuildSeconds = 0;
    let lastLine = 0;
    for (const p of projections) {
      const result = await runner.rebuild(p.name, {
        onProgress: (x) => {
          if (Date.now() - lastLine < 3000) return;
          lastLine = Date.now();
          log(`    ${p.name} (${x.phase}): ${fmt(x.done)}/${fmt(x.total)} eventos, ${fmt(x.eventsPerSecond)} ev/s, ETA ${x.etaSeconds === null ? '?' : round1(x.etaSeconds)} s`);
        },
      });
      if (!result.verified) throw new Error(`la reconstrucción de ${p.name} no se verificó contra la proyección en vivo`);
      rebuildEvents += result.events;
      rebuildSeconds += result.seconds;
      log(`  reconstruida ${p.name}: ${fmt(result.events)} eventos en ${round2(result.seconds)} s (${fmt(result.eventsPerSecond)} ev/s), verificada, intercambiada`);
    }
    probing = false;
    await prober;
    await transport.close();
    const rebuildEps = rebuildEvents / rebuildSeconds;
    const rebuildRatio = rebuildEps / keysetEps;
    probeLatencies.sort((a, b) => a - b);
    log(`  reconstrucción de las ${projections.length} proyecciones: ${fmt(rebuildEvents)} eventos en ${round2(rebuildSeconds)} s → ${fmt(rebuildEps)} ev/s (${round2(rebuildRatio)} de la lectura keyset)`);
    log(`    mientras tanto /api/stats respondió ${probeLatencies.length} veces (${probeErrors} errores), máx ${round1(probeLatencies[probeLatencies.length - 1] ?? NaN)} ms`);
    if (probeErrors > 0) throw new Error('el servicio dejó de responder durante la reconstrucción');

    // ---- 3: event to report -------------------------------------------------------------------------
    await pool.query('CHECKPOINT');
    const sales = new PostgresEventStore(pool, 'ordering');
    const baseline = (await getJson<{ todayOrders: number }>('/api/stats')).todayOrders;
    // After each commit, GET /api/stats is sent every POLL_MS (several in flight) until an answer
    // counts the sale: its presence is the arrival of the first answer that does.
    const poller = new Pool(gatewayUrl, { connections: 8, pipelining: 1, keepAliveTimeout: 30_000 });
    const POLL_MS = 4;
    const committedAt: number[] = [];
    const visibleAt: number[] = [];
    const commits: number[] = [];
    const seenAfter = async (count: number): Promise<number> => {
      let found = 0;
      const inFlight = new Set<Promise<void>>();
      const deadline = performance.now() + 30_000;
      while (!found) {
        if (performance.now() > deadline) throw new Error(`la venta ${count - baseline} no apareció en /api/stats en 30 s`);
        const sent = performance.now();
        const p = poller
          .request({ method: 'GET', path: '/api/stats', headers: { cookie } })
          .then(async (res) => {
            const body = JSON.parse(await res.body.text()) as { todayOrders: number };
            if (TRACE) statsLatencies.push(performance.now() - sent);
            if (body.todayOrders >= count && !found) found = performance.now();
          })
          .finally(() => inFlight.delete(p));
        inFlight.add(p);
        await sleep(POLL_MS);
        while (inFlight.size >= 2 && !found) await Promise.race(inFlight);
      }
      await Promise.all(inFlight);
      return found;
    };
    // BENCH_TRACE: when each sale's NOTIFY reached a listener, and when its row showed in reporting.orders.
    const notified: number[] = [];
    const projectedAt: number[] = [];
    const statsLatencies: number[] = [];
    let listener: pg.Client | null = null;
    let rowProbe: pg.Client | null = null;
    if (TRACE) {
      listener = new pg.Client({ connectionString: databaseUrl });
      await listener.connect();
      listener.on('notification', () => notified.push(performance.now()));
      await listener.query(`LISTEN ${notifyChannel('ordering')}`);
      rowProbe = new pg.Client({ connectionString: databaseUrl });
      await rowProbe.connect();
    }
    const traceRow = async (orderId: string, after: number): Promise<void> => {
      const deadline = after + 30_000;
      while (performance.now() < deadline) {
        const r = await rowProbe!.query({ name: 'trace_row', text: 'SELECT 1 FROM reporting.orders WHERE order_id = $1', values: [orderId] });
        if (r.rowCount) {
          projectedAt.push(performance.now());
          return;
        }
        await sleep(1);
      }
    };
    const t0 = performance.now();
    for (let i = 0; i < SALES; i++) {
      const due = t0 + (i / SALES_RATE) * 1000;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const p = products[i % PRODUCTS];
      const orderId = randomUUID();
      const placedAt = new Date().toISOString();
      const data = {
        orderId, storeId, code: `V${String(i).padStart(6, '0')}`, orderType: 'pos', status: 'completed', paymentMethod: 'cash', paymentStatus: 'paid',
        customerName: 'Cliente de mostrador', customerPhone: null, customerAddress: null, customerEmail: null, customerNit: null, notes: null,
        items: [{ productId: p.id, productName: p.name, sku: null, quantity: 1, unitPrice: p.price, lineTotal: p.price }],
        subtotal: p.price, tax: 0, total: p.price, cashReceived: null, change: null, whatsappMessage: null, placedBy: 'owner', placedAt,
      };
      const started = performance.now();
      await sales.append(`order-${orderId}`, [{ type: 'OrderPlaced', data }], 0, { storeId, occurredAt: placedAt, actor: 'bench' });
      const done = performance.now();
      commits.push(done - started);
      committedAt.push(done);
      const traced = TRACE ? traceRow(orderId, done) : null;
      visibleAt.push(await seenAfter(baseline + i + 1));
      await traced;
    }
    await poller.close();
    sales.close();
    const toReport = committedAt.map((c, i) => visibleAt[i] - c).sort((a, b) => a - b);
    commits.sort((a, b) => a - b);
    const commitP99 = percentile(commits, 99);
    const reportP99 = percentile(toReport, 99);
    const eventToReportRatio = reportP99 / commitP99;
    log(`  ${SALES} ventas POS a ${SALES_RATE}/s: commit en el event store p50 ${round1(percentile(commits, 50))} · p99 ${round1(commitP99)} ms; del commit a /api/stats p50 ${round1(percentile(toReport, 50))} · p99 ${round1(reportP99)} · máx ${round1(toReport[toReport.length - 1])} ms → proporción ${round2(eventToReportRatio)}`);
    if (TRACE) {
      await listener?.end();
      await rowProbe?.end();
      const firstAfter = (t: number) => notified.find((n) => n >= t) ?? NaN;
      const stage = (label: string, xs: number[]) => {
        const v = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
        return `${label} p50 ${round1(percentile(v, 50))} · p90 ${round1(percentile(v, 90))} · p99 ${round1(percentile(v, 99))} · máx ${round1(v[v.length - 1])}`;
      };
      log(`    traza: ${stage('commit→NOTIFY', committedAt.map((c) => firstAfter(c) - c))}`);
      log(`    traza: ${stage('commit→fila en reporting.orders', committedAt.map((c, i) => projectedAt[i] - c))}`);
      log(`    traza: ${stage('fila→respuesta de /api/stats', committedAt.map((_, i) => visibleAt[i] - projectedAt[i]))}`);
      log(`    traza: ${stage('duración de GET /api/stats', statsLatencies)}`);
    }
    await gateway.close();

    // ---- 4: dashboard JS ------------------------------------------------------------------------------
    const js = dashboardJs();
    log(`  JS inicial del panel (gzip): ${js ? `${js.kb} KB, librería de gráficas ${js.charts ? 'INCLUIDA' : 'no incluida'}` : 'sin compilación web'}`);

    const ok = (b: boolean) => (b ? '✓' : '✗');
    log(
      `  objetivos: stats p99 ≤ 25 ms ${ok(statsRun.p99 <= 25 && statsRun.errors === 0)} · reports p99 ≤ 25 ms ${ok(reportsRun.p99 <= 25 && reportsRun.errors === 0)} · ` +
        `reconstrucción ≥ 50,000 ev/s ${ok(rebuildEps >= 50_000)} y ≥ 0.25 ${ok(rebuildRatio >= 0.25)} · evento→reporte ≤ 2× commit ${ok(eventToReportRatio <= 2)} · gráficas fuera del panel ${ok(js !== null && !js.charts)}`,
    );
    console.log(
      JSON.stringify({
        stats_p99_ms: statsRun.p99,
        reports_p99_ms: reportsRun.p99,
        rebuild_eps: Math.round(rebuildEps),
        rebuild_ratio: round2(rebuildRatio),
        event_to_report_ratio: round2(eventToReportRatio),
        dashboard_js_gz_kb: js?.kb ?? null,
      }),
    );
  } finally {
    if (KEEP_DB) log(`  base de datos conservada: ${databaseUrl}`);
    await bench.stop({ keep: KEEP_DB });
  }
}

runBench(main);
