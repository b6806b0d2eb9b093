import type { OrderPlaced } from '@tiendita/contracts';
import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { monthOf } from '../shared/time';
import { count, newDeltas, type Row } from './sales-deltas';
import type { SalesTable } from './sales.projection';
import { upsertStoreVersions } from './store-versions';

/**
 * A batch of placements only (a sale, a checkout: the live batches that matter for event → report)
 * in one statement, without reading the orders first: the insert skips an order already projected
 * (ON CONFLICT DO NOTHING: its first placement wins) and only the orders it inserted go into the
 * aggregates and the stores' versions. Each order's share is computed here as `count` computes it;
 * SQL adds up the shares of the inserted orders, a product's name and a store's version taken from
 * the last of them. Leaves the rows the general path leaves (the property test compares them).
 */
export async function applyPlacements(tx: PoolClient, placed: { event: OrderPlaced; row: Row }[], steps: { index: number; event: RecordedEventWithTx }[], t: Record<SalesTable, string>): Promise<void> {
  const orders: object[] = [];
  const sales: object[] = [];
  const products: object[] = [];
  const versions: object[] = [];
  const seen = new Set<string>();
  for (const [seq, step] of steps.entries()) {
    const { event: d, row } = placed[step.index];
    if (seen.has(d.orderId)) continue; // the first placement in the batch wins
    seen.add(d.orderId);
    orders.push({
      order_id: d.orderId, store_id: d.storeId, code: d.code, order_type: d.orderType, status: row.status, payment_method: d.paymentMethod,
      payment_status: d.paymentStatus, customer_name: d.customerName, customer_phone: d.customerPhone, subtotal: d.subtotal, tax: d.tax,
      total: d.total, items: d.items, placed_at: d.placedAt, day: row.day, hour: row.hour, updated_at: row.updatedAt,
    });
    versions.push({ seq, order_id: d.orderId, store_id: d.storeId, version: `${step.event.transactionId}/${step.event.globalPosition}` });
    if (row.status === 'cancelled') continue;
    const share = newDeltas();
    count(share, row, 1);
    for (const x of share.hourly.values()) sales.push({ order_id: d.orderId, day: x.day, hour: x.hour, order_type: x.orderType, payment_method: x.paymentMethod, orders: x.orders, amount: x.amount });
    for (const x of share.dailyProducts.values()) products.push({ seq, order_id: d.orderId, day: x.at, month: monthOf(x.at), product_id: x.productId, name: x.name, units: x.units, amount: x.amount });
  }
  const upsertSales = (table: string, hour: string) => `
    INSERT INTO ${table} AS a (store_id, day${hour}, order_type, payment_method, orders, amount)
    SELECT i.store_id, s.day${hour}, s.order_type, s.payment_method, sum(s.orders), sum(s.amount)
    FROM s JOIN ins i USING (order_id) GROUP BY i.store_id, s.day${hour}, s.order_type, s.payment_method
    ON CONFLICT (store_id, day${hour}, order_type, payment_method) DO UPDATE SET orders = a.orders + EXCLUDED.orders, amount = a.amount + EXCLUDED.amount`;
  const upsertProducts = (table: string, period: 'day' | 'month') => `
    INSERT INTO ${table} AS a (store_id, ${period}, product_id, product_name, units, amount)
    SELECT i.store_id, p.${period}, p.product_id, (array_agg(p.name ORDER BY p.seq DESC))[1], sum(p.units), sum(p.amount)
    FROM p JOIN ins i USING (order_id) GROUP BY i.store_id, p.${period}, p.product_id
    ON CONFLICT (store_id, ${period}, product_id) DO UPDATE SET units = a.units + EXCLUDED.units, amount = a.amount + EXCLUDED.amount, product_name = EXCLUDED.product_name`;
  await tx.query({
    // Prepared once per connection (its text is the same for every live batch of these tables), not
    // parsed and planned again for every sale.
    name: `sales_placements_${t.orders}`,
    text: `WITH ins AS (
        INSERT INTO ${t.orders} (order_id, store_id, code, order_type, status, payment_method, payment_status, customer_name, customer_phone,
          subtotal, tax, total, items, placed_at, day, hour, updated_at)
        SELECT * FROM json_to_recordset($1::json) AS x(order_id uuid, store_id uuid, code text, order_type text, status text, payment_method text,
          payment_status text, customer_name text, customer_phone text, subtotal bigint, tax bigint, total bigint, items jsonb, placed_at timestamptz,
          day date, hour smallint, updated_at timestamptz)
        ON CONFLICT (order_id) DO NOTHING
        RETURNING order_id, store_id),
      s AS (SELECT * FROM json_to_recordset($2::json) AS x(order_id uuid, day date, hour smallint, order_type text, payment_method text, orders integer, amount bigint)),
      p AS (SELECT * FROM json_to_recordset($3::json) AS x(seq integer, order_id uuid, day date, month date, product_id uuid, name text, units integer, amount bigint)),
      v AS (SELECT * FROM json_to_recordset($4::json) AS x(seq integer, order_id uuid, store_id uuid, version text)),
      w0 AS (${upsertSales(t.sales_hourly, ', hour')}),
      w1 AS (${upsertSales(t.sales_daily, '')}),
      w2 AS (${upsertProducts(t.product_sales_daily, 'day')}),
      w3 AS (${upsertProducts(t.product_sales_monthly, 'month')}),
      w4 AS (${upsertStoreVersions(t.sales_versions, `(SELECT json_agg(x) FROM (SELECT DISTINCT ON (v.store_id) v.store_id, v.version FROM v JOIN ins USING (order_id) ORDER BY v.store_id, v.seq DESC) x)`)})
      SELECT 1`,
    values: [JSON.stringify(orders), JSON.stringify(sales), JSON.stringify(products), JSON.stringify(versions)],
  });
}
