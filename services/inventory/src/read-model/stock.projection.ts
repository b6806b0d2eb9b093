import {
  OrderPlaced,
  StockAdjusted,
  StockItemOpened,
  StockMinimumSet,
  StockReservationReleased,
  StockReserved,
  StockSold,
  UserRegistered,
} from '@tiendita/contracts';
import { physicalName, type Projection } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type StockTable = 'stock_items' | 'adjustments' | 'movements' | 'order_codes' | 'owner_names';

/**
 * Inventory's read side: each product's units on hand and held, its minimum, the adjustments
 * (spec 001 §3) and the full stock ledger (every movement of a unit, with the on-hand after it),
 * plus order codes (ordering) and owner names (identity) for the ledger and adjustedBy.
 *
 * Each ledger line has its ordinal within its product (`product_seq`, 1, 2, 3… in the ledger's
 * order; `stock_items.movements` is the last one), so any page of a product's history is a range
 * of ordinals read from an index, as cheap on page 2,000 of 100,000 lines as on page 1, and its
 * total needs no count.
 */
export const stockProjection: Projection<StockTable> = {
  name: 'stock',
  // 3: movements.product_seq and stock_items.movements (a product's history pages by ordinal).
  version: 4,
  sources: ['inventory', 'ordering', 'identity'],
  tables: ['stock_items', 'adjustments', 'movements', 'order_codes', 'owner_names'],

  async setup(tx, t) {
    const a = physicalName(t.adjustments);
    const s = physicalName(t.stock_items);
    const m = physicalName(t.movements);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.stock_items} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        stock integer NOT NULL CHECK (stock >= 0),
        reserved integer NOT NULL DEFAULT 0,
        minimum integer NOT NULL DEFAULT 5,
        adjustments_count integer NOT NULL DEFAULT 0,
        -- Ledger lines of the product so far (the ordinal of its newest line).
        movements integer NOT NULL DEFAULT 0,
        opened_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${s}_store ON ${t.stock_items} (store_id, stock);
      CREATE TABLE IF NOT EXISTS ${t.adjustments} (
        id uuid PRIMARY KEY,
        product_id uuid NOT NULL,
        store_id uuid NOT NULL,
        adjustment_type varchar(20) NOT NULL,
        old_stock integer NOT NULL,
        new_stock integer NOT NULL,
        adjustment integer NOT NULL,
        reason text NOT NULL,
        adjusted_by varchar(255) NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${a}_product ON ${t.adjustments} (product_id, created_at DESC);
      CREATE INDEX IF NOT EXISTS ${a}_store ON ${t.adjustments} (store_id, created_at DESC);
      CREATE TABLE IF NOT EXISTS ${t.movements} (
        event_id uuid PRIMARY KEY,
        seq bigint NOT NULL,
        product_id uuid NOT NULL,
        product_seq integer NOT NULL,
        store_id uuid NOT NULL,
        kind varchar(12) NOT NULL,
        adjustment_type varchar(20),
        old_stock integer NOT NULL,
        new_stock integer NOT NULL,
        adjustment integer NOT NULL,
        quantity integer,
        reserved integer NOT NULL,
        reason text,
        adjusted_by varchar(255),
        order_id uuid,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS ${m}_product_seq ON ${t.movements} (product_id, product_seq DESC);
      CREATE INDEX IF NOT EXISTS ${m}_store ON ${t.movements} (store_id, seq DESC);
      CREATE TABLE IF NOT EXISTS ${t.order_codes} (order_id uuid PRIMARY KEY, code text NOT NULL);
      CREATE TABLE IF NOT EXISTS ${t.owner_names} (user_id uuid PRIMARY KEY, name text NOT NULL);
    `);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      const at = event.metadata.occurredAt;
      const seq = event.globalPosition;
      const move = (row: Movement) => movement(tx, t, event.metadata.eventId, seq, at, row);
      switch (event.type) {
        case 'StockItemOpened': {
          const d = StockItemOpened.parse(event.data);
          const r = await tx.query(
            `INSERT INTO ${t.stock_items} (product_id, store_id, stock, opened_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (product_id) DO NOTHING`,
            [d.productId, d.storeId, d.stock, at],
          );
          if (r.rowCount) await move({ productId: d.productId, storeId: d.storeId, kind: 'opening', oldStock: 0, newStock: d.stock, reserved: 0 });
          break;
        }
        case 'StockAdjusted': {
          const d = StockAdjusted.parse(event.data);
          const inserted = await tx.query(
            `INSERT INTO ${t.adjustments} (id, product_id, store_id, adjustment_type, old_stock, new_stock, adjustment, reason, adjusted_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
            [d.adjustmentId, d.productId, d.storeId, d.adjustmentType, d.oldStock, d.newStock, d.adjustment, d.reason, d.adjustedBy, at],
          );
          if (inserted.rowCount) {
            const r = await tx.query<{ reserved: number }>(
              // By its difference, not its new count: a sale whose transaction took its id first can
              // commit after an adjustment that already counted it, and then comes first in the
              // global order; differences add up the same in any order (issue 12's ledger property).
              `UPDATE ${t.stock_items} SET stock = stock + $2, adjustments_count = adjustments_count + 1, updated_at = $3 WHERE product_id = $1 RETURNING reserved`,
              [d.productId, d.adjustment, at],
            );
            await move({
              productId: d.productId,
              storeId: d.storeId,
              kind: 'adjustment',
              adjustmentType: d.adjustmentType,
              oldStock: d.oldStock,
              newStock: d.newStock,
              reserved: r.rows[0]?.reserved ?? 0,
              reason: d.reason,
              adjustedBy: d.adjustedBy,
            });
          }
          break;
        }
        case 'StockReserved':
        case 'StockReservationReleased':
        case 'StockSold': {
          const d =
            event.type === 'StockReserved'
              ? StockReserved.parse(event.data)
              : event.type === 'StockSold'
                ? StockSold.parse(event.data)
                : StockReservationReleased.parse(event.data);
          const held = event.type === 'StockReserved' ? d.quantity : -d.quantity;
          const shelf = event.type === 'StockSold' ? -d.quantity : 0;
          const r = await tx.query<{ stock: number; reserved: number }>(
            `UPDATE ${t.stock_items} SET stock = stock + $2, reserved = reserved + $3, updated_at = $4 WHERE product_id = $1 RETURNING stock, reserved`,
            [d.productId, shelf, held, at],
          );
          const after = r.rows[0] ?? { stock: 0, reserved: 0 };
          const kind = event.type === 'StockReserved' ? 'reserved' : event.type === 'StockSold' ? 'sold' : 'released';
          const reason = event.type === 'StockReservationReleased' ? (d as StockReservationReleased).reason : null;
          await move({
            productId: d.productId,
            storeId: d.storeId,
            kind,
            oldStock: after.stock - shelf,
            newStock: after.stock,
            quantity: d.quantity,
            reserved: after.reserved,
            reason: reason === 'cancelled' ? 'Pedido cancelado' : reason === 'expired' ? 'Reserva vencida' : null,
            orderId: d.orderId,
          });
          break;
        }
        case 'StockMinimumSet': {
          const d = StockMinimumSet.parse(event.data);
          await tx.query(`UPDATE ${t.stock_items} SET minimum = $2 WHERE product_id = $1`, [d.productId, d.minimum]);
          break;
        }
        case 'OrderPlaced': {
          const d = OrderPlaced.parse(event.data);
          await tx.query(`INSERT INTO ${t.order_codes} (order_id, code) VALUES ($1, $2) ON CONFLICT (order_id) DO NOTHING`, [d.orderId, d.code]);
          break;
        }
        case 'UserRegistered': {
          const d = UserRegistered.pick({ userId: true, firstName: true, lastName: true }).parse(event.data);
          await tx.query(`INSERT INTO ${t.owner_names} (user_id, name) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name`, [
            d.userId,
            `${d.firstName} ${d.lastName}`.trim(),
          ]);
          break;
        }
        default:
          break;
      }
    }
  },
};

interface Movement {
  productId: string;
  storeId: string;
  kind: string;
  adjustmentType?: string;
  oldStock: number;
  newStock: number;
  quantity?: number;
  reserved: number;
  reason?: string | null;
  adjustedBy?: string;
  orderId?: string;
}

/** One ledger line, numbered after the product's last one; the product's count moves only when the line is new. */
async function movement(tx: PoolClient, t: Record<StockTable, string>, eventId: string, seq: number, at: string, m: Movement): Promise<void> {
  await tx.query(
    `WITH line AS (
       INSERT INTO ${t.movements} (event_id, seq, product_id, product_seq, store_id, kind, adjustment_type, old_stock, new_stock, adjustment, quantity, reserved, reason, adjusted_by, order_id, created_at)
       VALUES ($1, $2, $3, COALESCE((SELECT movements FROM ${t.stock_items} WHERE product_id = $3), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (event_id) DO NOTHING
       RETURNING product_id
     )
     UPDATE ${t.stock_items} SET movements = movements + 1 WHERE product_id IN (SELECT product_id FROM line)`,
    [eventId, seq, m.productId, m.storeId, m.kind, m.adjustmentType ?? null, m.oldStock, m.newStock, m.newStock - m.oldStock, m.quantity ?? null, m.reserved, m.reason ?? null, m.adjustedBy ?? null, m.orderId ?? null, at],
  );
}
