import { phoneKey } from '@tiendita/contracts';
import { physicalName, type Projection, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type OrderLimitsTable = 'store_order_limits' | 'pending_public_orders';

/** Where the checkout's limits step and the expiry read them. */
export const ORDER_LIMITS_TABLE = 'ordering.store_order_limits';
export const PENDING_PUBLIC_ORDERS_TABLE = 'ordering.pending_public_orders';

/**
 * What the public checkout's limits need (issue 26): each store's limits from identity's settings
 * events (units per line and per order, hours an unconfirmed order holds its stock, blocked phone
 * keys; null until the owner sets them), and the store's public orders still pending, by the
 * shopper's phone key, to cap how many one phone may have waiting.
 */
export const orderLimitsProjection: Projection<OrderLimitsTable> = {
  name: 'ordering_order_limits',
  // On the checkout's path: a batch per checkout cost a transaction and a checkpoint each at 100/s.
  // Its reader waits for it when it matters (PublicOrderLimits.pendingNow: a phone's repeat order).
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  version: 1,
  sources: ['identity', 'ordering'],
  tables: ['store_order_limits', 'pending_public_orders'],

  async setup(tx, t) {
    const p = physicalName(t.pending_public_orders);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.store_order_limits} (
        store_id uuid PRIMARY KEY,
        max_units_per_line integer,
        max_units_per_order integer,
        hold_hours integer,
        blocked_phones text[]
      );
      CREATE TABLE IF NOT EXISTS ${t.pending_public_orders} (
        order_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        phone_key varchar(20) NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${p}_phone ON ${t.pending_public_orders} (store_id, phone_key);
    `);
  },

  // Set-based: a batch's pending orders in one statement, then the ones that left pending in one
  // more (an order's status change comes after its placement, so inserting first is what one event at
  // a time gives); settings one event at a time (rare).
  async apply(tx, events, t) {
    const placed: { orderId: string; storeId: string; key: string }[] = [];
    const left: string[] = [];
    for (const event of events) {
      const data = (event.data ?? {}) as Record<string, unknown>;
      if (event.type === 'StoreSettingsUpdated') await applySettings(tx, data, t);
      else if (event.type === 'OrderPlaced') {
        const key = data.orderType === 'whatsapp' && data.status === 'pending' && typeof data.customerPhone === 'string' ? phoneKey(data.customerPhone) : null;
        if (key) placed.push({ orderId: String(data.orderId), storeId: String(data.storeId), key });
      } else if (event.type === 'OrderStatusChanged' && data.status !== 'pending') left.push(String(data.orderId));
    }
    if (placed.length) {
      await tx.query(
        `INSERT INTO ${t.pending_public_orders} (order_id, store_id, phone_key) SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[]) ON CONFLICT (order_id) DO NOTHING`,
        [placed.map((p) => p.orderId), placed.map((p) => p.storeId), placed.map((p) => p.key)],
      );
    }
    if (left.length) await tx.query(`DELETE FROM ${t.pending_public_orders} WHERE order_id = ANY($1::uuid[])`, [left]);
  },
};

const COLUMNS = { orderMaxUnitsPerLine: 'max_units_per_line', orderMaxUnitsPerOrder: 'max_units_per_order', orderHoldHours: 'hold_hours', blockedPhones: 'blocked_phones' } as const;

async function applySettings(tx: PoolClient, data: Record<string, unknown>, t: Record<OrderLimitsTable, string>): Promise<void> {
  const changes = (data.changes ?? {}) as Record<string, unknown>;
  const columns: string[] = [];
  const values: unknown[] = [data.storeId];
  for (const [field, column] of Object.entries(COLUMNS)) {
    const value = changes[field];
    const ok = field === 'blockedPhones' ? Array.isArray(value) && value.every((v) => typeof v === 'string') : Number.isInteger(value);
    if (!ok) continue;
    values.push(value);
    columns.push(column);
  }
  if (columns.length === 0 || typeof data.storeId !== 'string') return;
  await tx.query(
    `INSERT INTO ${t.store_order_limits} (store_id, ${columns.join(', ')}) VALUES ($1, ${columns.map((_, i) => `$${i + 2}`).join(', ')})
     ON CONFLICT (store_id) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
    values,
  );
}
