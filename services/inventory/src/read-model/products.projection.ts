import {
  CategoryCreated,
  LOW_STOCK_THRESHOLD,
  ProductCreated,
  ProductDeleted,
  ProductUpdated,
  StockAdjusted,
  StockItemOpened,
  StockMinimumSet,
  StockReservationReleased,
  StockReserved,
  StockSold,
} from '@tiendita/contracts';
import { physicalName, type Projection } from '@tiendita/eventsourcing';

export type ProductsTable = 'catalog_products' | 'catalog_categories';

/** The category as the inventory list sorts it: its name without case, and 'sin categoría' for none (what the screen shows). */
export const CATEGORY_SORT_KEY = "COALESCE(lower(category_name), 'sin categoría')";

/**
 * What inventory knows of catalog's products — name, SKU and category (the out-of-stock message,
 * the inventory list and the ledger show them) — with each product's stock beside them (on hand,
 * held, minimum, adjustments, from inventory's own events), so GET /api/inventory reads one row
 * per product: a filter and a sort by name, stock or category walk one index of one table and stop
 * at the page, instead of joining and sorting the whole catalogue on every call.
 *
 * catalog's and inventory's events come through separate subscriptions, so either may create the
 * row: `listed` says ProductCreated has arrived (only listed rows are shown), `opened` that the
 * stock item has (its opening stock is set once).
 */
export const productsProjection: Projection<ProductsTable> = {
  name: 'catalog_products',
  // 2: the stock columns (from inventory's events), the category's name, and the list's indexes.
  version: 3,
  sources: ['catalog', 'inventory'],
  tables: ['catalog_products', 'catalog_categories'],

  async setup(tx, t) {
    const p = physicalName(t.catalog_products);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.catalog_products} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        name text NOT NULL DEFAULT '',
        sku text,
        category_id uuid,
        category_name text,
        deleted boolean NOT NULL DEFAULT false,
        listed boolean NOT NULL DEFAULT false,
        opened boolean NOT NULL DEFAULT false,
        stock integer NOT NULL DEFAULT 0,
        reserved integer NOT NULL DEFAULT 0,
        minimum integer NOT NULL DEFAULT ${LOW_STOCK_THRESHOLD},
        adjustments_count integer NOT NULL DEFAULT 0,
        stock_updated_at timestamptz
      );
      -- The inventory list's three sorts, each with its tie-breakers, over the rows it shows. Each also
      -- holds every column a filter reads, so a page's ids come from the index alone (an index-only
      -- scan, in order, no sort of the whole catalogue) and only the page's rows are read from the table.
      CREATE INDEX IF NOT EXISTS ${p}_list_name ON ${t.catalog_products} (store_id, lower(name), product_id)
        INCLUDE (name, sku, category_id, stock, reserved, minimum) WHERE listed AND NOT deleted;
      CREATE INDEX IF NOT EXISTS ${p}_list_stock ON ${t.catalog_products} (store_id, stock, lower(name), product_id)
        INCLUDE (name, sku, category_id, reserved, minimum) WHERE listed AND NOT deleted;
      CREATE INDEX IF NOT EXISTS ${p}_list_category ON ${t.catalog_products} (store_id, (${CATEGORY_SORT_KEY}), lower(name), product_id)
        INCLUDE (name, category_name, sku, category_id, stock, reserved, minimum) WHERE listed AND NOT deleted;
      CREATE TABLE IF NOT EXISTS ${t.catalog_categories} (
        category_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        name text NOT NULL
      );
    `);
  },

  async apply(tx, events, t) {
    const categoryName = (param: string) => `(SELECT c.name FROM ${t.catalog_categories} c WHERE c.category_id = ${param})`;
    /** Moves a product's stock columns; the row is made first when inventory's event comes before catalog's. */
    const stock = async (productId: string, storeId: string, set: string, values: unknown[], at: string) => {
      const update = () => tx.query(`UPDATE ${t.catalog_products} SET ${set}, stock_updated_at = $2 WHERE product_id = $1`, [productId, at, ...values]);
      if ((await update()).rowCount) return;
      await tx.query(`INSERT INTO ${t.catalog_products} (product_id, store_id) VALUES ($1, $2) ON CONFLICT (product_id) DO NOTHING`, [productId, storeId]);
      await update();
    };
    for (const event of events) {
      const at = event.metadata.occurredAt;
      switch (event.type) {
        case 'ProductCreated': {
          const d = ProductCreated.parse(event.data);
          await tx.query(
            `INSERT INTO ${t.catalog_products} (product_id, store_id, name, sku, category_id, category_name, listed) VALUES ($1, $2, $3, $4, $5, ${categoryName('$5')}, true)
             ON CONFLICT (product_id) DO UPDATE SET name = EXCLUDED.name, sku = EXCLUDED.sku, category_id = EXCLUDED.category_id, category_name = EXCLUDED.category_name, listed = true
             WHERE NOT ${t.catalog_products}.listed`,
            [d.productId, d.storeId, d.name, d.sku, d.categoryId],
          );
          break;
        }
        case 'ProductUpdated': {
          const d = ProductUpdated.parse(event.data);
          const c = d.changes;
          await tx.query(
            `UPDATE ${t.catalog_products} SET name = COALESCE($2, name),
               sku = CASE WHEN $3 THEN $4 ELSE sku END,
               category_id = CASE WHEN $5 THEN $6::uuid ELSE category_id END,
               category_name = CASE WHEN $5 THEN ${categoryName('$6::uuid')} ELSE category_name END
             WHERE product_id = $1`,
            [d.productId, c.name ?? null, 'sku' in c, c.sku ?? null, 'categoryId' in c, c.categoryId ?? null],
          );
          break;
        }
        case 'ProductDeleted': {
          const d = ProductDeleted.parse(event.data);
          await tx.query(`UPDATE ${t.catalog_products} SET deleted = true WHERE product_id = $1`, [d.productId]);
          break;
        }
        case 'CategoryCreated': {
          const d = CategoryCreated.parse(event.data);
          await tx.query(`INSERT INTO ${t.catalog_categories} (category_id, store_id, name) VALUES ($1, $2, $3) ON CONFLICT (category_id) DO NOTHING`, [
            d.categoryId,
            d.storeId,
            d.name,
          ]);
          break;
        }
        case 'StockItemOpened': {
          const d = StockItemOpened.parse(event.data);
          await stock(d.productId, d.storeId, 'stock = CASE WHEN opened THEN stock ELSE $3 END, opened = true', [d.stock], at);
          break;
        }
        case 'StockAdjusted': {
          const d = StockAdjusted.parse(event.data);
          // By its difference (see stock.projection.ts): the same total in whatever order it meets a sale.
          await stock(d.productId, d.storeId, 'stock = stock + $3, adjustments_count = adjustments_count + 1', [d.adjustment], at);
          break;
        }
        case 'StockReserved': {
          const d = StockReserved.parse(event.data);
          await stock(d.productId, d.storeId, 'reserved = reserved + $3', [d.quantity], at);
          break;
        }
        case 'StockReservationReleased': {
          const d = StockReservationReleased.parse(event.data);
          await stock(d.productId, d.storeId, 'reserved = GREATEST(0, reserved - $3)', [d.quantity], at);
          break;
        }
        case 'StockSold': {
          const d = StockSold.parse(event.data);
          // By its quantity, not its onHand: it can come before an adjustment that already counted it.
          await stock(d.productId, d.storeId, 'reserved = GREATEST(0, reserved - $3), stock = stock - $3', [d.quantity], at);
          break;
        }
        case 'StockMinimumSet': {
          const d = StockMinimumSet.parse(event.data);
          await tx.query(`UPDATE ${t.catalog_products} SET minimum = $2 WHERE product_id = $1`, [d.productId, d.minimum]);
          break;
        }
        default:
          break;
      }
    }
  },
};
