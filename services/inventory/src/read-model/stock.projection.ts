import { StockAdjusted, StockItemOpened } from '@tiendita/contracts';
import { physicalName, type Projection } from '@tiendita/eventsourcing';

export type StockTable = 'stock_items' | 'adjustments';

/**
 * Inventory's read side: each product's current stock and the history of adjustments
 * (spec 001 §3, indexed by product, store and creation time). The inventory screens read these.
 */
export const stockProjection: Projection<StockTable> = {
  name: 'stock',
  version: 1,
  sources: ['inventory'],
  tables: ['stock_items', 'adjustments'],

  async setup(tx, t) {
    const a = physicalName(t.adjustments);
    const s = physicalName(t.stock_items);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.stock_items} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        stock integer NOT NULL CHECK (stock >= 0),
        adjustments_count integer NOT NULL DEFAULT 0,
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
    `);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      const at = event.metadata.occurredAt;
      if (event.type === 'StockItemOpened') {
        const d = StockItemOpened.parse(event.data);
        await tx.query(
          `INSERT INTO ${t.stock_items} (product_id, store_id, stock, opened_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (product_id) DO NOTHING`,
          [d.productId, d.storeId, d.stock, at],
        );
      } else if (event.type === 'StockAdjusted') {
        const d = StockAdjusted.parse(event.data);
        const inserted = await tx.query(
          `INSERT INTO ${t.adjustments} (id, product_id, store_id, adjustment_type, old_stock, new_stock, adjustment, reason, adjusted_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
          [d.adjustmentId, d.productId, d.storeId, d.adjustmentType, d.oldStock, d.newStock, d.adjustment, d.reason, d.adjustedBy, at],
        );
        if (inserted.rowCount) {
          await tx.query(`UPDATE ${t.stock_items} SET stock = $2, adjustments_count = adjustments_count + 1, updated_at = $3 WHERE product_id = $1`, [d.productId, d.newStock, at]);
        }
      }
    }
  },
};
