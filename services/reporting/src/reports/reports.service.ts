import { Inject, Injectable } from '@nestjs/common';
import { lowStockSql, type PaymentMethodFigures, type PaymentRecordMethod, type ReportOrder, type ReportPeriod, type ReportResponse, type StatsResponse } from '@tiendita/contracts';
import { type FreshSource, PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { CLOCK, type Clock } from '../shared/clock';
import { addDays, addMonths, daysBetween, gtDayHour, gtDayStart, pct, periodCover, periodRange, q } from '../shared/time';
import { ordersOfPeriod } from './report-orders';

const S = 'reporting';
/** Stores and periods whose last report answer is kept. */
const REPORTS_CACHED = 2000;
/** Products ranked in SQL by units and by amount; the top 5 of each are picked from these. */
const TOP_CANDIDATES = 50;

interface FigureRow {
  /** True for a series bucket (hour, day or month), false for a channel / payment-method total. */
  bucketed: boolean;
  bucket: string;
  order_type: string;
  payment_method: string;
  orders: string;
  amount: string;
}

/** The sources of the figures: orders, sales and payments (ordering), products (catalog), stock (inventory). */
const FRESH_REPORTS: readonly FreshSource[] = [
  { projection: 'sales', source: 'ordering' },
  { projection: 'payments', source: 'ordering' },
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
  async ready(): Promise<void> {
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
                     COALESCE((SELECT version FROM ${S}.payments_versions WHERE store_id = $1), '-'),
                     COALESCE((SELECT version FROM ${S}.catalog_versions WHERE store_id = $1), '-'), COALESCE((SELECT version FROM ${S}.stock_versions WHERE store_id = $1), '-'),
                     (SELECT string_agg(name || version || updated_at, ',' ORDER BY name) FROM ${S}.projections WHERE name IN ('sales', 'payments', 'products', 'stock'))) AS key`,
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
    const [figures, top, recent, counts, payments, cancelled] = await Promise.all([
      period === 'today'
        ? this.pool.query<FigureRow>({
            name: 'reporting_report_today',
            text: `SELECT GROUPING(hour) = 0 AS bucketed, lpad(hour::text, 2, '0') || ':00' AS bucket, order_type, payment_method, sum(orders) AS orders, sum(amount) AS amount
                   FROM ${S}.sales_hourly WHERE store_id = $1 AND day = $2 GROUP BY GROUPING SETS ((hour), (order_type, payment_method))`,
            values: [storeId, from],
          })
        : this.pool.query<FigureRow>({
            // A year groups by month (13 bars, not 365 hairlines), a week or a month by day.
            name: `reporting_report_${period === 'year' ? 'months' : 'days'}`,
            text: `SELECT GROUPING(${period === 'year' ? "to_char(day, 'YYYY-MM')" : 'day::text'}) = 0 AS bucketed, ${period === 'year' ? "to_char(day, 'YYYY-MM')" : 'day::text'} AS bucket,
                          order_type, payment_method, sum(orders) AS orders, sum(amount) AS amount
                   FROM ${S}.sales_daily WHERE store_id = $1 AND day BETWEEN $2 AND $3
                   GROUP BY GROUPING SETS ((${period === 'year' ? "to_char(day, 'YYYY-MM')" : 'day::text'}), (order_type, payment_method))`,
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
      this.paymentsByMethod(storeId, from, to),
      this.pool.query<{ orders: string; amount: string }>({
        name: 'reporting_report_cancelled',
        text: `SELECT count(*) AS orders, COALESCE(sum(total), 0) AS amount FROM ${S}.orders WHERE store_id = $1 AND status = 'cancelled' AND placed_at >= $2 AND placed_at < $3`,
        values: [storeId, gtDayStart(from), gtDayStart(addDays(to, 1))],
      }),
    ]);
    let orderCount = 0;
    let total = 0;
    const channel = { whatsapp: { orders: 0, amount: 0 }, pos: { orders: 0, amount: 0 } };
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
    }
    const labels = period === 'today' ? Array.from({ length: 24 }, (_, h) => `${String(h).padStart(2, '0')}:00`) : period === 'year' ? monthsBetween(from, to) : daysBetween(from, to);
    const productRows = top.rows.map((r) => ({ productId: r.product_id, name: r.name, units: Number(r.units), amount: q(Number(r.amount)) }));
    return {
      period,
      from,
      to,
      totalSales: q(total),
      orderCount,
      averageTicket: orderCount > 0 ? q(Math.round(total / orderCount)) : 0,
      cancelledOrders: Number(cancelled.rows[0].orders),
      cancelledAmount: q(Number(cancelled.rows[0].amount)),
      whatsappOrders: channel.whatsapp.orders,
      posOrders: channel.pos.orders,
      whatsappPercentage: pct(channel.whatsapp.orders, orderCount),
      posPercentage: pct(channel.pos.orders, orderCount),
      activeProducts: counts.active,
      lowStockProducts: counts.lowStock,
      activeCategories: counts.categories,
      salesByChannel: (['whatsapp', 'pos'] as const).map((c) => ({ channel: c, orders: channel[c].orders, amount: q(channel[c].amount), percentage: pct(channel[c].orders, orderCount) })),
      salesByPaymentMethod: payments,
      amountReceived: q(Math.round(payments.reduce((sum, m) => sum + m.amount * 100, 0))),
      topProductsByUnits: [...productRows].sort((a, b) => b.units - a.units || b.amount - a.amount || a.name.localeCompare(b.name)).slice(0, 5),
      topProductsByAmount: [...productRows].sort((a, b) => b.amount - a.amount || b.units - a.units || a.name.localeCompare(b.name)).slice(0, 5),
      granularity: period === 'today' ? 'hour' : period === 'year' ? 'month' : 'day',
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
  recentOrders(storeId: string, from: string, to: string, limit: number | null): Promise<ReportOrder[]> {
    return ordersOfPeriod(this.pool, storeId, from, to, limit);
  }

  /** Money received and given back in the days [from, to] by method, from the payments' daily totals, the most received first. */
  private async paymentsByMethod(storeId: string, from: string, to: string): Promise<PaymentMethodFigures[]> {
    const r = await this.pool.query<{ method: PaymentRecordMethod; payments: string; received: string; refunds: string; refunded: string }>({
      name: 'reporting_report_payments',
      text: `SELECT method, sum(payments) AS payments, sum(received) AS received, sum(refunds) AS refunds, sum(refunded) AS refunded
             FROM ${S}.payments_daily WHERE store_id = $1 AND day BETWEEN $2 AND $3 GROUP BY method`,
      values: [storeId, from, to],
    });
    return methodFigures(r.rows);
  }
}

/** Rows of payments and refunds per method (centavos) as the API shows them, without empty methods, the largest net first. */
export function methodFigures(rows: { method: PaymentRecordMethod; payments: string | number; received: string | number; refunds: string | number; refunded: string | number }[]): PaymentMethodFigures[] {
  return rows
    .map((r) => ({ paymentMethod: r.method, payments: Number(r.payments), received: Number(r.received), refunds: Number(r.refunds), refunded: Number(r.refunded) }))
    .filter((m) => m.payments !== 0 || m.refunds !== 0)
    .sort((a, b) => b.received - b.refunded - (a.received - a.refunded) || a.paymentMethod.localeCompare(b.paymentMethod))
    .map((m) => ({ ...m, orders: m.payments, received: q(m.received), refunded: q(m.refunded), amount: q(m.received - m.refunded) }));
}

/** Every month 'YYYY-MM' from the one of `from` to the one of `to`. */
function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let m = `${from.slice(0, 7)}-01`; m <= to; m = addMonths(m, 1)) out.push(m.slice(0, 7));
  return out;
}
