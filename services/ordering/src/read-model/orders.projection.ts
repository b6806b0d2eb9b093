import { OrderPlaced, OrderStatusChanged } from '@tiendita/contracts';
import { physicalName, type Projection } from '@tiendita/eventsourcing';

export type OrdersTable = 'orders' | 'order_history' | 'order_counts';

/**
 * What the owner's search box looks in (customer, phone, code and id), as one text. The orders
 * table stores it lower-cased (`search_key`), and the list's search is `search_key LIKE lower(…)`:
 * what `ORDER_SEARCH_TEXT ILIKE …` matched (ILIKE lower-cases both sides the same way), without
 * lower-casing every order on every search. A trigram index on search_key answers a selective search.
 */
export const ORDER_SEARCH_TEXT = `(coalesce(customer_name, '') || ' ' || coalesce(customer_phone, '') || ' ' || code || ' ' || id::text)`;

/** The day of an order as the owner's filters read it (America/Guatemala). */
const DAY_OF = (column: string) => `(${column} AT TIME ZONE 'America/Guatemala')::date`;

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
  // 2: order_counts; indexes for sorting by id and by status within a store, and for the search.
  // 3: search_key; one covering index per sort, so a page's ids come from the index alone.
  version: 3,
  sources: ['ordering'],
  tables: ['orders', 'order_history', 'order_counts'],

  async setup(tx, t) {
    const o = physicalName(t.orders);
    const h = physicalName(t.order_history);
    const c = physicalName(t.order_counts);
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
    `);
    // pg_trgm ships with PostgreSQL (contrib) and is a trusted extension, but a server without it
    // (or a role that may not create it) keeps a working search, only a slower one.
    await tx.query('SAVEPOINT order_search');
    try {
      await tx.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await tx.query(`CREATE INDEX IF NOT EXISTS ${o}_search ON ${t.orders} USING gin (search_key gin_trgm_ops)`);
      await tx.query('RELEASE SAVEPOINT order_search');
    } catch {
      await tx.query('ROLLBACK TO SAVEPOINT order_search');
    }
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.type === 'OrderPlaced') {
        const d = OrderPlaced.parse(event.data);
        const inserted = await tx.query(
          `INSERT INTO ${t.orders} (id, store_id, code, customer_name, customer_phone, customer_address, customer_email, customer_nit, subtotal, tax, total,
             status, order_type, payment_method, payment_status, notes, whatsapp_message, items, cash_received, change, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $21)
           ON CONFLICT (id) DO NOTHING`,
          [
            d.orderId, d.storeId, d.code, d.customerName, d.customerPhone, d.customerAddress, d.customerEmail, d.customerNit, d.subtotal, d.tax, d.total,
            d.status, d.orderType, d.paymentMethod, d.paymentStatus, d.notes, d.whatsappMessage, JSON.stringify(d.items), d.cashReceived, d.change, d.placedAt,
          ],
        );
        if (inserted.rowCount) {
          await tx.query(
            `INSERT INTO ${t.order_history} (id, order_id, store_id, status, previous_status, notes, created_by, created_at) VALUES ($1, $2, $3, $4, NULL, $5, $6, $7)
             ON CONFLICT (id) DO NOTHING`,
            [event.metadata.eventId, d.orderId, d.storeId, d.status, 'Pedido creado', d.placedBy, d.placedAt],
          );
          await tx.query(
            `INSERT INTO ${t.order_counts} (store_id, day, status, order_type, payment_status, n) VALUES ($1, ${DAY_OF('$2::timestamptz')}, $3, $4, $5, 1)
             ON CONFLICT (store_id, day, status, order_type, payment_status) DO UPDATE SET n = ${t.order_counts}.n + 1`,
            [d.storeId, d.placedAt, d.status, d.orderType, d.paymentStatus],
          );
        }
      } else if (event.type === 'OrderStatusChanged') {
        const d = OrderStatusChanged.parse(event.data);
        const inserted = await tx.query(
          `INSERT INTO ${t.order_history} (id, order_id, store_id, status, previous_status, notes, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
           ON CONFLICT (id) DO NOTHING`,
          [event.metadata.eventId, d.orderId, d.storeId, d.status, d.previousStatus, d.notes, d.changedBy, d.changedAt],
        );
        if (!inserted.rowCount) continue;
        // The row's status before the change (not the event's word for it): the counts move from what the list showed.
        const moved = await tx.query<{ old_status: string }>(
          `UPDATE ${t.orders} o SET status = $2, updated_at = $3 FROM (SELECT id, status FROM ${t.orders} WHERE id = $1 FOR UPDATE) old
           WHERE o.id = old.id RETURNING old.status AS old_status`,
          [d.orderId, d.status, d.changedAt],
        );
        if (moved.rows[0] && moved.rows[0].old_status !== d.status) {
          await tx.query(
            `WITH o AS (SELECT store_id, ${DAY_OF('created_at')} AS day, order_type, payment_status FROM ${t.orders} WHERE id = $1),
             less AS (UPDATE ${t.order_counts} c SET n = c.n - 1 FROM o
                      WHERE c.store_id = o.store_id AND c.day = o.day AND c.status = $2 AND c.order_type = o.order_type AND c.payment_status = o.payment_status)
             INSERT INTO ${t.order_counts} (store_id, day, status, order_type, payment_status, n) SELECT store_id, day, $3, order_type, payment_status, 1 FROM o
             ON CONFLICT (store_id, day, status, order_type, payment_status) DO UPDATE SET n = ${t.order_counts}.n + 1`,
            [d.orderId, moved.rows[0].old_status, d.status],
          );
        }
      }
    }
  },
};
