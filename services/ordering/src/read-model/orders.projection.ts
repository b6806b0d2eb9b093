import { OrderPlaced, OrderStatusChanged, PaymentRecorded } from '@tiendita/contracts';
import { physicalName, type Projection, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { applyPayment, DAY_OF, foldPayment, type PlacedInBatch, placedInBatch } from './order-payments';

export type OrdersTable = 'orders' | 'order_history' | 'order_counts' | 'order_totals' | 'order_versions' | 'order_search';

/**
 * What the owner's search box looks in (customer, phone, code and id), as one text. The orders
 * table stores it lower-cased (`search_key`), and the list's search is `search_key LIKE lower(…)`:
 * what `ORDER_SEARCH_TEXT ILIKE …` matched (ILIKE lower-cases both sides the same way), without
 * lower-casing every order on every search. A trigram index on search_key answers a selective search.
 */
export const ORDER_SEARCH_TEXT = `(coalesce(customer_name, '') || ' ' || coalesce(customer_phone, '') || ' ' || code || ' ' || id::text)`;

/**
 * The owner's orders list (spec §3: one row per order, its lines as JSON), each order's history
 * (one row per event: created, then every status change with its note), and how many orders each
 * store has per day, status, type and payment status (`order_counts`): the list's total with any
 * of those filters and a date range is a sum over a few hundred rows instead of a count over every
 * order (a store with 100,000 orders took 50–80 ms to count; see docs/architecture.md).
 * Amounts in centavos; the HTTP layer shows quetzales.
 */
export const ordersProjection: Projection<OrdersTable> = {
  name: 'orders',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 2: order_counts; indexes for sorting by id and by status within a store, and for the search.
  // 3: search_key; one covering index per sort, so a page's ids come from the index alone.
  // 4: order_search, the narrow copy a search counts and pages on (the trigram index moved there).
  // 5: order_totals, order_counts without the day (a list without dates sums a few rows, not a year of
  // days); order_versions, each store's count of order changes (what the list's search memo checks).
  // 6: payments, refunds and amount_paid (issue 24); payment_status follows the payments.
  version: 6,
  sources: ['ordering'],
  tables: ['orders', 'order_history', 'order_counts', 'order_totals', 'order_versions', 'order_search'],

  async setup(tx, t) {
    const o = physicalName(t.orders);
    const h = physicalName(t.order_history);
    const c = physicalName(t.order_counts);
    const q = physicalName(t.order_search);
    const k = physicalName(t.order_totals);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.orders} (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        code varchar(12) NOT NULL,
        customer_name varchar(255),
        customer_phone varchar(20),
        customer_address text,
        customer_email varchar(255),
        customer_nit varchar(20),
        subtotal bigint NOT NULL,
        tax bigint NOT NULL,
        total bigint NOT NULL,
        status varchar(20) NOT NULL,
        order_type varchar(10) NOT NULL,
        payment_method varchar(10),
        payment_status varchar(10) NOT NULL,
        notes text,
        whatsapp_message text,
        items jsonb NOT NULL,
        cash_received bigint,
        change bigint,
        payments jsonb NOT NULL DEFAULT '[]',
        refunds jsonb NOT NULL DEFAULT '[]',
        amount_paid bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        search_key text GENERATED ALWAYS AS (lower(${ORDER_SEARCH_TEXT})) STORED
      );
      -- The owner's list: one index per sort, each ending in the id (the tie-breaker, in the sort's
      -- direction, so either direction is the index read one way or the other) and holding every
      -- column a filter reads, so a page's ids come from an index-only walk that stops at the page
      -- and only the page's rows are read from the table (OrdersService.list). The created_at one
      -- (the default sort) also holds search_key: a search too broad for the trigram index is
      -- filtered and counted there, without reading the table.
      CREATE INDEX IF NOT EXISTS ${o}_store_created ON ${t.orders} (store_id, created_at, id) INCLUDE (status, order_type, payment_status, search_key);
      CREATE INDEX IF NOT EXISTS ${o}_store_total ON ${t.orders} (store_id, total, id) INCLUDE (status, order_type, payment_status, created_at);
      CREATE INDEX IF NOT EXISTS ${o}_store_status ON ${t.orders} (store_id, status, id) INCLUDE (order_type, payment_status, created_at);
      CREATE INDEX IF NOT EXISTS ${o}_store_id ON ${t.orders} (store_id, id) INCLUDE (status, order_type, payment_status, created_at);
      -- The expiry sweep's pending orders, oldest first, across stores.
      CREATE INDEX IF NOT EXISTS ${o}_pending ON ${t.orders} (created_at) WHERE status = 'pending';
      CREATE TABLE IF NOT EXISTS ${t.order_history} (
        id uuid PRIMARY KEY,
        order_id uuid NOT NULL,
        store_id uuid NOT NULL,
        status varchar(20) NOT NULL,
        previous_status varchar(20),
        notes text,
        created_by varchar(255) NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${h}_order ON ${t.order_history} (order_id, created_at);
      CREATE TABLE IF NOT EXISTS ${t.order_counts} (
        store_id uuid NOT NULL,
        day date NOT NULL,
        status varchar(20) NOT NULL,
        order_type varchar(10) NOT NULL,
        payment_status varchar(10) NOT NULL,
        n integer NOT NULL,
        CONSTRAINT ${c}_pkey PRIMARY KEY (store_id, day, status, order_type, payment_status)
      );
      -- order_counts without the day: the total of a list without a date range, a sum of a few dozen
      -- rows (statuses × types × payment statuses) instead of a year of daily rows (1.4–1.7 ms).
      CREATE TABLE IF NOT EXISTS ${t.order_totals} (
        store_id uuid NOT NULL,
        status varchar(20) NOT NULL,
        order_type varchar(10) NOT NULL,
        payment_status varchar(10) NOT NULL,
        n integer NOT NULL,
        CONSTRAINT ${k}_pkey PRIMARY KEY (store_id, status, order_type, payment_status)
      );
      -- How many times each store's orders changed (an order placed or a status changed): the list
      -- keeps a search's matches in memory while its store's version stays the same.
      CREATE TABLE IF NOT EXISTS ${t.order_versions} (
        store_id uuid PRIMARY KEY,
        version bigint NOT NULL
      );
      -- What the owner's search reads: every column a filter or a sort of the list names, and the
      -- search text, ~100 bytes a row. A search must count all its matches, and checking them
      -- against the orders rows themselves (a kilobyte each, with lines and message) read 6,000
      -- pages for a common surname in a store of 100,000 orders; here it is a tenth of that.
      CREATE TABLE IF NOT EXISTS ${t.order_search} (
        id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        created_at timestamptz NOT NULL,
        total bigint NOT NULL,
        status varchar(20) NOT NULL,
        order_type varchar(10) NOT NULL,
        payment_status varchar(10) NOT NULL,
        search_key text NOT NULL
      );
    `);
    // pg_trgm ships with PostgreSQL (contrib) and is a trusted extension, but a server without it
    // (or a role that may not create it) keeps a working search, only a slower one.
    await tx.query('SAVEPOINT order_search');
    try {
      await tx.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await tx.query(`CREATE INDEX IF NOT EXISTS ${q}_trgm ON ${t.order_search} USING gin (search_key gin_trgm_ops)`);
      await tx.query('RELEASE SAVEPOINT order_search');
    } catch {
      await tx.query('ROLLBACK TO SAVEPOINT order_search');
    }
  },

  async apply(tx, events, t) {
    // Set-based, whatever the batch's size: every OrderPlaced of the batch in one statement, then
    // every status change in one more. Placing first changes nothing: an order's changes come after
    // its OrderPlaced in its stream, and counts only add up. The result is the one of applying the
    // events one by one (the tests compare both, and a rebuild's batches differ from the live ones).
    // A payment or a refund is applied in its place, one at a time: the placements and status
    // changes before it are written first (set-based, as above), so every event meets the row as
    // one event at a time would leave it. A payment of an order placed in the same batch (a POS
    // sale's) is folded into the order's row before it is written, with the same result.
    let placed: PlacedInBatch[] = [];
    let changes: { eventId: string; change: OrderStatusChanged }[] = [];
    const flush = async () => {
      if (placed.length) await placeOrders(tx, placed, t);
      if (changes.length) await changeStatuses(tx, changes, t);
      placed = [];
      changes = [];
    };
    for (const event of events) {
      if (event.type === 'OrderPlaced') placed.push(placedInBatch(event.metadata.eventId, OrderPlaced.parse(event.data)));
      else if (event.type === 'OrderStatusChanged') changes.push({ eventId: event.metadata.eventId, change: OrderStatusChanged.parse(event.data) });
      else if (event.type === 'PaymentRecorded' && foldable(placed, changes, event.data)) continue;
      else if (event.type === 'PaymentRecorded' || event.type === 'PaymentRefunded') {
        await flush();
        await applyPayment(tx, event.type, event.data, t);
      }
    }
    await flush();
  },
};

/** Folds a payment into its order when that order was placed in this batch and has no status change pending here. */
function foldable(placed: PlacedInBatch[], changes: { change: OrderStatusChanged }[], data: unknown): boolean {
  const d = PaymentRecorded.parse(data);
  const p = placed.find((x) => x.order.orderId === d.orderId);
  if (!p || changes.some((c) => c.change.orderId === d.orderId)) return false;
  foldPayment(p, d);
  return true;
}

/**
 * Orders placed, in one statement: each order's row (an order already there is left as it is),
 * its first history entry and the counts, only for the rows inserted — what applying them one by
 * one gave, whatever the batch.
 */
async function placeOrders(tx: PoolClient, placed: PlacedInBatch[], t: Record<OrdersTable, string>): Promise<void> {
  const rows = placed.map(({ eventId, order, payments, amountPaid, updatedAt, folded }, ord) => ({ ...order, eventId, ord, payments, amountPaid, updatedAt, folded }));
  await tx.query(
    `WITH d AS (
       SELECT DISTINCT ON ("orderId") * FROM jsonb_to_recordset($1::jsonb) AS d(
         "orderId" uuid, "storeId" uuid, code text, "customerName" text, "customerPhone" text, "customerAddress" text, "customerEmail" text,
         "customerNit" text, subtotal bigint, tax bigint, total bigint, status text, "orderType" text, "paymentMethod" text, "paymentStatus" text,
         notes text, "whatsappMessage" text, items jsonb, "cashReceived" bigint, change bigint, "placedAt" timestamptz, "placedBy" text, "eventId" uuid, ord int, payments jsonb, "amountPaid" bigint, "updatedAt" timestamptz, folded int)
       ORDER BY "orderId", ord),
     ins AS (
       INSERT INTO ${t.orders} (id, store_id, code, customer_name, customer_phone, customer_address, customer_email, customer_nit, subtotal, tax, total,
         status, order_type, payment_method, payment_status, notes, whatsapp_message, items, cash_received, change, payments, amount_paid, created_at, updated_at)
       SELECT "orderId", "storeId", code, "customerName", "customerPhone", "customerAddress", "customerEmail", "customerNit", subtotal, tax, total,
         status, "orderType", "paymentMethod", "paymentStatus", notes, "whatsappMessage", items, "cashReceived", change, payments, "amountPaid", "placedAt", "updatedAt"
       FROM d ORDER BY ord
       ON CONFLICT (id) DO NOTHING
       RETURNING id, store_id, status, order_type, payment_status, created_at, total, search_key),
     searched AS (
       INSERT INTO ${t.order_search} (id, store_id, created_at, total, status, order_type, payment_status, search_key)
       SELECT id, store_id, created_at, total, status, order_type, payment_status, search_key FROM ins),
     hist AS (
       INSERT INTO ${t.order_history} (id, order_id, store_id, status, previous_status, notes, created_by, created_at)
       SELECT d."eventId", d."orderId", d."storeId", d.status, NULL, 'Pedido creado', d."placedBy", d."placedAt" FROM d JOIN ins ON ins.id = d."orderId"
       ON CONFLICT (id) DO NOTHING),
     totals AS (
       INSERT INTO ${t.order_totals} (store_id, status, order_type, payment_status, n)
       SELECT store_id, status, order_type, payment_status, count(*) FROM ins GROUP BY 1, 2, 3, 4
       ON CONFLICT (store_id, status, order_type, payment_status) DO UPDATE SET n = ${t.order_totals}.n + EXCLUDED.n),
     versions AS (
       INSERT INTO ${t.order_versions} (store_id, version) SELECT ins.store_id, sum(1 + d.folded) FROM ins JOIN d ON d."orderId" = ins.id GROUP BY 1
       ON CONFLICT (store_id) DO UPDATE SET version = ${t.order_versions}.version + EXCLUDED.version)
     INSERT INTO ${t.order_counts} (store_id, day, status, order_type, payment_status, n)
     SELECT store_id, ${DAY_OF('created_at')}, status, order_type, payment_status, count(*) FROM ins GROUP BY 1, 2, 3, 4, 5
     ON CONFLICT (store_id, day, status, order_type, payment_status) DO UPDATE SET n = ${t.order_counts}.n + EXCLUDED.n`,
    [JSON.stringify(rows)],
  );
}

/**
 * Status changes, in one statement: each new change's history entry (one already there is skipped,
 * with the rest of that change); each order's row takes its last change; and the counts move along
 * every step of each order's chain (the row's status before the batch, then each change), so a
 * status an order passed through keeps its counts row as it would one event at a time (order_totals
 * the same, without the day). A key that
 * only loses an order is updated, never inserted (its row exists: that order was counted there).
 */
async function changeStatuses(tx: PoolClient, changes: { eventId: string; change: OrderStatusChanged }[], t: Record<OrdersTable, string>): Promise<void> {
  const c = t.order_counts;
  const k = t.order_totals;
  await tx.query(
    `WITH ev AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
         WITH ORDINALITY AS ev(event_id, order_id, store_id, status, previous_status, notes, created_by, created_at, ord)),
     hist AS (
       INSERT INTO ${t.order_history} (id, order_id, store_id, status, previous_status, notes, created_by, created_at)
       SELECT event_id, order_id, store_id, status, previous_status, notes, created_by, created_at FROM ev ORDER BY ord
       ON CONFLICT (id) DO NOTHING
       RETURNING id),
     cur AS (
       SELECT o.id, o.status, o.store_id, ${DAY_OF('o.created_at')} AS day, o.order_type, o.payment_status
       FROM ${t.orders} o WHERE o.id IN (SELECT order_id FROM ev) FOR UPDATE),
     chain AS (
       SELECT ev.order_id, ev.status, ev.created_at, cur.store_id, cur.day, cur.order_type, cur.payment_status,
              COALESCE(lag(ev.status) OVER w, cur.status) AS prev,
              row_number() OVER (PARTITION BY ev.order_id ORDER BY ev.ord DESC) AS from_end
       FROM ev JOIN hist ON hist.id = ev.event_id JOIN cur ON cur.id = ev.order_id
       WINDOW w AS (PARTITION BY ev.order_id ORDER BY ev.ord)),
     moved AS (
       UPDATE ${t.orders} o SET status = chain.status, updated_at = chain.created_at FROM chain WHERE chain.from_end = 1 AND o.id = chain.order_id),
     searched AS (
       UPDATE ${t.order_search} s SET status = chain.status FROM chain WHERE chain.from_end = 1 AND s.id = chain.order_id),
     steps AS (
       SELECT store_id, day, prev AS status, order_type, payment_status, -1 AS delta FROM chain WHERE prev <> status
       UNION ALL
       SELECT store_id, day, status, order_type, payment_status, 1 FROM chain WHERE prev <> status),
     net AS (
       SELECT store_id, day, status, order_type, payment_status, sum(delta)::int AS delta, bool_or(delta > 0) AS gains
       FROM steps GROUP BY 1, 2, 3, 4, 5),
     less AS (
       UPDATE ${c} k SET n = k.n + net.delta FROM net
       WHERE NOT net.gains AND k.store_id = net.store_id AND k.day = net.day AND k.status = net.status AND k.order_type = net.order_type AND k.payment_status = net.payment_status),
     tnet AS (
       SELECT store_id, status, order_type, payment_status, sum(delta)::int AS delta, bool_or(delta > 0) AS gains
       FROM steps GROUP BY 1, 2, 3, 4),
     tless AS (
       UPDATE ${k} k SET n = k.n + tnet.delta FROM tnet
       WHERE NOT tnet.gains AND k.store_id = tnet.store_id AND k.status = tnet.status AND k.order_type = tnet.order_type AND k.payment_status = tnet.payment_status),
     tmore AS (
       INSERT INTO ${k} (store_id, status, order_type, payment_status, n)
       SELECT store_id, status, order_type, payment_status, delta FROM tnet WHERE gains
       ON CONFLICT (store_id, status, order_type, payment_status) DO UPDATE SET n = ${k}.n + EXCLUDED.n),
     versions AS (
       INSERT INTO ${t.order_versions} (store_id, version) SELECT store_id, count(*) FROM chain GROUP BY 1
       ON CONFLICT (store_id) DO UPDATE SET version = ${t.order_versions}.version + EXCLUDED.version)
     INSERT INTO ${c} (store_id, day, status, order_type, payment_status, n)
     SELECT store_id, day, status, order_type, payment_status, delta FROM net WHERE gains
     ON CONFLICT (store_id, day, status, order_type, payment_status) DO UPDATE SET n = ${c}.n + EXCLUDED.n`,
    [
      changes.map((x) => x.eventId),
      changes.map((x) => x.change.orderId),
      changes.map((x) => x.change.storeId),
      changes.map((x) => x.change.status),
      changes.map((x) => x.change.previousStatus),
      changes.map((x) => x.change.notes),
      changes.map((x) => x.change.changedBy),
      changes.map((x) => x.change.changedAt),
    ],
  );
}
