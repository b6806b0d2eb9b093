import { CatalogEventSchemas } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type StoreProductsTable = 'store_products';

/** Where GET /api/store and the public store view count their products. */
export const STORE_PRODUCTS_TABLE = 'identity.store_products';

/**
 * The products of each store, as far as the store's totals need them: which exist and which are
 * active. Read from catalog's events (identity owns the store view; catalog owns products), so
 * GET /api/store answers totalProducts without a call to catalog. One row per product makes every
 * event idempotent, which counters would not be.
 */
export const storeProductsProjection: Projection<StoreProductsTable> = {
  name: 'store_products',
  version: 1,
  sources: ['catalog'],
  tables: ['store_products'],

  async setup(tx: PoolClient, t: Record<StoreProductsTable, string>): Promise<void> {
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.store_products} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        is_active boolean NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${physicalName(t.store_products)}_store ON ${t.store_products} (store_id, is_active);
    `);
  },

  async apply(tx: PoolClient, events: RecordedEventWithTx[], t: Record<StoreProductsTable, string>): Promise<void> {
    for (const event of events) {
      switch (event.type) {
        case 'ProductCreated': {
          const d = CatalogEventSchemas.ProductCreated.parse(event.data);
          await tx.query(`INSERT INTO ${t.store_products} (product_id, store_id, is_active) VALUES ($1, $2, $3) ON CONFLICT (product_id) DO NOTHING`, [
            d.productId,
            d.storeId,
            d.isActive,
          ]);
          break;
        }
        case 'ProductActivated':
        case 'ProductDeactivated': {
          const d = CatalogEventSchemas.ProductActivated.parse(event.data);
          await tx.query(`UPDATE ${t.store_products} SET is_active = $2 WHERE product_id = $1`, [d.productId, event.type === 'ProductActivated']);
          break;
        }
        case 'ProductDeleted': {
          const d = CatalogEventSchemas.ProductDeleted.parse(event.data);
          await tx.query(`DELETE FROM ${t.store_products} WHERE product_id = $1`, [d.productId]);
          break;
        }
        default:
          // Edits, categories, prices, reviews: nothing a store's totals show.
          break;
      }
    }
  },
};

/** Products of a store, and how many of them are active (shown in the shop). */
export async function storeProductTotals(db: { query: PoolClient['query'] }, storeId: string): Promise<{ total: number; active: number }> {
  const r = await db.query<{ total: number; active: number }>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_active))::int AS active FROM ${STORE_PRODUCTS_TABLE} WHERE store_id = $1`,
    [storeId],
  );
  return r.rows[0] ?? { total: 0, active: 0 };
}
