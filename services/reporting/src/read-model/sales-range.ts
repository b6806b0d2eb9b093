import { OrderStatus, OrderType, PaymentMethod, PaymentStatus } from '@tiendita/contracts';
import { assertSchemaName, createScratchTable, type EventRange, type RangeScratch, type RangeStage, temporaryScratch } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { GT_OFFSET_MS } from '../shared/time';
import type { SalesTable } from './sales.projection';

/**
 * The sales projection's `applyRange`: a rebuild applies a range of ordering's events in SQL (three
 * statements, `salesRangeStages`), without reading them into the service (parsing a million events in JavaScript held a
 * rebuild to ~15,000 events/s). It is the fold of `salesProjection.apply`, written in SQL, and must
 * leave exactly the same rows for the same events:
 * - an order's first OrderPlaced creates its row (a later one, in this range or an earlier one, is ignored);
 * - a status change applies to an order that exists at that point; one to the status it already has changes nothing;
 * - the aggregates take each order in (+1) or out (−1) whenever it becomes, or stops being, a sale
 *   (cancelled orders are not sales); a key touched keeps its row even when it nets to zero;
 * - a product's name in an aggregate row is the one of the last order counted there, and within that
 *   order its first line of the product;
 * - the store's version is the position of the last event that changed its rows.
 * Events are checked against their contracts as `apply` checks them: one that fails stops the range
 * with the same message. The reporting tests run both paths over the same histories and compare.
 */
export async function applySalesRange(tx: PoolClient, range: EventRange, t: Record<SalesTable, string>): Promise<void> {
  const scratch = temporaryScratch('sales_range');
  for (const stage of salesRangeStages) await stage(tx, range, t, scratch);
}

/**
 * The same work in three stages, which a rebuild runs as a pipeline on three connections (the
 * statement of one range used one CPU): 1. read and check the range's events into a scratch table
 * (what the fold needs of each); 2. fold them into the orders (and the stores' versions), leaving
 * each counted order's change in another scratch table; 3. add those changes to the aggregates.
 * Stage 2 of a range needs the orders of the range before, stage 3 its aggregates (a product's
 * name is the one counted last); stage 1 needs nothing, so it reads ahead.
 */
export const salesRangeStages: readonly RangeStage<SalesTable>[] = [
  async function readEvents(tx, range, _t, scratch) {
    assertSchemaName(range.source);
    const { placed, changes } = scratchOf(scratch);
    // For this transaction: the sorts and hashes of a range fit in memory, compiling the statement's
    // expressions (JIT) costs more than it saves on a range, and the range is read in index order (a
    // bitmap scan and a sort of the rows would cost ~3× more).
    await tx.query(`SELECT set_config('work_mem', '64MB', true), set_config('jit', 'off', true), set_config('enable_bitmapscan', 'off', true)`);
    await tx.query(`
      ${createScratchTable(scratch, placed)} (seq bigint, order_id uuid, status text, store_id uuid, code text, order_type text, payment_method text,
        payment_status text, customer_name text, customer_phone text, subtotal bigint, tax bigint, total bigint, items jsonb, at timestamptz,
        version text, day date, hour smallint);
      ${createScratchTable(scratch, changes)} (seq bigint, order_id uuid, version text, status text, changed_at timestamptz)`);
    await tx.query({
      text: readSql(range.source, placed, changes),
      values: [
        range.from.transactionId,
        range.from.globalPosition,
        range.to.transactionId,
        range.to.globalPosition,
        OrderType.options,
        OrderStatus.options,
        PaymentMethod.options,
        PaymentStatus.options,
      ],
    });
  },
  async function foldOrders(tx, _range, t, scratch) {
    const { placed, changes, counted } = scratchOf(scratch);
    await tx.query(`SELECT set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
    await tx.query(
      `${createScratchTable(scratch, counted)} (order_id uuid, store_id uuid, day date, hour smallint, order_type text, method text, total bigint, net int, last_count bigint)`,
    );
    await tx.query(foldSql(placed, changes, counted, t));
    await tx.query(`DROP TABLE ${placed}, ${changes}`);
  },
  async function addToAggregates(tx, _range, t, scratch) {
    const { counted } = scratchOf(scratch);
    await tx.query(`SELECT set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
    await tx.query(aggregateSql(counted, t));
    await tx.query(`DROP TABLE ${counted}`);
  },
];

/** The scratch tables of a range: its placements (the first of each order) and status changes, read by stage 1; the orders stage 2 counted. */
const scratchOf = (scratch: RangeScratch) => ({ placed: `${scratch.prefix}_placed`, changes: `${scratch.prefix}_changes`, counted: `${scratch.prefix}_counted` });

/**
 * Stops the statement with apply's message for an event that breaks its contract: a text that is
 * not an integer, cast to one, raises it.
 */
const refuse = (type: string, data: string) => `((${type} || ' no cumple su contrato: ' || left(${data}::text, 300))::int)`;

/** Guatemalan day and hour of an instant (UTC−6 all year, as gtDayHour). */
const GT = `interval '${GT_OFFSET_MS / 3_600_000} hours'`;
const gtLocal = (instant: string) => `((${instant}) AT TIME ZONE 'UTC' - ${GT})`;
const version = (e: string) => `${e}.transaction_id::text || '/' || ${e}.global_position`;

/**
 * Stage 1: the range in event order, each event read once into the fields the fold needs (a JSON
 * member read costs ~0.4 µs: checking each one's JSON type as apply does tripled the time of a range)
 * and checked on what it read: ids are uuids, amounts integers (their casts refuse anything else),
 * statuses, channels and methods from the contracts, instants ISO 8601, lines a non-empty array.
 */
function readSql(source: string, placed: string, changes: string): string {
  return `
WITH ev AS MATERIALIZED (
  SELECT f.seq, f.transaction_id, f.global_position, f.is_placed, f.order_id, f.status, f.store_id, f.code, f.order_type, f.payment_method,
         f.payment_status, f.customer_name, f.customer_phone, f.subtotal, f.tax, f.total, f.items,
         CASE WHEN f.order_id IS NOT NULL AND f.status = ANY($6::text[]) AND substr(f.at, 11, 1) = 'T'
                   AND (NOT f.is_placed OR (f.store_id IS NOT NULL AND f.code IS NOT NULL AND f.order_type = ANY($5::text[])
                        AND (f.payment_method IS NULL OR f.payment_method = ANY($7::text[])) AND f.payment_status = ANY($8::text[])
                        AND f.customer_name IS NOT NULL AND f.subtotal IS NOT NULL AND f.tax IS NOT NULL AND f.total IS NOT NULL
                        AND CASE WHEN jsonb_typeof(f.items) = 'array' THEN jsonb_array_length(f.items) > 0 ELSE false END))
              THEN f.at::timestamptz ELSE to_timestamp(${refuse('f.type', 'f.data')}) END AS at
  FROM (
    SELECT row_number() OVER (ORDER BY e.transaction_id, e.global_position) AS seq, e.transaction_id, e.global_position, e.type, e.data,
           e.type = 'OrderPlaced' AS is_placed, (e.data->>'orderId')::uuid AS order_id, e.data->>'status' AS status,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'placedAt' ELSE e.data->>'changedAt' END AS at,
           CASE WHEN e.type = 'OrderPlaced' THEN (e.data->>'storeId')::uuid END AS store_id,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'code' END AS code,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'orderType' END AS order_type,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'paymentMethod' END AS payment_method,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'paymentStatus' END AS payment_status,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'customerName' END AS customer_name,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->>'customerPhone' END AS customer_phone,
           CASE WHEN e.type = 'OrderPlaced' THEN (e.data->>'subtotal')::bigint END AS subtotal,
           CASE WHEN e.type = 'OrderPlaced' THEN (e.data->>'tax')::bigint END AS tax,
           CASE WHEN e.type = 'OrderPlaced' THEN (e.data->>'total')::bigint END AS total,
           CASE WHEN e.type = 'OrderPlaced' THEN e.data->'items' END AS items
    FROM ${source}.events e
    WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND (e.transaction_id, e.global_position) <= ($3::xid8, $4::bigint)
      AND e.type IN ('OrderPlaced', 'OrderStatusChanged')
    OFFSET 0 -- each member read once, not once per use
  ) f
),
first_placed AS (
  -- Each order's first placement in the range (a later one is ignored, as apply ignores it).
  SELECT order_id, min(seq) AS seq FROM ev WHERE is_placed GROUP BY order_id
),
w_placed AS (
  INSERT INTO ${placed}
  SELECT ev.seq, ev.order_id, ev.status, ev.store_id, ev.code, ev.order_type, ev.payment_method, ev.payment_status, ev.customer_name, ev.customer_phone,
         ev.subtotal, ev.tax, ev.total, ev.items, ev.at, ${version('ev')}, ${gtLocal('ev.at')}::date, extract(hour FROM ${gtLocal('ev.at')})::smallint
  FROM first_placed fp JOIN ev ON ev.seq = fp.seq
),
w_changes AS (
  INSERT INTO ${changes} SELECT seq, order_id, ${version('ev')}, status, at FROM ev WHERE NOT is_placed
)
SELECT 1`;
}

/**
 * Stage 2: the fold over the orders. Writes new orders and status changes, the stores' versions, and
 * into `counted` every order counted in or out of the aggregates here (net: +1 or −1; last_count: the
 * position of the last time it was).
 */
function foldSql(placed: string, changes: string, counted: string, t: Record<SalesTable, string>): string {
  return `
WITH existing AS MATERIALIZED (
  -- One probe of the primary key per order (LIMIT keeps the planner from a scan of the whole table).
  SELECT o.* FROM (SELECT order_id FROM ${placed} UNION SELECT order_id FROM ${changes}) ids
  CROSS JOIN LATERAL (
    SELECT o.order_id, o.store_id, o.day, o.hour, o.order_type, o.payment_method, o.status, o.total, o.items
    FROM ${t.orders} o WHERE o.order_id = ids.order_id LIMIT 1
  ) o
),
new_orders AS MATERIALIZED (
  -- Narrow rows (no lines): the wide ones are read once, by the insert.
  SELECT p.order_id, p.seq, p.version, p.store_id, p.day, p.hour, p.order_type, p.payment_method, p.status, p.total
  FROM ${placed} p WHERE NOT EXISTS (SELECT 1 FROM existing x WHERE x.order_id = p.order_id)
),
base AS (
  -- Every order the range can change, as it stands before its first change here; a new order from its placement on.
  SELECT x.order_id, x.store_id, x.day, x.hour, x.order_type, x.payment_method, x.status AS status0, x.total, 0::bigint AS start_seq, false AS is_new
  FROM existing x
  UNION ALL
  SELECT n.order_id, n.store_id, n.day, n.hour, n.order_type, n.payment_method, n.status, n.total, n.seq, true
  FROM new_orders n
),
effective AS (
  -- The changes that change something: to another status than the one before (lag: the previous change's, or the start's).
  SELECT order_id, seq, version, status, changed_at, (before <> 'cancelled') <> (status <> 'cancelled') AS flip
  FROM (
    SELECT c.order_id, c.seq, c.version, c.status, c.changed_at, lag(c.status, 1, b.status0) OVER (PARTITION BY c.order_id ORDER BY c.seq) AS before
    FROM ${changes} c JOIN base b ON b.order_id = c.order_id AND c.seq > b.start_seq
  ) s
  WHERE status <> before
),
per_order AS (
  SELECT order_id, (array_agg(status ORDER BY seq DESC))[1] AS status, (array_agg(changed_at ORDER BY seq DESC))[1] AS updated_at,
         max(seq) AS last_seq, (array_agg(version ORDER BY seq DESC))[1] AS version, max(seq) FILTER (WHERE flip) AS last_flip
  FROM effective GROUP BY order_id
),
state AS MATERIALIZED (
  -- Where the range leaves each order; net: its change in the aggregates (a new order counts from 0);
  -- last_count: the position of the last time it was counted in or out here (null: the aggregates are not touched).
  SELECT b.order_id, b.store_id, b.day, b.hour, b.order_type, COALESCE(b.payment_method, 'none') AS method, b.total, b.is_new,
         COALESCE(po.status, b.status0) AS status, po.updated_at, po.last_seq, po.version,
         (COALESCE(po.status, b.status0) <> 'cancelled')::int - CASE WHEN b.is_new THEN 0 ELSE (b.status0 <> 'cancelled')::int END AS net,
         GREATEST(CASE WHEN b.is_new AND b.status0 <> 'cancelled' THEN b.start_seq END, po.last_flip) AS last_count
  FROM base b LEFT JOIN per_order po ON po.order_id = b.order_id
),
w_insert AS (
  INSERT INTO ${t.orders} (order_id, store_id, code, order_type, status, payment_method, payment_status, customer_name, customer_phone,
                           subtotal, tax, total, items, placed_at, day, hour, updated_at)
  SELECT n.order_id, n.store_id, n.code, n.order_type, s.status, n.payment_method, n.payment_status, n.customer_name, n.customer_phone,
         n.subtotal, n.tax, n.total, n.items, n.at, n.day, n.hour, COALESCE(s.updated_at, n.at)
  FROM state s JOIN ${placed} n ON n.order_id = s.order_id AND s.is_new
),
w_update AS (
  UPDATE ${t.orders} o SET status = s.status, updated_at = s.updated_at
  FROM state s WHERE NOT s.is_new AND s.last_seq IS NOT NULL AND o.order_id = s.order_id
),
w_versions AS (
  INSERT INTO ${t.sales_versions} AS v (store_id, version)
  SELECT store_id, (array_agg(version ORDER BY seq DESC))[1] FROM (
    SELECT store_id, seq, version FROM new_orders
    UNION ALL
    SELECT store_id, last_seq, version FROM state WHERE last_seq IS NOT NULL
  ) x GROUP BY store_id
  ON CONFLICT (store_id) DO UPDATE SET version = EXCLUDED.version
),
w_counted AS (
  INSERT INTO ${counted} (order_id, store_id, day, hour, order_type, method, total, net, last_count)
  SELECT order_id, store_id, day, hour, order_type, method, total, net, last_count FROM state WHERE last_count IS NOT NULL
)
SELECT 1`;
}

/** Stage 3: the orders counted in or out by stage 2 added to the aggregates (ranges in order: a product keeps the name counted last). */
function aggregateSql(counted: string, t: Record<SalesTable, string>): string {
  return `
WITH lines AS MATERIALIZED (
  -- The lines of every order counted in or out here.
  SELECT store_id, day, net, last_count, product_id, name, n,
         CASE WHEN quantity >= 1 AND line_total >= 0 AND name IS NOT NULL THEN quantity ELSE ${refuse("'OrderPlaced'", 'items')} END AS quantity, line_total
  FROM (
    SELECT s.store_id, s.day, s.net, s.last_count, o.items, (l.line->>'productId')::uuid AS product_id, l.line->>'productName' AS name,
           (l.line->>'quantity')::int AS quantity, (l.line->>'lineTotal')::bigint AS line_total, l.n
    FROM ${counted} s
    -- An order's lines never change: read from its row (stage 2 of this range has committed it).
    CROSS JOIN LATERAL (SELECT o.items FROM ${t.orders} o WHERE o.order_id = s.order_id LIMIT 1) o
    CROSS JOIN LATERAL jsonb_array_elements(o.items) WITH ORDINALITY AS l(line, n)
    OFFSET 0
  ) l
),
w_hourly AS (
  INSERT INTO ${t.sales_hourly} AS a (store_id, day, hour, order_type, payment_method, orders, amount)
  SELECT store_id, day, hour, order_type, method, sum(net), sum(net * total) FROM ${counted} GROUP BY 1, 2, 3, 4, 5
  ON CONFLICT (store_id, day, hour, order_type, payment_method) DO UPDATE SET orders = a.orders + EXCLUDED.orders, amount = a.amount + EXCLUDED.amount
),
w_daily AS (
  INSERT INTO ${t.sales_daily} AS a (store_id, day, order_type, payment_method, orders, amount)
  SELECT store_id, day, order_type, method, sum(net), sum(net * total) FROM ${counted} GROUP BY 1, 2, 3, 4
  ON CONFLICT (store_id, day, order_type, payment_method) DO UPDATE SET orders = a.orders + EXCLUDED.orders, amount = a.amount + EXCLUDED.amount
),
products_daily AS MATERIALIZED (
  -- Per product and day; the name of the order counted last (its first line of the product), and when.
  SELECT store_id, day, product_id, (array_agg(name ORDER BY last_count DESC, n))[1] AS name, max(last_count) AS last_count,
         sum(net * quantity) AS units, sum(net * line_total) AS amount
  FROM lines GROUP BY 1, 2, 3
),
w_products_daily AS (
  INSERT INTO ${t.product_sales_daily} AS a (store_id, day, product_id, product_name, units, amount)
  SELECT store_id, day, product_id, name, units, amount FROM products_daily
  ON CONFLICT (store_id, day, product_id) DO UPDATE SET units = a.units + EXCLUDED.units, amount = a.amount + EXCLUDED.amount, product_name = EXCLUDED.product_name
),
w_products_monthly AS (
  -- A month from its days (the name of the day counted last); its first day by date arithmetic
  -- (date_trunc would go through timestamptz and the time zone).
  INSERT INTO ${t.product_sales_monthly} AS a (store_id, month, product_id, product_name, units, amount)
  SELECT store_id, day - (extract(day FROM day)::int - 1), product_id, (array_agg(name ORDER BY last_count DESC))[1], sum(units), sum(amount)
  FROM products_daily GROUP BY 1, 2, 3
  ON CONFLICT (store_id, month, product_id) DO UPDATE SET units = a.units + EXCLUDED.units, amount = a.amount + EXCLUDED.amount, product_name = EXCLUDED.product_name
)
SELECT 1`;
}
