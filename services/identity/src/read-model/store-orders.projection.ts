import { OrderingEventSchemas } from '@tiendita/contracts';
import { type Projection, type RecordedEventWithTx, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type StoreOrdersTable = 'store_orders';

/** Where GET /api/store counts its orders. */
export const STORE_ORDERS_TABLE = 'identity.store_orders';

/**
 * How many orders each store has received (spec 001 §3, the store's `totalOrders` stat): every
 * OrderPlaced of ordering's events, WhatsApp orders and POS sales alike, cancelled ones included
 * (an order placed is an order received). One counter per store: an order's stream has one
 * OrderPlaced (a repeat of its Idempotency-Key appends nothing), and the runner applies each event
 * exactly once by position, so the counter never counts an order twice, and a rebuild from
 * position 0 gives the same figure. A batch moves each store's counter in one statement.
 */
/** The one field of OrderPlaced the counter reads, checked by the contract's own schema. */
const placedStore = OrderingEventSchemas.OrderPlaced.pick({ storeId: true });

export const storeOrdersProjection: Projection<StoreOrdersTable> = {
  name: 'store_orders',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  version: 1,
  sources: ['ordering'],
  tables: ['store_orders'],

  async setup(tx: PoolClient, t: Record<StoreOrdersTable, string>): Promise<void> {
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.store_orders} (
        store_id uuid PRIMARY KEY,
        orders integer NOT NULL DEFAULT 0
      );
    `);
  },

  async apply(tx: PoolClient, events: RecordedEventWithTx[], t: Record<StoreOrdersTable, string>): Promise<void> {
    const placed = new Map<string, number>();
    for (const event of events) {
      if (event.type !== 'OrderPlaced') continue; // status changes do not change how many orders there are
      const { storeId } = placedStore.parse(event.data);
      placed.set(storeId, (placed.get(storeId) ?? 0) + 1);
    }
    if (placed.size === 0) return;
    await tx.query(
      `INSERT INTO ${t.store_orders} (store_id, orders)
       SELECT * FROM unnest($1::uuid[], $2::int[])
       ON CONFLICT (store_id) DO UPDATE SET orders = ${t.store_orders}.orders + EXCLUDED.orders`,
      [[...placed.keys()], [...placed.values()]],
    );
  },
};

/** Orders a store has received (0 before its first). */
export async function storeOrderTotal(db: { query: PoolClient['query'] }, storeId: string): Promise<number> {
  const r = await db.query<{ orders: number }>(`SELECT orders FROM ${STORE_ORDERS_TABLE} WHERE store_id = $1`, [storeId]);
  return r.rows[0]?.orders ?? 0;
}
