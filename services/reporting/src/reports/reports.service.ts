import { Inject, Injectable } from '@nestjs/common';
import { lowStockSql, type CashCloseResponse, type ReportOrder, type ReportPeriod, type ReportResponse, type StatsResponse } from '@tiendita/contracts';
import { type FreshSource, PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { CLOCK, type Clock } from '../shared/clock';
import { addDays, daysBetween, gtDayHour, gtDayStart, pct, periodCover, periodRange, q } from '../shared/time';

const S = 'reporting';
/** Stores and periods whose last report answer is kept. */
const REPORTS_CACHED = 2000;
/** Products ranked in SQL by units and by amount; the top 5 of each are picked from these. */
const TOP_CANDIDATES = 50;

interface FigureRow {
  /** True for a series bucket (hour or day), false for a channel / payment-method total. */
  bucketed: boolean;
  bucket: string;
  order_type: string;
  payment_method: string;
  orders: string;
  amount: string;
}

/** The sources of the figures: orders and sales (ordering), products (catalog), stock (inventory). */
const FRESH_REPORTS: readonly FreshSource[] = [
  { projection: 'sales', source: 'ordering' },
  { projection: 'products', source: 'catalog' },
  { projection: 'stock', source: 'inventory' },
];

/** Reads of the reporting projections, always filtered by the caller's store. */
@Injectable()
export class ReportsService {
  /** The last answer per store and period, with the versions it was computed at. */
  private readonly reports = new Map<string, { key: string; report: ReportResponse }>();
  /** Answers being computed, so concurrent requests for the same one compute it once. */
  private readonly computing = new Map<string, Promise<ReportResponse>>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly host: ProjectionHost,
  ) {}

  /**
   * The read models exist once the projection host has set up their tables (a request right after
   * start waits for it), and take in what the other services have already committed (a POS sale,
   * then the dashboard's figures: ProjectionHost.fresh).
   */
  private async ready(): Promise<void> {
    await this.host.started;
    await this.host.fresh(FRESH_REPORTS);
  }

  now(): Date {
    return this.clock();
  }

  /**
   * GET /api/stats: today's orders and sales, products, low stock, pending WhatsApp orders, and the
   * trends against the same hours of yesterday, in one statement: today and yesterday's whole hours
   * from the hourly aggregate, the current hour of yesterday (to the minute) from the orders.
   */
  async stats(storeId: string): Promise<StatsResponse> {
    await this.ready();
    const now = this.clock();
    const { day: today, hour } = gtDayHour(now);
    const yesterday = addDays(today, -1);
    const r = await this.pool.query<{
      today_orders: string; today_sales: string; y_orders: string; y_sales: string; total_products: string; low_stock: string; pending: string;
    }>({
      name: 'reporting_stats',
      text: `WITH h AS (
               SELECT COALESCE(sum(orders) FILTER (WHERE day = $2), 0) AS t_orders, COALESCE(sum(amount) FILTER (WHERE day = $2), 0) AS t_sales,
                      COALESCE(sum(orders) FILTER (WHERE day = $3 AND hour < $4), 0) AS y_orders, COALESCE(sum(amount) FILTER (WHERE day = $3 AND hour < $4), 0) AS y_sales
               FROM ${S}.sales_hourly WHERE store_id = $1 AND day IN ($2::date, $3::date)
             ), y AS (
               SELECT count(*) AS orders, COALESCE(sum(total), 0) AS sales FROM ${S}.orders
               WHERE store_id = $1 AND placed_at >= $5 AND placed_at <= $6 AND status <> 'cancelled'
             )
             SELECT h.t_orders AS today_orders, h.t_sales AS today_sales, h.y_orders + y.orders AS y_orders, h.y_sales + y.sales AS y_sales,
                    (SELECT count(*) FROM ${S}.products WHERE store_id = $1 AND NOT deleted) AS total_products,
                    (SELECT count(*) FROM ${S}.stock s JOIN ${S}.products p ON p.product_id = s.product_id AND NOT p.deleted
                      WHERE s.store_id = $1 AND ${lowStockSql('s.on_hand - s.reserved', 's.minimum')}) AS low_stock,
                    (SELECT count(*) FROM ${S}.orders WHERE store_id = $1 AND order_type = 'whatsapp' AND status = 'pending') AS pending
             FROM h, y`,
      values: [storeId, today, yesterday, hour, new Date(gtDayStart(yesterday).getTime() + hour * 3_600_000), new Date(now.getTime() - 24 * 3_600_000)],
    });
    const s = r.rows[0];
    const trend = (current: number, previous: number) => ({ previous, change: previous > 0 ? Math.round(((current - previous) / previous) * 1000) / 10 : null });
    const todayOrders = Number(s.today_orders);
    const todaySales = q(Number(s.today_sales));
    return {
      todayOrders,
      todaySales,
      totalProducts: Number(s.total_products),
      lowStockProducts: Number(s.low_stock),
      whatsappOrders: Number(s.pending),
      trends: { todayOrders: trend(todayOrders, Number(s.y_orders)), todaySales: trend(todaySales, q(Number(s.y_sales))) },
    };
  }

  /**
   * GET /api/reports?period=: channel, payment-method and series figures from the daily aggregate
   * (hourly for today), grouped in SQL; products from the monthly aggregate for whole months and the
   * daily one for the days added or taken away at the edges (periodCover); recent orders from the orders table.
   */
  async report(storeId: string, period: ReportPeriod): Promise<ReportResponse> {
    await this.ready();
    const { from, to } = periodRange(period, this.clock());
    // The same answer while none of the store's rows changed: the versions are the positions of the
    // last events that changed them (and a rebuild's swap), read before the figures, so a cached
    // answer is never older than its key.
    const v = await this.pool.query<{ key: string }>({
      name: 'reporting_report_versions',
      text: `SELECT concat_ws('|', COALESCE((SELECT version FROM ${S}.sales_versions WHERE store_id = $1), '-'),
                     COALESCE((SELECT version FROM ${S}.catalog_versions WHERE store_id = $1), '-'), COALESCE((SELECT version FROM ${S}.stock_versions WHERE store_id = $1), '-'),
                     (SELECT string_agg(name || version || updated_at, ',' ORDER BY name) FROM ${S}.projections WHERE name IN ('sales', 'products', 'stock'))) AS key`,
      values: [storeId],
    });
    const key = `${from}|${to}|${v.rows[0].key}`;
    const slot = `${storeId}|${period}`;
    const hit = this.reports.get(slot);
    if (hit?.key === key) return hit.report;
    let pending = this.computing.get(`${slot}|${key}`);
    if (!pending) {
      pending = this.computeReport(storeId, period, from, to).finally(() => this.computing.delete(`${slot}|${key}`));
      this.computing.set(`${slot}|${key}`, pending);
    }
    const report = await pending;
    if (this.reports.size >= REPORTS_CACHED && !this.reports.has(slot)) this.reports.delete(this.reports.keys().next().value!);
    this.reports.set(slot, { key, report });
    return report;
  }

  private async computeReport(storeId: string, period: ReportPeriod, from: string, to: string): Promise<ReportResponse> {
    const cover = periodCover(from, to);
    const [figures, top, recent, counts] = await Promise.all([
      period === 'today'
        ? this.pool.query<FigureRow>({
            name: 'reporting_report_today',
            text: `SELECT GROUPING(hour) = 0 AS bucketed, lpad(hour::text, 2, '0') || ':00' AS bucket, order_type, payment_method, sum(orders) AS orders, sum(amount) AS amount
                   FROM ${S}.sales_hourly WHERE store_id = $1 AND day = $2 GROUP BY GROUPING SETS ((hour), (order_type, payment_method))`,
            values: [storeId, from],
          })
        : this.pool.query<FigureRow>({
            name: 'reporting_report_days',
            text: `SELECT GROUPING(day) = 0 AS bucketed, day::text AS bucket, order_type, payment_method, sum(orders) AS orders, sum(amount) AS amount
                   FROM ${S}.sales_daily WHERE store_id = $1 AND day BETWEEN $2 AND $3 GROUP BY GROUPING SETS ((day), (order_type, payment_method))`,
            values: [storeId, from, to],
          }),
      // Current catalog names (a product renamed since shows its name of today), else the name it was sold under.
      this.pool.query<{ product_id: string; name: string; units: string; amount: string }>({
        name: 'reporting_report_products',
        text: `WITH r AS (
                 SELECT product_id, product_name, units, amount FROM ${S}.product_sales_monthly WHERE store_id = $1 AND month >= $2 AND month < $3
                 UNION ALL
                 SELECT product_id, product_name, units, amount FROM ${S}.product_sales_daily WHERE store_id = $1 AND (day BETWEEN $4 AND $5 OR day BETWEEN $6 AND $7)
                 UNION ALL
                 SELECT product_id, NULL, -units, -amount FROM ${S}.product_sales_daily WHERE store_id = $1 AND (day BETWEEN $8 AND $9 OR day BETWEEN $10 AND $11)
               ), p AS (
                 SELECT product_id, max(product_name) AS sold_as, sum(units) AS units, sum(amount) AS amount FROM r GROUP BY product_id HAVING sum(units) > 0
               ), top AS (
                 (SELECT * FROM p ORDER BY units DESC, amount DESC LIMIT ${TOP_CANDIDATES}) UNION (SELECT * FROM p ORDER BY amount DESC, units DESC LIMIT ${TOP_CANDIDATES})
               )
               SELECT top.product_id, COALESCE(c.name, top.sold_as) AS name, top.units, top.amount FROM top LEFT JOIN ${S}.products c ON c.product_id = top.product_id`,
        values: [storeId, cover.months.from, cover.months.to, cover.add[0].from, cover.add[0].to, cover.add[1].from, cover.add[1].to, cover.sub[0].from, cover.sub[0].to, cover.sub[1].from, cover.sub[1].to],
      }),
      this.recentOrders(storeId, from, to, 10),
      this.productCounts(storeId),
    ]);
    let orderCount = 0;
    let total = 0;
    const channel = { whatsapp: { orders: 0, amount: 0 }, pos: { orders: 0, amount: 0 } };
    const methods = new Map<string, { orders: number; amount: number }>();
    const buckets = new Map<string, { orders: number; amount: number }>();
    for (const r of figures.rows) {
      const orders = Number(r.orders);
      const amount = Number(r.amount);
      if (r.bucketed) {
        buckets.set(r.bucket, { orders, amount });
        continue;
      }
      orderCount += orders;
      total += amount;
      const c = channel[r.order_type as 'whatsapp' | 'pos'];
      if (c) {
        c.orders += orders;
        c.amount += amount;
      }
      const m = methods.get(r.payment_method) ?? { orders: 0, amount: 0 };
      m.orders += orders;
      m.amount += amount;
      methods.set(r.payment_method, m);
    }
    const labels = period === 'today' ? Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`) : daysBetween(from, to);
    const productRows = top.rows.map((r) => ({ productId: r.product_id, name: r.name, units: Number(r.units), amount: q(Number(r.amount)) }));
    return {
      period,
      from,
      to,
      totalSales: q(total),
      orderCount,
      averageTicket: orderCount > 0 ? q(Math.round(total / orderCount)) : 0,
      whatsappOrders: channel.whatsapp.orders,
      posOrders: channel.pos.orders,
      whatsappPercentage: pct(channel.whatsapp.orders, orderCount),
      posPercentage: pct(channel.pos.orders, orderCount),
      activeProducts: counts.active,
      lowStockProducts: counts.lowStock,
      activeCategories: counts.categories,
      salesByChannel: (['whatsapp', 'pos'] as const).map((c) => ({ channel: c, orders: channel[c].orders, amount: q(channel[c].amount), percentage: pct(channel[c].orders, orderCount) })),
      salesByPaymentMethod: [...methods]
        .filter(([, m]) => m.orders !== 0)
        .map(([paymentMethod, m]) => ({ paymentMethod, orders: m.orders, amount: q(m.amount) }))
        .sort((a, b) => b.amount - a.amount || a.paymentMethod.localeCompare(b.paymentMethod)),
      topProductsByUnits: [...productRows].sort((a, b) => b.units - a.units || b.amount - a.amount || a.name.localeCompare(b.name)).slice(0, 5),
      topProductsByAmount: [...productRows].sort((a, b) => b.amount - a.amount || b.units - a.units || a.name.localeCompare(b.name)).slice(0, 5),
      granularity: period === 'today' ? 'hour' : 'day',
      series: labels.map((label) => ({ label, orders: buckets.get(label)?.orders ?? 0, amount: q(buckets.get(label)?.amount ?? 0) })),
      recentOrders: recent,
    };
  }

  /** Products of the store (total, active), active categories, and products low on stock (available at or below their own minimum). */
  private async productCounts(storeId: string): Promise<{ total: number; active: number; categories: number; lowStock: number }> {
    const r = await this.pool.query<{ total: string; active: string; categories: string; low_stock: string }>({
      name: 'reporting_product_counts',
      text: `SELECT count(*) AS total, count(*) FILTER (WHERE is_active) AS active,
                    (SELECT count(*) FROM ${S}.categories WHERE store_id = $1) AS categories,
                    (SELECT count(*) FROM ${S}.stock s JOIN ${S}.products p ON p.product_id = s.product_id AND NOT p.deleted
                      WHERE s.store_id = $1 AND ${lowStockSql('s.on_hand - s.reserved', 's.minimum')}) AS low_stock
             FROM ${S}.products WHERE store_id = $1 AND NOT deleted`,
      values: [storeId],
    });
    const x = r.rows[0];
    return { total: Number(x.total), active: Number(x.active), categories: Number(x.categories), lowStock: Number(x.low_stock) };
  }

  /** The newest orders of the period (every status), newest first; limit null for all of them (exports). */
  async recentOrders(storeId: string, from: string, to: string, limit: number | null): Promise<ReportOrder[]> {
    const r = await this.pool.query<{ order_id: string; code: string; customer_name: string; order_type: 'whatsapp' | 'pos'; status: string; payment_method: string | null; payment_status: string; total: string; placed_at: Date }>(
      `SELECT order_id, code, customer_name, order_type, status, payment_method, payment_status, total, placed_at FROM ${S}.orders
       WHERE store_id = $1 AND placed_at >= $2 AND placed_at < $3 ORDER BY placed_at DESC, order_id${limit === null ? '' : ` LIMIT ${Number(limit)}`}`,
      [storeId, gtDayStart(from), gtDayStart(addDays(to, 1))],
    );
    return r.rows.map((o) => ({
      id: o.order_id,
      code: o.code,
      customerName: o.customer_name,
      orderType: o.order_type,
      status: o.status,
      paymentMethod: o.payment_method,
      paymentStatus: o.payment_status,
      total: q(Number(o.total)),
      createdAt: o.placed_at.toISOString(),
    }));
  }

  /** The cash close of a day, in centavos: sales by payment method and the cash the drawer should hold. */
  async cashFigures(storeId: string, day: string): Promise<{ methods: { paymentMethod: string; orders: number; amount: number }[]; total: number; orders: number; expectedCash: number }> {
    await this.ready();
    const r = await this.pool.query<{ payment_method: string | null; orders: string; amount: string; cash: string }>(
      `SELECT COALESCE(payment_method, 'none') AS payment_method, count(*) AS orders, sum(total) AS amount,
              COALESCE(sum(total) FILTER (WHERE payment_method = 'cash' AND status IN ('completed', 'delivered')), 0) AS cash
       FROM ${S}.orders WHERE store_id = $1 AND placed_at >= $2 AND placed_at < $3 AND status <> 'cancelled' GROUP BY 1 ORDER BY 3 DESC, 1`,
      [storeId, gtDayStart(day), gtDayStart(addDays(day, 1))],
    );
    let total = 0;
    let orders = 0;
    let expectedCash = 0;
    const methods = r.rows.map((row) => {
      total += Number(row.amount);
      orders += Number(row.orders);
      expectedCash += Number(row.cash);
      return { paymentMethod: row.payment_method ?? 'none', orders: Number(row.orders), amount: Number(row.amount) };
    });
    return { methods, total, orders, expectedCash };
  }

  async cashClose(storeId: string, day: string): Promise<CashCloseResponse> {
    await this.ready();
    const [f, counted] = await Promise.all([
      this.cashFigures(storeId, day),
      this.pool.query<{ counted_cash: string; note: string | null; recorded_by: string; recorded_at: Date }>(
        `SELECT counted_cash, note, recorded_by, recorded_at FROM ${S}.cash_counts WHERE store_id = $1 AND day = $2`,
        [storeId, day],
      ),
    ]);
    const c = counted.rows[0];
    return {
      date: day,
      salesByPaymentMethod: f.methods.map((m) => ({ ...m, amount: q(m.amount) })),
      totalSales: q(f.total),
      orderCount: f.orders,
      expectedCash: q(f.expectedCash),
      countedCash: c ? q(Number(c.counted_cash)) : null,
      difference: c ? q(Number(c.counted_cash) - f.expectedCash) : null,
      note: c?.note ?? null,
      recordedBy: c?.recorded_by ?? null,
      recordedAt: c ? c.recorded_at.toISOString() : null,
    };
  }
}
