import type { OrderPlaced, OrderStatusChanged } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { gtDayHour } from '../shared/time';
import { count, newDeltas, type OrderRow, type Row } from './sales-deltas';
import { readOrderPlaced, readStatusChanged } from './sales-events';
import { applyPlacements } from './sales-placements';
import { applySalesRange, salesRangeStages } from './sales-range';
import { StoreVersions, storeVersionsDdl, upsertStoreVersions } from './store-versions';

export type SalesTable = 'orders' | 'sales_hourly' | 'sales_daily' | 'product_sales_daily' | 'product_sales_monthly' | 'sales_versions';

/**
 * Reporting's read side of ordering: one row per order (recent orders, pending WhatsApp orders,
 * exports, the cash close) and pre-aggregates so that a year of reports reads a few thousand rows
 * whatever the number of orders: per store / Guatemalan day (and hour) / channel / payment method,
 * and per store / day (and month) / product. Cancelled orders are not sales: a cancellation takes
 * its order back out of every aggregate.
 */
export const salesProjection: Projection<SalesTable> = {
  name: 'sales',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 2: per-day and per-month aggregates (the year report read up to 44,000 hourly rows), sales_versions.
  // 3: orders.items as jsonb (a rebuild writes the lines in SQL straight from the events: applyRange).
  version: 3,
  sources: ['ordering'],
  tables: ['orders', 'sales_hourly', 'sales_daily', 'product_sales_daily', 'product_sales_monthly', 'sales_versions'],

  async setup(tx, t) {
    const o = physicalName(t.orders);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.orders} (
        order_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        code text NOT NULL,
        order_type text NOT NULL,
        status text NOT NULL,
        payment_method text,
        payment_status text NOT NULL,
        customer_name text NOT NULL,
        customer_phone text,
        subtotal bigint NOT NULL,
        tax bigint NOT NULL,
        total bigint NOT NULL,
        items jsonb NOT NULL, -- the lines, read back only to take a cancelled order out of the aggregates
        placed_at timestamptz NOT NULL,
        day date NOT NULL,
        hour smallint NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${o}_store_placed ON ${t.orders} (store_id, placed_at DESC);
      CREATE INDEX IF NOT EXISTS ${o}_pending ON ${t.orders} (store_id, order_type) WHERE status = 'pending';
      CREATE INDEX IF NOT EXISTS ${o}_cancelled ON ${t.orders} (store_id, placed_at) WHERE status = 'cancelled';
      CREATE TABLE IF NOT EXISTS ${t.sales_hourly} (
        store_id uuid NOT NULL,
        day date NOT NULL,
        hour smallint NOT NULL,
        order_type text NOT NULL,
        payment_method text NOT NULL,
        orders integer NOT NULL,
        amount bigint NOT NULL,
        PRIMARY KEY (store_id, day, hour, order_type, payment_method)
      );
      CREATE TABLE IF NOT EXISTS ${t.sales_daily} (
        store_id uuid NOT NULL,
        day date NOT NULL,
        order_type text NOT NULL,
        payment_method text NOT NULL,
        orders integer NOT NULL,
        amount bigint NOT NULL,
        PRIMARY KEY (store_id, day, order_type, payment_method)
      );
      CREATE TABLE IF NOT EXISTS ${t.product_sales_monthly} (
        store_id uuid NOT NULL,
        month date NOT NULL,
        product_id uuid NOT NULL,
        product_name text NOT NULL,
        units integer NOT NULL,
        amount bigint NOT NULL,
        PRIMARY KEY (store_id, month, product_id)
      );
      ${storeVersionsDdl(t.sales_versions)};
      CREATE TABLE IF NOT EXISTS ${t.product_sales_daily} (
        store_id uuid NOT NULL,
        day date NOT NULL,
        product_id uuid NOT NULL,
        product_name text NOT NULL,
        units integer NOT NULL,
        amount bigint NOT NULL,
        PRIMARY KEY (store_id, day, product_id)
      );
    `);
  },

  /**
   * Set-based: one read of the orders the batch touches, the batch folded in memory in event
   * order (exactly what applying the events one by one gives), then one statement per table.
   * A rebuild applies 20,000 events per call, so per-event round trips would cap it far below
   * the 50,000 events/s it must reach.
   */
  async apply(tx, events, t) {
    const placed: { event: OrderPlaced; row: Row }[] = [];
    const changes: OrderStatusChanged[] = [];
    const steps: { kind: 'placed' | 'changed'; index: number; event: RecordedEventWithTx }[] = [];
    for (const event of events) {
      if (event.type === 'OrderPlaced') {
        const d = readOrderPlaced(event.data);
        const { day, hour } = gtDayHour(d.placedAt);
        placed.push({
          event: d,
          row: { storeId: d.storeId, day, hour, orderType: d.orderType, paymentMethod: d.paymentMethod, status: d.status, updatedAt: d.placedAt, total: d.total, items: d.items },
        });
        steps.push({ kind: 'placed', index: placed.length - 1, event });
      } else if (event.type === 'OrderStatusChanged') {
        changes.push(readStatusChanged(event.data));
        steps.push({ kind: 'changed', index: changes.length - 1, event });
      }
    }
    if (steps.length === 0) return;
    if (changes.length === 0) return applyPlacements(tx, placed, steps, t);

    // The rows already projected of every order the batch names.
    const ids = [...new Set([...placed.map((p) => p.event.orderId), ...changes.map((c) => c.orderId)])];
    const existing = new Map<string, Row>();
    const found = await tx.query<OrderRow>({
      text: `SELECT order_id, store_id, day::text AS day, hour, order_type, payment_method, status, total, items FROM ${t.orders} WHERE order_id = ANY($1::uuid[])`,
      // uuids need no quoting: the array literal is built here rather than escaped element by element
      values: [`{${ids.join(',')}}`],
    });
    for (const r of found.rows) {
      existing.set(r.order_id, { storeId: r.store_id, day: r.day, hour: r.hour, orderType: r.order_type, paymentMethod: r.payment_method, status: r.status, updatedAt: null, total: Number(r.total), items: r.items });
    }

    // Fold in event order. `current` holds each order as the events so far leave it.
    const current = new Map<string, Row>(existing);
    const inserted: { event: OrderPlaced; row: Row }[] = [];
    const changed = new Set<string>();
    const deltas = newDeltas();
    const versions = new StoreVersions();
    for (const step of steps) {
      if (step.kind === 'placed') {
        const p = placed[step.index];
        if (current.has(p.event.orderId)) continue; // ON CONFLICT DO NOTHING: the first OrderPlaced wins
        current.set(p.event.orderId, p.row);
        inserted.push(p);
        versions.touch(p.row.storeId, step.event);
        if (p.row.status !== 'cancelled') count(deltas, p.row, 1);
      } else {
        const d = changes[step.index];
        const row = current.get(d.orderId);
        if (!row || row.status === d.status) continue;
        const wasSale = row.status !== 'cancelled';
        const isSale = d.status !== 'cancelled';
        row.status = d.status;
        row.updatedAt = d.changedAt;
        versions.touch(row.storeId, step.event);
        if (existing.has(d.orderId)) changed.add(d.orderId);
        if (wasSale !== isSale) count(deltas, row, isSale ? 1 : -1);
      }
    }

    // Every write of the batch in one statement (one round trip: a live batch is often one sale),
    // each table's rows as one JSON document (json_to_recordset): JSON.stringify is native, where
    // node-pg would escape every element of every parameter array in JavaScript.
    const w = new Writes();
    w.add(
      inserted.map(({ event: d, row }) => ({
        order_id: d.orderId,
        store_id: d.storeId,
        code: d.code,
        order_type: d.orderType,
        status: row.status,
        payment_method: d.paymentMethod,
        payment_status: d.paymentStatus,
        customer_name: d.customerName,
        customer_phone: d.customerPhone,
        subtotal: d.subtotal,
        tax: d.tax,
        total: d.total,
        items: d.items,
        placed_at: d.placedAt,
        day: row.day,
        hour: row.hour,
        updated_at: row.updatedAt, // the placement, or the last status change folded above
      })),
      (rows) => `INSERT INTO ${t.orders} (order_id, store_id, code, order_type, status, payment_method, payment_status, customer_name, customer_phone,
                   subtotal, tax, total, items, placed_at, day, hour, updated_at)
                 SELECT * FROM json_to_recordset(${rows}) AS x(order_id uuid, store_id uuid, code text, order_type text, status text, payment_method text,
                   payment_status text, customer_name text, customer_phone text, subtotal bigint, tax bigint, total bigint, items jsonb, placed_at timestamptz,
                   day date, hour smallint, updated_at timestamptz)`,
    );
    w.add(
      [...changed].map((id) => ({ order_id: id, status: current.get(id)!.status, updated_at: current.get(id)!.updatedAt })),
      (rows) => `UPDATE ${t.orders} o SET status = u.status, updated_at = u.updated_at
                 FROM json_to_recordset(${rows}) AS u(order_id uuid, status text, updated_at timestamptz) WHERE o.order_id = u.order_id`,
    );
    for (const [table, map, hour] of [
      [t.sales_hourly, deltas.hourly, ', hour'],
      [t.sales_daily, deltas.daily, ''],
    ] as const) {
      w.add(
        [...map.values()].map((x) => ({ store_id: x.storeId, day: x.day, hour: x.hour, order_type: x.orderType, payment_method: x.paymentMethod, orders: x.orders, amount: x.amount })),
        (rows) => `INSERT INTO ${table} AS a (store_id, day${hour}, order_type, payment_method, orders, amount)
                   SELECT store_id, day${hour}, order_type, payment_method, orders, amount
                   FROM json_to_recordset(${rows}) AS x(store_id uuid, day date, hour smallint, order_type text, payment_method text, orders integer, amount bigint)
                   ON CONFLICT (store_id, day${hour}, order_type, payment_method) DO UPDATE SET orders = a.orders + EXCLUDED.orders, amount = a.amount + EXCLUDED.amount`,
      );
    }
    for (const [table, map, period] of [
      [t.product_sales_daily, deltas.dailyProducts, 'day'],
      [t.product_sales_monthly, deltas.monthlyProducts, 'month'],
    ] as const) {
      w.add(
        [...map.values()].map((x) => ({ store_id: x.storeId, at: x.at, product_id: x.productId, product_name: x.name, units: x.units, amount: x.amount })),
        (rows) => `INSERT INTO ${table} AS a (store_id, ${period}, product_id, product_name, units, amount)
                   SELECT store_id, at, product_id, product_name, units, amount
                   FROM json_to_recordset(${rows}) AS x(store_id uuid, at date, product_id uuid, product_name text, units integer, amount bigint)
                   ON CONFLICT (store_id, ${period}, product_id) DO UPDATE SET units = a.units + EXCLUDED.units, amount = a.amount + EXCLUDED.amount, product_name = EXCLUDED.product_name`,
      );
    }
    w.add(versions.rows(), (rows) => upsertStoreVersions(t.sales_versions, rows));
    await w.run(tx);
  },

  /** A rebuild applies ranges of events in SQL (the same fold as apply: sales-range.ts), its stages as a pipeline. */
  applyRange: applySalesRange,
  rangeStages: salesRangeStages,
};

/** Data-modifying statements run as one (WITH a AS (INSERT …), b AS (UPDATE …) SELECT 1): they write different rows. */
class Writes {
  private readonly parts: string[] = [];
  private readonly values: string[] = [];

  /** Adds a statement over `rows` (skipped when there are none); `sql` gets the parameter that holds them as JSON. */
  add(rows: object[], sql: (param: string) => string): void {
    if (rows.length === 0) return;
    this.values.push(JSON.stringify(rows));
    this.parts.push(`w${this.parts.length} AS (${sql(`$${this.values.length}::json`)})`);
  }

  async run(tx: PoolClient): Promise<void> {
    if (this.parts.length > 0) await tx.query({ text: `WITH ${this.parts.join(',\n')} SELECT 1`, values: this.values });
  }
}
