// `npm run bench -- inventory`: the owner's inventory of a 10,000-product store, a product's long
// ledger, and a 5,000-row product import.
//
// Starts identity, catalog, inventory and the gateway as separate processes (their built dist/, as
// `npm start` runs them) on a fresh database, registers an owner through the gateway, seeds 10,000
// products as catalog events (inventory opens each one's stock item from them, as it does for the
// product form) and 100,000 stock movements of one product as inventory events, the way the
// commands append them, and waits for the read models. Then, through the gateway with the owner's
// session:
//  1. open loop: GET /api/inventory filtered and sorted (search, category, low and out of stock,
//     sort by name, stock and category both ways, pages near the start and the end) at 100 req/s
//     for 30 s (latency from the due time; at most 1,000 in flight, more counts as an error);
//  2. open loop: GET /api/inventory/history/{productId}?page=…&limit=50 of the product with 100,000
//     movements, pages from the first to the last, at 100 req/s for 30 s;
//  3. an import of a 5,000-row CSV (4,000 new products in 5 categories, 2 of them new, and 1,000
//     updates of price and stock) as the web client does it: preview, then the rows in chunks;
//     rows/s from the upload to the last chunk's answer, and the time until the last row shows in
//     GET /api/products.
// Last line: {"inventory_list_p99_ms":…,"history_p99_ms":…,"import_rows_per_s":…,…}
// Targets: list p99 ≤ 30 ms at 100 req/s; history p99 ≤ 30 ms, any page; import in under 60 s.
import { IMPORT_CHUNK_ROWS, type ImportPreviewResponse } from '@tiendita/contracts';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type pg from 'pg';
import { startBenchRun } from './_db';
import { percentile, round1, runBench, runOpenLoop, waitFor } from './_measure';
import { machineBusySeconds } from './_proc';
import { appendCatalog, cpuMeter, registerOwner, signIn, startBenchStack } from './_stack';

const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 100_000);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 5_000);
const RATE = Number(process.env.BENCH_RATE ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const HISTORY_LIMIT = 50;

const count = async (pool: pg.Pool, sql: string, args: unknown[]) => Number((await pool.query<{ n: string }>(sql, args)).rows[0].n);

async function main(): Promise<void> {
  const bench = await startBenchRun('inventory');
  const { pool } = bench;
  try {
    const { gatewayUrl } = await startBenchStack(bench, ['identity', 'inventory', 'catalog', 'gateway']);
    console.log(`bench inventory: identity, inventory, catalog y gateway arrancados (${gatewayUrl})`);

    // An owner and store, registered and signed in the normal way.
    const registered = await registerOwner(gatewayUrl, { lastName: 'Inventario', storeName: 'Tienda de carga' });
    const { storeId, userId } = registered;
    const cookie = await signIn(gatewayUrl, registered);
    const owner = (path: string, init: RequestInit = {}) => fetch(`${gatewayUrl}${path}`, { ...init, headers: { cookie, origin: gatewayUrl, ...(init.headers ?? {}) } });
    await waitFor('la tienda en el catálogo', async () => (await pool.query('SELECT 1 FROM catalog.stores WHERE id = $1', [storeId])).rowCount);

    // 10,000 products as catalog events (ten categories), the way commands append them.
    const seedStart = performance.now();
    const categories = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), name: `Categoría ${String.fromCharCode(65 + i)}` }));
    const products = Array.from({ length: PRODUCTS }, (_, i) => ({
      productId: randomUUID(),
      storeId,
      name: `Producto ${String(i + 1).padStart(5, '0')}`,
      description: null,
      sku: `SKU-${i + 1}`,
      priceCentavos: 500 + ((i * 37) % 20_000),
      discountPercentage: 0,
      categoryId: categories[i % categories.length].id,
      images: [],
      isActive: true,
      initialStock: i % 40,
      createdBy: userId,
    }));
    const productIds = products.map((p) => p.productId);
    await appendCatalog(pool, storeId, userId, categories, products);
    await waitFor('los ítems de inventario', async () => (await count(pool, 'SELECT count(*) AS n FROM inventory.stock_items WHERE store_id = $1', [storeId])) >= PRODUCTS, 600_000);
    await waitFor('los productos en inventario', async () => (await count(pool, 'SELECT count(*) AS n FROM inventory.catalog_products WHERE store_id = $1 AND listed', [storeId])) >= PRODUCTS, 600_000);
    await waitFor('el stock en el catálogo', async () => (await count(pool, 'SELECT count(*) AS n FROM catalog.stock_levels WHERE store_id = $1', [storeId])) >= PRODUCTS, 600_000);
    console.log(`  ${PRODUCTS} productos sembrados, con su stock abierto, en ${round1((performance.now() - seedStart) / 1000)} s`);

    // 100,000 movements of one product: stock counts alternating up and down, each type in turn,
    // appended as the adjust command appends them; the write model's row follows, as a command leaves it.
    const ledgerStart = performance.now();
    const busy = productIds[PRODUCTS - 1];
    const inventoryEvents = new PostgresEventStore(pool, 'inventory');
    const types = ['manual', 'correction', 'restock', 'damaged', 'return'] as const;
    let version = (await inventoryEvents.readStream(`stock-${busy}`)).length;
    let onHand = Number((await pool.query<{ on_hand: number }>('SELECT on_hand FROM inventory.stock_rows WHERE product_id = $1', [busy])).rows[0].on_hand);
    for (let done = 0; done < MOVEMENTS; ) {
      const batch = Math.min(1000, MOVEMENTS - done);
      const events = Array.from({ length: batch }, (_, k) => {
        const n = done + k;
        const newStock = onHand + (n % 2 === 0 ? 3 : -3);
        const e = {
          type: 'StockAdjusted',
          data: { adjustmentId: randomUUID(), productId: busy, storeId, adjustmentType: types[n % types.length], oldStock: onHand, newStock, adjustment: newStock - onHand, reason: `Conteo ${n + 1}`, adjustedBy: 'Bench Inventario' },
        };
        onHand = newStock;
        return e;
      });
      const appended = await inventoryEvents.append(`stock-${busy}`, events, version, { storeId, actor: userId });
      version = appended.nextExpectedVersion;
      done += batch;
    }
    await pool.query('UPDATE inventory.stock_rows SET version = $2, on_hand = $3 WHERE product_id = $1', [busy, version, onHand]);
    await waitFor('el kárdex del producto', async () => (await count(pool, 'SELECT count(*) AS n FROM inventory.movements WHERE product_id = $1', [busy])) >= MOVEMENTS + 1, 900_000);
    await waitFor('el stock en el catálogo', async () => (await pool.query('SELECT 1 FROM catalog.products WHERE id = $1 AND stock = $2', [busy, onHand])).rowCount, 600_000);
    // What autovacuum does on its own after a bulk load: statistics and the visibility map.
    await pool.query('VACUUM ANALYZE');
    console.log(`  ${MOVEMENTS} movimientos de un producto sembrados y proyectados en ${round1((performance.now() - ledgerStart) / 1000)} s`);

    /** Open loop at `rate` req/s for `seconds` over `paths`, from its own process (bench/_openloop.mjs), with the session. */
    const openLoop = async (paths: string[], rate: number, seconds: number) => {
      const headers = Object.fromEntries(paths.map((p) => [p, { cookie }]));
      return runOpenLoop({ url: gatewayUrl, paths, rate, seconds, maxInFlight: 1000, headers });
    };

    /** Runs a phase, then prints the CPU ms each process spent per request and the load average. */
    const profiled = async <T>(label: string, requests: () => number, phase: () => Promise<T>): Promise<T> => {
      const cpu = await cpuMeter(bench);
      const machine = machineBusySeconds();
      // Checkpoints during the phase (PostgreSQL 17+ keeps them in pg_stat_checkpointer).
      const checkpoints = () => pool.query<{ n: string }>('SELECT num_timed + num_requested AS n FROM pg_stat_checkpointer').then((r) => Number(r.rows[0].n), () => NaN);
      const checkpointsBefore = await checkpoints();
      const result = await phase();
      const checkpointsDuring = (await checkpoints()) - checkpointsBefore;
      const n = Math.max(1, requests());
      const per = (seconds: number) => round1((seconds * 1000) / n);
      const used = cpu();
      console.log(
        `    CPU ms por ${label}: ${[...used].map(([name, s]) => `${name} ${per(s)}`).join(' · ')} · máquina entera ${per(machineBusySeconds() - machine)} · carga media ${loadavg()
          .map((x) => x.toFixed(2))
          .join(' ')} · checkpoints ${checkpointsDuring}`,
      );
      return result;
    };

    const report = (label: string, run: Awaited<ReturnType<typeof openLoop>>) => {
      const p = (q: number) => round1(percentile(run.latencies, q));
      console.log(`  ${label}: ${run.latencies.length} respuestas, ${run.errors} errores a ${RATE} req/s durante ${SECONDS} s`);
      console.log(`    latencia ms: p50 ${p(50)} · p95 ${p(95)} · p99 ${p(99)} · máx ${p(100)}`);
      console.log(`    peor latencia por segundo (ms): ${run.worstBySecond.map((x) => Math.round(x)).join(' ')} · mayor pausa del propio generador ${round1(run.lagMaxMs)} ms`);
      return p(99);
    };

    // 1. The inventory list, filtered and sorted, pages near the start and the end.
    const listPaths = [
      '/api/inventory?page=1&limit=50&sortBy=name&sortOrder=asc',
      '/api/inventory?page=200&limit=50&sortBy=name&sortOrder=desc',
      '/api/inventory?page=1&limit=50&sortBy=stock&sortOrder=asc',
      '/api/inventory?page=150&limit=50&sortBy=stock&sortOrder=desc',
      '/api/inventory?page=1&limit=50&sortBy=category&sortOrder=asc',
      '/api/inventory?page=100&limit=50&sortBy=category&sortOrder=desc',
      `/api/inventory?page=1&limit=50&categoryId=${categories[3].id}&sortBy=stock&sortOrder=desc`,
      `/api/inventory?page=20&limit=50&categoryId=${categories[7].id}&sortBy=name&sortOrder=asc`,
      '/api/inventory?page=1&limit=50&lowStock=true&sortBy=stock&sortOrder=asc',
      '/api/inventory?page=10&limit=50&lowStock=true&sortBy=name&sortOrder=asc',
      '/api/inventory?page=1&limit=50&outOfStock=true&sortBy=name&sortOrder=asc',
      '/api/inventory?page=1&limit=50&search=producto%2001&sortBy=name&sortOrder=asc',
      '/api/inventory?page=1&limit=50&search=sku-99&sortBy=stock&sortOrder=desc',
      `/api/inventory?page=1&limit=50&search=producto&lowStock=true&categoryId=${categories[1].id}&sortBy=category&sortOrder=asc`,
    ];
    /** Each path alone, one call after another: the median of 5 calls, to see which one costs what. */
    const alone = async (paths: string[], check: (body: unknown) => boolean) => {
      const medians: string[] = [];
      for (const p of paths) {
        const times: number[] = [];
        for (let i = 0; i < 5; i++) {
          const t0 = performance.now();
          const res = await owner(p);
          const body = await res.json();
          times.push(performance.now() - t0);
          if (res.status !== 200 || !check(body)) throw new Error(`respuesta inesperada de ${p}: ${res.status}`);
        }
        medians.push(`${round1(times.sort((a, b) => a - b)[2])}`);
      }
      console.log(`    una a la vez, mediana de 5 (ms): ${medians.join(' · ')}`);
    };
    await alone(listPaths, (body) => Array.isArray((body as { products: unknown[] }).products));
    await openLoop(listPaths, RATE, 5); // warm-up at the measured rate: connections (as many as that rate keeps busy), prepared statements, JIT
    const list = await profiled('solicitud de la lista', () => RATE * SECONDS, () => openLoop(listPaths, RATE, SECONDS));
    const listP99 = report('GET /api/inventory filtrado y ordenado', list);

    // 2. The ledger of the product with 100,000 movements, any page.
    const lastPage = Math.ceil((MOVEMENTS + 1) / HISTORY_LIMIT);
    const pages = [1, 2, 3, 10, 50, 100, 500, 1000, Math.floor(lastPage / 2), lastPage - 100, lastPage - 1, lastPage].filter((p, i, all) => p >= 1 && all.indexOf(p) === i);
    const historyPaths = pages.map((p) => `/api/inventory/history/${busy}?page=${p}&limit=${HISTORY_LIMIT}`);
    const last = (await (await owner(historyPaths[historyPaths.length - 1])).json()) as { history: unknown[]; total: number; totalPages: number };
    if (last.total !== MOVEMENTS + 1 || last.history.length === 0) throw new Error(`kárdex inesperado: total ${last.total}, ${last.history.length} líneas en la última página`);
    await alone(historyPaths, (body) => Array.isArray((body as { history: unknown[] }).history));
    await openLoop(historyPaths, RATE, 5);
    const history = await profiled('solicitud del kárdex', () => RATE * SECONDS, () => openLoop(historyPaths, RATE, SECONDS));
    const historyP99 = report(`GET /api/inventory/history/{id} (${MOVEMENTS + 1} líneas, páginas ${pages.join(', ')})`, history);

    // 3. A 5,000-row import through the preview and the chunked confirm, as the web client sends it.
    const newRows = Math.round(IMPORT_ROWS * 0.8);
    const importCategories = [categories[0].name, categories[1].name, categories[2].name, 'Importados nuevos', 'Temporada'];
    const lines = ['Nombre,SKU,Precio,Descuento,Stock,Categoría,Descripción'];
    for (let i = 0; i < newRows; i++) lines.push(`Importado ${String(i + 1).padStart(5, '0')},IMP-${i + 1},${(10 + (i % 90)).toFixed(2)},${i % 5 === 0 ? 10 : 0},${i % 30},${importCategories[i % 5]},Producto importado número ${i + 1}`);
    for (let i = 0; i < IMPORT_ROWS - newRows; i++) lines.push(`Producto ${String(i + 1).padStart(5, '0')},SKU-${i + 1},${(99 + (i % 10)).toFixed(2)},,${50 + (i % 7)},,`);
    const csv = `${lines.join('\n')}\n`;
    const lastName = `Importado ${String(newRows).padStart(5, '0')}`;

    const result = await profiled('fila importada', () => IMPORT_ROWS, async () => {
      const t0 = performance.now();
      const previewRes = await owner('/api/products/import/preview?fileName=carga.csv', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: csv });
      if (previewRes.status !== 200) throw new Error(`vista previa: ${previewRes.status} ${await previewRes.text()}`);
      const preview = (await previewRes.json()) as ImportPreviewResponse;
      const tPreview = performance.now();
      if (preview.summary.new !== newRows || preview.summary.update !== IMPORT_ROWS - newRows) throw new Error(`vista previa inesperada: ${JSON.stringify(preview.summary)}`);
      const rows = preview.rows.filter((r) => r.status === 'new' || r.status === 'update').map(({ status: _s, productId: _p, changes: _c, errors: _e, ...row }) => row);
      const importId = randomUUID();
      let applied = 0;
      for (let i = 0; i < rows.length; i += IMPORT_CHUNK_ROWS) {
        const res = await owner('/api/products/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ importId, rows: rows.slice(i, i + IMPORT_CHUNK_ROWS) }) });
        if (res.status !== 200) throw new Error(`confirmación: ${res.status} ${await res.text()}`);
        const answer = (await res.json()) as { summary: { created: number; updated: number; error: number } };
        applied += answer.summary.created + answer.summary.updated;
        if (answer.summary.error > 0) throw new Error(`filas con error al importar: ${answer.summary.error}`);
      }
      const tDone = performance.now();
      const visible = await waitFor(
        'la última fila en la lista de productos',
        async () => {
          const res = await owner(`/api/products?search=${encodeURIComponent(lastName)}&limit=8`);
          const body = (await res.json()) as { products: { name: string }[] };
          return body.products.some((p) => p.name === lastName) ? performance.now() : null;
        },
        60_000,
      );
      return { applied, previewMs: tPreview - t0, totalMs: tDone - t0, visibleMs: visible - t0, visibleAfterMs: visible - tDone };
    });
    const rowsPerS = Math.round(IMPORT_ROWS / (result.totalMs / 1000));
    console.log(
      `  importación de ${IMPORT_ROWS} filas (${newRows} nuevas, ${IMPORT_ROWS - newRows} actualizaciones): vista previa ${round1(result.previewMs / 1000)} s, todo en ${round1(result.totalMs / 1000)} s = ${rowsPerS} filas/s; última fila visible en la lista a los ${round1(result.visibleMs / 1000)} s (${Math.round(result.visibleAfterMs)} ms después de la última respuesta)`,
    );
    console.log(
      `  objetivos: lista p99 ≤ 30 ms ${listP99 <= 30 && list.errors === 0 ? '✓' : '✗'} · kárdex p99 ≤ 30 ms ${historyP99 <= 30 && history.errors === 0 ? '✓' : '✗'} · importación < 60 s ${result.totalMs < 60_000 ? '✓' : '✗'}`,
    );
    console.log(
      JSON.stringify({
        inventory_list_p99_ms: listP99,
        history_p99_ms: historyP99,
        import_rows_per_s: rowsPerS,
        import_seconds: round1(result.totalMs / 1000),
        import_last_row_visible_s: round1(result.visibleMs / 1000),
        errors: list.errors + history.errors,
      }),
    );
  } finally {
    await bench.stop();
  }
}

runBench(main);
