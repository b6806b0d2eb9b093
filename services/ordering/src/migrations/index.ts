import type { Migration } from '@tiendita/service-kit';

/**
 * Tables of ordering that are not read models: the events table is created by the event store,
 * read models by their projections. Unqualified names land in schema 'ordering'.
 */
export const migrations: Migration[] = [
  {
    // Codes are claimed here (unique per store, one per order) before the order's event is written.
    // IF NOT EXISTS: before this migration the service created the table at start-up.
    id: '001_order_codes',
    sql: `
      CREATE TABLE IF NOT EXISTS order_codes (
        order_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        code varchar(12) NOT NULL,
        UNIQUE (store_id, code)
      );
    `,
  },
  {
    // Fixed-window counters of public orders per store and phone (issue 26): not a read model
    // (nothing to replay). IF NOT EXISTS: before this migration the service created it at start-up.
    id: '002_public_order_counters',
    sql: `
      CREATE TABLE IF NOT EXISTS public_order_counters (
        key text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        hits integer NOT NULL
      );
    `,
  },
];
