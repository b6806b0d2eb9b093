import { CategoryCreated, LOW_STOCK_THRESHOLD, ProductActivated, ProductCreated, StockAdjusted, StockItemOpened, StockMinimumSet, StockReservationReleased, StockReserved, StockSold } from '@tiendita/contracts';
import { physicalName, type Projection, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import { StoreVersions, storeVersionsDdl } from './store-versions';

export type ProductsTable = 'products' | 'categories' | 'catalog_versions';
export type StockTable = 'stock' | 'stock_versions';

/** Catalog's products and categories as reporting counts them (total, active, active categories). */
export const productsProjection: Projection<ProductsTable> = {
  name: 'products',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 2: catalog_versions, the reports cache's key
  version: 2,
  sources: ['catalog'],
  tables: ['products', 'categories', 'catalog_versions'],

  async setup(tx, t) {
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.products} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        name text NOT NULL,
        is_active boolean NOT NULL,
        deleted boolean NOT NULL DEFAULT false
      );
      CREATE INDEX IF NOT EXISTS ${physicalName(t.products)}_store ON ${t.products} (store_id) WHERE NOT deleted;
      CREATE TABLE IF NOT EXISTS ${t.categories} (
        category_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        name text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${physicalName(t.categories)}_store ON ${t.categories} (store_id);
      ${storeVersionsDdl(t.catalog_versions)};
    `);
  },

  async apply(tx, events, t) {
    const versions = new StoreVersions();
    for (const event of events) {
      // Each statement answers the store whose rows it changed (none: nothing changed).
      let changed: { rows: { store_id: string }[] } | null = null;
      switch (event.type) {
        case 'ProductCreated': {
          const d = ProductCreated.parse(event.data);
          changed = await tx.query(`INSERT INTO ${t.products} (product_id, store_id, name, is_active) VALUES ($1, $2, $3, $4) ON CONFLICT (product_id) DO NOTHING RETURNING store_id`, [
            d.productId,
            d.storeId,
            d.name,
            d.isActive,
          ]);
          break;
        }
        case 'ProductUpdated': {
          const d = event.data as { productId: string; changes?: { name?: string } };
          if (d.changes?.name) changed = await tx.query(`UPDATE ${t.products} SET name = $2 WHERE product_id = $1 RETURNING store_id`, [d.productId, d.changes.name]);
          break;
        }
        case 'ProductActivated':
        case 'ProductDeactivated': {
          const d = ProductActivated.parse(event.data);
          changed = await tx.query(`UPDATE ${t.products} SET is_active = $2 WHERE product_id = $1 RETURNING store_id`, [d.productId, event.type === 'ProductActivated']);
          break;
        }
        case 'ProductDeleted': {
          const d = ProductActivated.parse(event.data);
          changed = await tx.query(`UPDATE ${t.products} SET deleted = true WHERE product_id = $1 RETURNING store_id`, [d.productId]);
          break;
        }
        case 'CategoryCreated': {
          const d = CategoryCreated.parse(event.data);
          changed = await tx.query(`INSERT INTO ${t.categories} (category_id, store_id, name) VALUES ($1, $2, $3) ON CONFLICT (category_id) DO NOTHING RETURNING store_id`, [
            d.categoryId,
            d.storeId,
            d.name,
          ]);
          break;
        }
        case 'CategoryDeleted': {
          const d = event.data as { categoryId?: string };
          if (d.categoryId) changed = await tx.query(`DELETE FROM ${t.categories} WHERE category_id = $1 RETURNING store_id`, [d.categoryId]);
          break;
        }
        default:
          break;
      }
      for (const r of changed?.rows ?? []) versions.touch(r.store_id, event);
    }
    await versions.save(tx, t.catalog_versions);
  },
};

/**
 * Inventory's stock as reporting needs it: on hand, reserved and the owner's minimum per product,
 * so the low-stock count reads the available stock (on hand − reserved) against each product's own
 * minimum (StockMinimumSet; LOW_STOCK_THRESHOLD unless the owner set another), as inventory does.
 */
export const stockProjection: Projection<StockTable> = {
  name: 'stock',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 2: the minimum column (StockMinimumSet); 3: with stock_versions, the reports cache's key.
  version: 4,
  sources: ['inventory'],
  tables: ['stock', 'stock_versions'],

  async setup(tx, t) {
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.stock} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        on_hand integer NOT NULL,
        reserved integer NOT NULL DEFAULT 0,
        minimum integer NOT NULL DEFAULT ${LOW_STOCK_THRESHOLD}
      );
      CREATE INDEX IF NOT EXISTS ${physicalName(t.stock)}_store ON ${t.stock} (store_id);
      ${storeVersionsDdl(t.stock_versions)};
    `);
  },

  async apply(tx, events, t) {
    const versions = new StoreVersions();
    for (const event of events) {
      let changed: { rows: { store_id: string }[] } | null = null;
      switch (event.type) {
        case 'StockItemOpened': {
          const d = StockItemOpened.parse(event.data);
          changed = await tx.query(`INSERT INTO ${t.stock} (product_id, store_id, on_hand) VALUES ($1, $2, $3) ON CONFLICT (product_id) DO NOTHING RETURNING store_id`, [
            d.productId,
            d.storeId,
            d.stock,
          ]);
          break;
        }
        case 'StockAdjusted': {
          const d = StockAdjusted.parse(event.data);
          changed = await tx.query(
            // By its difference (a sale can come before an adjustment that already counted it).
            `INSERT INTO ${t.stock} (product_id, store_id, on_hand) VALUES ($1, $2, $3) ON CONFLICT (product_id) DO UPDATE SET on_hand = ${t.stock}.on_hand + $4 RETURNING store_id`,
            [d.productId, d.storeId, d.newStock, d.adjustment],
          );
          break;
        }
        case 'StockReserved': {
          const d = StockReserved.parse(event.data);
          changed = await tx.query(`UPDATE ${t.stock} SET reserved = reserved + $2 WHERE product_id = $1 RETURNING store_id`, [d.productId, d.quantity]);
          break;
        }
        case 'StockReservationReleased': {
          const d = StockReservationReleased.parse(event.data);
          changed = await tx.query(`UPDATE ${t.stock} SET reserved = GREATEST(0, reserved - $2) WHERE product_id = $1 RETURNING store_id`, [d.productId, d.quantity]);
          break;
        }
        case 'StockSold': {
          // The sold units leave the reservation that held them, and the shelf.
          const d = StockSold.parse(event.data);
          // By its quantity, not its onHand: it can come before an adjustment that already counted it.
          changed = await tx.query(`UPDATE ${t.stock} SET reserved = GREATEST(0, reserved - $2), on_hand = on_hand - $2 WHERE product_id = $1 RETURNING store_id`, [
            d.productId,
            d.quantity,
          ]);
          break;
        }
        case 'StockMinimumSet': {
          const d = StockMinimumSet.parse(event.data);
          changed = await tx.query(`UPDATE ${t.stock} SET minimum = $2 WHERE product_id = $1 RETURNING store_id`, [d.productId, d.minimum]);
          break;
        }
        default:
          break;
      }
      for (const r of changed?.rows ?? []) versions.touch(r.store_id, event);
    }
    await versions.save(tx, t.stock_versions);
  },
};
