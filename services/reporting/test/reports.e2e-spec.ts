/* eslint-disable @typescript-eslint/no-explicit-any -- report answers are read loosely, like fetch().json() */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OrderPlaced } from '@tiendita/contracts';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import type { ProjectionHost } from '@tiendita/service-kit';
import { signedRequest } from '@tiendita/service-kit/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { changeStatus, orderPlaced, place } from './support/orders';
import { useReportingApp } from './support/reporting-app';

/**
 * The reporting projections against random histories written to ordering's and inventory's real
 * event stores: every report figure equals the one computed here from the raw order list, with
 * days counted in America/Guatemala (computed here with Intl, not with the service's code).
 */
const NOW = new Date('2026-03-15T18:00:00.000Z'); // 12:00 in Guatemala, Sunday 15 March 2026
const RANGES = {
  today: { from: '2026-03-15', to: '2026-03-15' },
  week: { from: '2026-03-09', to: '2026-03-15' },
  month: { from: '2026-02-16', to: '2026-03-15' },
  year: { from: '2025-03-16', to: '2026-03-15' },
} as const;

const ctx = useReportingApp(NOW);
let app: NestFastifyApplication;
let pool: pg.Pool;
let ordering: PostgresEventStore;
let inventory: PostgresEventStore;
let host: ProjectionHost;
beforeAll(() => ({ app, pool, ordering, inventory, host } = ctx));

const gtParts = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', hourCycle: 'h23' });
function gt(iso: string): { day: string; hour: number } {
  const p = Object.fromEntries(gtParts.formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
}

const get = async (url: string, storeId: string) => {
  const res = await app.inject(signedRequest({ method: 'GET', url, userId: randomUUID(), storeId }));
  expect(res.statusCode).toBe(200);
  return res.json();
};

async function settle(...positions: { store: 'ordering' | 'inventory'; position: { transactionId: string; globalPosition: number } | undefined }[]) {
  for (const p of positions) {
    if (p.position) await host.waitForPosition(p.position, { source: p.store, projection: p.store === 'ordering' ? 'sales' : 'stock', timeoutMs: 10_000 });
  }
}

const PRODUCTS = Array.from({ length: 4 }, (_, i) => ({ productId: randomUUID(), productName: ['Café', 'Pan dulce', 'Frijol', 'Azúcar'][i] }));
// Instants: anywhere in the last ~13 months, or a minute either side of a Guatemalan midnight at a period edge.
const EDGES = ['2026-03-15T05:59:00Z', '2026-03-15T06:01:00Z', '2026-03-09T05:59:00Z', '2026-03-09T06:01:00Z', '2026-02-16T05:59:00Z', '2026-02-16T06:01:00Z', '2025-03-16T05:59:00Z', '2025-03-16T06:01:00Z', '2026-03-15T17:59:00Z'];
const instant = fc.oneof(
  fc.integer({ min: Date.parse('2025-03-01T00:00:00Z') / 60000, max: NOW.getTime() / 60000 - 1 }).map((m) => new Date(m * 60000).toISOString()),
  fc.constantFrom(...EDGES).map((s) => new Date(s).toISOString()),
);
const orderArb = fc.record({
  orderType: fc.constantFrom('whatsapp' as const, 'pos' as const),
  method: fc.constantFrom('cash' as const, 'card' as const, 'whatsapp' as const),
  placedAt: instant,
  lines: fc.uniqueArray(fc.record({ product: fc.integer({ min: 0, max: 3 }), quantity: fc.integer({ min: 1, max: 10 }), unitPrice: fc.integer({ min: 0, max: 50_000 }) }), { minLength: 1, maxLength: 3, selector: (l) => l.product }),
  fate: fc.constantFrom('keep', 'keep', 'cancel', 'confirm', 'confirm-cancel'),
});
const stockArb = fc.array(fc.record({ product: fc.integer({ min: 0, max: 3 }), kind: fc.constantFrom('adjust', 'reserve', 'release', 'sell'), quantity: fc.integer({ min: 1, max: 8 }) }), { maxLength: 12 });

interface Final {
  order: OrderPlaced;
  status: string;
}

function expected(finals: Final[], period: keyof typeof RANGES) {
  const { from, to } = RANGES[period];
  const inRange = finals.filter((f) => {
    const d = gt(f.order.placedAt).day;
    return d >= from && d <= to;
  });
  const sales = inRange.filter((f) => f.status !== 'cancelled');
  const total = sales.reduce((s, f) => s + f.order.total, 0);
  const wa = sales.filter((f) => f.order.orderType === 'whatsapp').length;
  const pos = sales.length - wa;
  const pct = (n: number) => (sales.length ? Math.round((n / sales.length) * 1000) / 10 : 0);
  const methods = new Map<string, { orders: number; amount: number }>();
  const products = new Map<string, { units: number; amount: number }>();
  const buckets = new Map<string, { orders: number; amount: number }>();
  // Money by method comes from the payments: a legacy paid order (no PaymentRecorded) is one payment
  // of its total by its method, on the day it was placed, whatever became of it.
  for (const f of inRange) {
    if (f.order.paymentStatus !== 'paid' || f.order.total === 0) continue;
    const method = f.order.paymentMethod === 'cash' || f.order.paymentMethod === 'card' ? f.order.paymentMethod : 'other';
    const m = methods.get(method) ?? { orders: 0, amount: 0 };
    m.orders += 1;
    m.amount += f.order.total;
    methods.set(method, m);
  }
  for (const f of sales) {
    for (const i of f.order.items) {
      const p = products.get(i.productId) ?? { units: 0, amount: 0 };
      p.units += i.quantity;
      p.amount += i.lineTotal;
      products.set(i.productId, p);
    }
    const t = gt(f.order.placedAt);
    const key = period === 'today' ? `${String(t.hour).padStart(2, '0')}:00` : period === 'year' ? t.day.slice(0, 7) : t.day;
    const b = buckets.get(key) ?? { orders: 0, amount: 0 };
    b.orders += 1;
    b.amount += f.order.total;
    buckets.set(key, b);
  }
  const recent = [...inRange].sort((a, b) => b.order.placedAt.localeCompare(a.order.placedAt) || a.order.orderId.localeCompare(b.order.orderId)).slice(0, 10);
  return {
    totalSales: total / 100,
    orderCount: sales.length,
    averageTicket: sales.length ? Math.round(total / sales.length) / 100 : 0,
    whatsappOrders: wa,
    posOrders: pos,
    whatsappPercentage: pct(wa),
    posPercentage: pct(pos),
    methods: Object.fromEntries([...methods].map(([k, v]) => [k, { orders: v.orders, amount: v.amount / 100 }])),
    products: Object.fromEntries([...products].filter(([, v]) => v.units > 0).map(([k, v]) => [k, { units: v.units, amount: v.amount / 100 }])),
    buckets: Object.fromEntries([...buckets].map(([k, v]) => [k, { orders: v.orders, amount: v.amount / 100 }])),
    recent: recent.map((f) => f.order.orderId),
  };
}

it('reports equal the figures computed from the raw orders, for random histories of orders, POS sales, cancellations and stock changes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(orderArb, { minLength: 0, maxLength: 25 }), stockArb, async (specs, stockOps) => {
      const storeId = randomUUID();
      const finals: Final[] = [];
      let last;
      for (const s of specs) {
        const order = orderPlaced({
          storeId,
          orderType: s.orderType,
          paymentMethod: s.orderType === 'whatsapp' ? 'whatsapp' : s.method === 'whatsapp' ? 'cash' : s.method,
          placedAt: s.placedAt,
          lines: s.lines.map((l) => ({ ...PRODUCTS[l.product], quantity: l.quantity, unitPrice: l.unitPrice })),
        });
        last = (await place(ordering, order)).position;
        let status: string = order.status;
        let version = 1;
        const later = new Date(Date.parse(order.placedAt) + 60_000).toISOString();
        if ((s.fate === 'confirm' || s.fate === 'confirm-cancel') && order.orderType === 'whatsapp') {
          last = (await changeStatus(ordering, order, 'confirmed', 'pending', version++, later)).position;
          status = 'confirmed';
        }
        if (s.fate === 'cancel' || s.fate === 'confirm-cancel') {
          last = (await changeStatus(ordering, order, 'cancelled', status as OrderPlaced['status'], version, later)).position;
          status = 'cancelled';
        }
        finals.push({ order, status });
      }
      // Stock: each product opened with 10 units, then random adjustments, reservations, releases and sales.
      const products = PRODUCTS.map((p) => ({ productId: randomUUID(), name: p.productName, onHand: 10, reserved: 0 }));
      let lastStock;
      for (const p of products) {
        lastStock = (await inventory.append(`stock-${p.productId}`, [{ type: 'StockItemOpened', data: { productId: p.productId, storeId, stock: 10 } }], 'any')).position;
      }
      for (const op of stockOps) {
        const p = products[op.product];
        let event;
        if (op.kind === 'adjust') {
          event = { type: 'StockAdjusted', data: { adjustmentId: randomUUID(), productId: p.productId, storeId, adjustmentType: 'manual', oldStock: p.onHand, newStock: op.quantity, adjustment: op.quantity - p.onHand, reason: 'Conteo', adjustedBy: 'owner' } };
          p.onHand = op.quantity;
        } else if (op.kind === 'reserve') {
          event = { type: 'StockReserved', data: { orderId: randomUUID(), productId: p.productId, storeId, quantity: op.quantity, expiresAt: NOW.toISOString() } };
          p.reserved += op.quantity;
        } else if (op.kind === 'release' && p.reserved >= op.quantity) {
          event = { type: 'StockReservationReleased', data: { orderId: randomUUID(), productId: p.productId, storeId, quantity: op.quantity, reason: 'cancelled' } };
          p.reserved -= op.quantity;
        } else if (op.kind === 'sell' && p.reserved >= op.quantity && p.onHand >= op.quantity) {
          event = { type: 'StockSold', data: { orderId: randomUUID(), productId: p.productId, storeId, quantity: op.quantity, onHand: p.onHand - op.quantity } };
          p.reserved -= op.quantity;
          p.onHand -= op.quantity;
        }
        if (event) lastStock = (await inventory.append(`stock-${p.productId}`, [event], 'any')).position;
      }
      // The products exist in the catalog too (low stock counts products that exist).
      const catalog = new PostgresEventStore(pool, 'catalog');
      let lastCatalog;
      for (const p of products) {
        lastCatalog = (await catalog.append(`product-${p.productId}`, [{ type: 'ProductCreated', data: { productId: p.productId, storeId, name: p.name, description: null, sku: null, priceCentavos: 100, discountPercentage: 0, categoryId: null, images: [], isActive: true, initialStock: 10, createdBy: 'owner' } }], 0)).position;
      }
      await settle({ store: 'ordering', position: last }, { store: 'inventory', position: lastStock });
      if (lastCatalog) await host.waitForPosition(lastCatalog, { source: 'catalog', projection: 'products', timeoutMs: 10_000 });
      const lowStock = products.filter((p) => p.onHand - p.reserved <= 5).length;

      for (const period of ['today', 'week', 'month', 'year'] as const) {
        const r = await get(`/api/reports?period=${period}`, storeId);
        const e = expected(finals, period);
        expect({ period: r.period, from: r.from, to: r.to }).toEqual({ period, ...RANGES[period] });
        expect(r).toMatchObject({
          totalSales: e.totalSales,
          orderCount: e.orderCount,
          averageTicket: e.averageTicket,
          whatsappOrders: e.whatsappOrders,
          posOrders: e.posOrders,
          whatsappPercentage: e.whatsappPercentage,
          posPercentage: e.posPercentage,
          activeProducts: 4,
          lowStockProducts: lowStock,
        });
        expect(Object.fromEntries(r.salesByPaymentMethod.map((m: any) => [m.paymentMethod, { orders: m.payments, amount: m.amount }]))).toEqual(e.methods);
        const tops = Object.fromEntries(r.topProductsByUnits.map((p: any) => [p.productId, { units: p.units, amount: p.amount }]));
        for (const [id, v] of Object.entries(tops)) expect(e.products[id]).toEqual(v);
        expect(r.topProductsByUnits.length).toBe(Math.min(5, Object.keys(e.products).length));
        const maxUnits = Math.max(0, ...Object.values(e.products).map((p) => p.units));
        if (r.topProductsByUnits[0]) expect(r.topProductsByUnits[0].units).toBe(maxUnits);
        const series = Object.fromEntries(r.series.filter((p: any) => p.orders !== 0).map((p: any) => [p.label, { orders: p.orders, amount: p.amount }]));
        expect(series).toEqual(e.buckets);
        // A day by hour, a week and a month by day, a year by month (from March 2025 to March 2026: 13).
        expect(r.series.length).toBe(period === 'today' ? 24 : { week: 7, month: 28, year: 13 }[period]);
        expect(r.granularity).toBe({ today: 'hour', week: 'day', month: 'day', year: 'month' }[period]);
        expect(r.recentOrders.map((o: any) => o.id)).toEqual(e.recent);
      }
      const stats = await get('/api/stats', storeId);
      const today = expected(finals, 'today');
      expect(stats).toMatchObject({
        todayOrders: today.orderCount,
        todaySales: today.totalSales,
        totalProducts: 4,
        lowStockProducts: lowStock,
        whatsappOrders: finals.filter((f) => f.order.orderType === 'whatsapp' && f.status === 'pending').length,
      });
    }),
    { numRuns: 12 },
  );
});

it('counts an order at 23:59 in Guatemala in that day and one at 00:01 in the next, and compares today with the same hours of yesterday', async () => {
  const storeId = randomUUID();
  const line = [{ ...PRODUCTS[0], quantity: 1, unitPrice: 1000 }];
  const late = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-15T05:59:00.000Z', lines: line }); // 14 Mar 23:59 GT
  const early = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'card', placedAt: '2026-03-15T06:01:00.000Z', lines: [{ ...line[0], unitPrice: 2500 }] }); // 15 Mar 00:01 GT
  const yesterdayMorning = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-14T15:00:00.000Z', lines: [{ ...line[0], unitPrice: 2000 }] }); // 14 Mar 09:00 GT
  // The same hour as now (12:00) yesterday: up to the same second it counts, a second later it does not.
  const yesterdayNoon = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-14T18:00:00.000Z', lines: [{ ...line[0], unitPrice: 500 }] });
  const yesterdayAfterNoon = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-14T18:00:01.000Z', lines: [{ ...line[0], unitPrice: 700 }] });
  await place(ordering, late);
  await place(ordering, yesterdayMorning);
  await place(ordering, yesterdayNoon);
  await place(ordering, yesterdayAfterNoon);
  await settle({ store: 'ordering', position: (await place(ordering, early)).position });

  const today = await get('/api/reports?period=today', storeId);
  expect(today).toMatchObject({ totalSales: 25, orderCount: 1 });
  expect(today.series.find((p: any) => p.label === '00:00')).toEqual({ label: '00:00', orders: 1, amount: 25 });
  const week = await get('/api/reports?period=week', storeId);
  expect(week.series.find((p: any) => p.label === '2026-03-14')).toEqual({ label: '2026-03-14', orders: 4, amount: 42 });
  expect(week.series.find((p: any) => p.label === '2026-03-15')).toEqual({ label: '2026-03-15', orders: 1, amount: 25 });

  // Now is 12:00:00: yesterday until 12:00:00 had the 09:00 sale (Q20) and the 12:00:00 one (Q5), not 12:00:01 nor 23:59.
  const stats = await get('/api/stats', storeId);
  expect(stats).toMatchObject({ todayOrders: 1, todaySales: 25, trends: { todayOrders: { previous: 2, change: -50 }, todaySales: { previous: 25, change: 0 } } });

  const close = await get('/api/reports/cash-close?date=2026-03-14', storeId);
  expect(close).toMatchObject({ date: '2026-03-14', totalSales: 42, orderCount: 4, totalReceived: 42, expectedCash: 42, countedCash: null, difference: null });
});

it('records the cash count of a day as an event and answers the difference; refuses bad input in Spanish', async () => {
  const storeId = randomUUID();
  const userId = randomUUID();
  const sale = orderPlaced({ storeId, orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-15T16:00:00.000Z', lines: [{ ...PRODUCTS[1], quantity: 3, unitPrice: 1550 }] });
  await settle({ store: 'ordering', position: (await place(ordering, sale)).position });
  const post = (payload: unknown) => app.inject(signedRequest({ method: 'POST', url: '/api/reports/cash-close', payload, userId, storeId }));

  const res = await post({ date: '2026-03-15', countedCash: 40.5, note: 'Faltan monedas' });
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({ date: '2026-03-15', expectedCash: 46.5, countedCash: 40.5, difference: -6, note: 'Faltan monedas', recordedBy: userId });
  const events = await pool.query(`SELECT type, data FROM reporting.events WHERE stream_id = $1`, [`cash-close-${storeId}-2026-03-15`]);
  expect(events.rows).toEqual([{ type: 'CashCountRecorded', data: expect.objectContaining({ countedCash: 4050, expectedCash: 4650 }) }]);
  expect(await get('/api/reports/cash-close?date=2026-03-15', storeId)).toMatchObject({ countedCash: 40.5, difference: -6 });
  // Another store sees nothing of it.
  expect(await get('/api/reports/cash-close?date=2026-03-15', randomUUID())).toMatchObject({ totalSales: 0, countedCash: null });
  // Without a date the count is today's (Guatemala), as GET without a date answers today's close.
  const todays = await post({ countedCash: 50 });
  expect(todays.statusCode).toBe(201);
  expect(todays.json()).toMatchObject({ date: '2026-03-15', expectedCash: 46.5, countedCash: 50, difference: 3.5, note: null });

  const bad = await post({ date: '15/03/2026', countedCash: -1 });
  expect(bad.statusCode).toBe(400);
  expect(JSON.stringify(bad.json())).toContain('La fecha debe tener el formato AAAA-MM-DD');
  expect(JSON.stringify(bad.json())).toContain('El efectivo contado no puede ser negativo');
  const future = await post({ date: '2026-03-16', countedCash: 1 });
  expect(future.statusCode).toBe(400);
  expect(future.json().message).toBe('No se puede registrar el corte de un día futuro');
  const period = await app.inject(signedRequest({ method: 'GET', url: '/api/reports?period=decade', userId, storeId }));
  expect(period.statusCode).toBe(400);
  expect(JSON.stringify(period.json())).toContain('Periodo inválido');
});

it('answers a store the same report while none of its rows change, and a new one after a sale, a cancellation, a product and a stock change', async () => {
  const storeId = randomUUID();
  const other = randomUUID();
  const week = () => get('/api/reports?period=week', storeId);
  const first = await week();
  expect(first).toMatchObject({ orderCount: 0, activeProducts: 0, lowStockProducts: 0 });
  expect(await week()).toEqual(first);

  const order = orderPlaced({ storeId, orderType: 'whatsapp', paymentMethod: 'whatsapp', placedAt: '2026-03-14T16:00:00.000Z', lines: [{ ...PRODUCTS[1], quantity: 2, unitPrice: 1500 }] });
  await settle({ store: 'ordering', position: (await place(ordering, order)).position });
  // Another store's sale does not change this store's answer.
  await settle({ store: 'ordering', position: (await place(ordering, orderPlaced({ storeId: other, orderType: 'pos', paymentMethod: 'cash', placedAt: '2026-03-14T16:00:00.000Z', lines: [{ ...PRODUCTS[1], quantity: 1, unitPrice: 100 }] }))).position });
  const sold = await week();
  expect(sold).toMatchObject({ orderCount: 1, totalSales: 30, whatsappOrders: 1 });
  expect(sold.recentOrders.map((o: any) => o.id)).toEqual([order.orderId]);
  expect(await week()).toEqual(sold);

  await settle({ store: 'ordering', position: (await changeStatus(ordering, order, 'cancelled', 'pending', 1, '2026-03-14T17:00:00.000Z')).position });
  const cancelled = await week();
  expect(cancelled).toMatchObject({ orderCount: 0, totalSales: 0 });
  expect(cancelled.recentOrders[0]).toMatchObject({ id: order.orderId, status: 'cancelled' });

  const productId = randomUUID();
  const catalog = new PostgresEventStore(pool, 'catalog');
  const created = await catalog.append(`product-${productId}`, [{ type: 'ProductCreated', data: { productId, storeId, name: 'Miel', description: null, sku: null, priceCentavos: 100, discountPercentage: 0, categoryId: null, images: [], isActive: true, initialStock: 2, createdBy: 'owner' } }], 0);
  await host.waitForPosition(created.position, { source: 'catalog', projection: 'products', timeoutMs: 10_000 });
  expect(await week()).toMatchObject({ activeProducts: 1, lowStockProducts: 0 });

  const opened = await inventory.append(`stock-${productId}`, [{ type: 'StockItemOpened', data: { productId, storeId, stock: 2 } }], 0);
  await settle({ store: 'inventory', position: opened.position });
  expect(await week()).toMatchObject({ activeProducts: 1, lowStockProducts: 1 });
});

it('a rebuild of every reporting projection from zero gives the same rows as the live one', async () => {
  const snapshot = async () => ({
    orders: (await pool.query('SELECT * FROM reporting.orders ORDER BY order_id')).rows,
    hourly: (await pool.query('SELECT * FROM reporting.sales_hourly ORDER BY store_id, day, hour, order_type, payment_method')).rows,
    products: (await pool.query('SELECT * FROM reporting.product_sales_daily ORDER BY store_id, day, product_id')).rows,
    stock: (await pool.query('SELECT * FROM reporting.stock ORDER BY product_id')).rows,
    versions: [
      (await pool.query('SELECT * FROM reporting.sales_versions ORDER BY store_id')).rows,
      (await pool.query('SELECT * FROM reporting.catalog_versions ORDER BY store_id')).rows,
      (await pool.query('SELECT * FROM reporting.stock_versions ORDER BY store_id')).rows,
    ],
    cash: (await pool.query('SELECT * FROM reporting.cash_counts ORDER BY store_id, day')).rows,
    payments: (await pool.query('SELECT * FROM reporting.payments ORDER BY entry_id')).rows,
    paymentsDaily: (await pool.query('SELECT * FROM reporting.payments_daily ORDER BY store_id, day, method')).rows,
    paymentsVersions: (await pool.query('SELECT * FROM reporting.payments_versions ORDER BY store_id')).rows,
  });
  const before = await snapshot();
  expect(before.orders.length).toBeGreaterThan(10);
  expect(before.payments.length).toBeGreaterThan(5);
  for (const name of ['sales', 'payments', 'products', 'stock', 'cash_counts', 'stores']) {
    const result = await host.runner.rebuild(name, { verify: true });
    expect(result.verified).toBe(true);
  }
  expect(await snapshot()).toEqual(before);
});
