import { phoneKey } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
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

  async apply(tx, events, t) {
    for (const event of events) await applyOne(tx, event, t);
  },
};

const COLUMNS = { orderMaxUnitsPerLine: 'max_units_per_line', orderMaxUnitsPerOrder: 'max_units_per_order', orderHoldHours: 'hold_hours', blockedPhones: 'blocked_phones' } as const;

async function applyOne(tx: PoolClient, event: RecordedEventWithTx, t: Record<OrderLimitsTable, string>): Promise<void> {
  const data = (event.data ?? {}) as Record<string, unknown>;
  if (event.type === 'StoreSettingsUpdated') {
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
  } else if (event.type === 'OrderPlaced') {
    const key = data.orderType === 'whatsapp' && data.status === 'pending' && typeof data.customerPhone === 'string' ? phoneKey(data.customerPhone) : null;
    if (!key) return;
    await tx.query(`INSERT INTO ${t.pending_public_orders} (order_id, store_id, phone_key) VALUES ($1, $2, $3) ON CONFLICT (order_id) DO NOTHING`, [data.orderId, data.storeId, key]);
  } else if (event.type === 'OrderStatusChanged' && data.status !== 'pending') {
    await tx.query(`DELETE FROM ${t.pending_public_orders} WHERE order_id = $1`, [data.orderId]);
  }
}
