import {
  CategoryCreated,
  foldSearchSql,
  LOW_STOCK_THRESHOLD,
  stockLevelSql,
  ProductCreated,
  ProductDeleted,
  ProductUpdated,
  StockItemOpened,
  StockMinimumSet,
} from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { applyStockMoves, STOCK_MOVES } from './products-stock-moves';

export type ProductsTable = 'catalog_products' | 'catalog_categories' | 'catalog_product_counts';

/** The key of "no category" in catalog_product_counts (a primary key column cannot be null). */
export const NO_CATEGORY_KEY = '00000000-0000-0000-0000-000000000000';

/**
 * A listed product's stock level as catalog_product_counts counts it, from the columns of a
 * catalog_products row: 0 out of stock (available ≤ 0), 1 low (0 < available ≤ minimum), 2 the rest;
 * the inventory list's outOfStock and lowStock filters are levels 0 and 1.
 */
export const COUNT_LEVEL_SQL = stockLevelSql('stock - reserved', 'minimum');

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
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 2: the stock columns (from inventory's events), the category's name, and the list's indexes.
  // 4: catalog_product_counts, so the list's total is a sum of a few rows instead of a count of the catalogue.
  // 5: the search key in each sort's index (a search's matches are counted in an index-only walk), and
  // an index per category by name.
  // 6: search_key without accents ('cafe' finds 'Café').
  version: 6,
  sources: ['catalog', 'inventory'],
  tables: ['catalog_products', 'catalog_categories', 'catalog_product_counts'],

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
        stock_updated_at timestamptz,
        -- What the list's search matches (name or SKU, without case or accents: foldSearchSql), stored
        -- so a search does not fold the catalogue on every call.
        search_key text GENERATED ALWAYS AS (${foldSearchSql('name')} || E'\n' || ${foldSearchSql("COALESCE(sku, '')")}) STORED
      );
      -- The inventory list's three sorts, each with its tie-breakers, over the rows it shows. Each also
      -- holds every column a filter reads, the search key included, so a page's ids (and a search's
      -- matches and their number) come from the index alone (an index-only scan, in order, no sort of
      -- the whole catalogue) and only the page's rows are read from the table.
      CREATE INDEX IF NOT EXISTS ${p}_list_name ON ${t.catalog_products} (store_id, lower(name), product_id)
        INCLUDE (name, search_key, category_id, stock, reserved, minimum) WHERE listed AND NOT deleted;
      CREATE INDEX IF NOT EXISTS ${p}_list_stock ON ${t.catalog_products} (store_id, stock, lower(name), product_id)
        INCLUDE (name, search_key, category_id, reserved, minimum) WHERE listed AND NOT deleted;
      CREATE INDEX IF NOT EXISTS ${p}_list_category ON ${t.catalog_products} (store_id, (${CATEGORY_SORT_KEY}), lower(name), product_id)
        INCLUDE (name, category_name, search_key, category_id, stock, reserved, minimum) WHERE listed AND NOT deleted;
      -- One category's products by name: a list filtered by category walks that category's entries
      -- only (a search in it, or a far page by name, reads 1,000 entries of a 10,000-product store,
      -- not all of them); sorted by category, one category's products are in name order.
      CREATE INDEX IF NOT EXISTS ${p}_list_category_id ON ${t.catalog_products} (store_id, category_id, lower(name), product_id)
        INCLUDE (name, category_name, search_key, stock, reserved, minimum) WHERE listed AND NOT deleted;
      CREATE TABLE IF NOT EXISTS ${t.catalog_categories} (
        category_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        name text NOT NULL
      );
      -- How many listed products each store has per category and stock level (COUNT_LEVEL_SQL): the
      -- inventory list's total for any filter but a search, without counting the catalogue.
      CREATE TABLE IF NOT EXISTS ${t.catalog_product_counts} (
        store_id uuid NOT NULL,
        category_key uuid NOT NULL,
        level smallint NOT NULL,
        n integer NOT NULL,
        PRIMARY KEY (store_id, category_key, level)
      );
    `);
  },

  async apply(tx, events, t) {
    // The counts follow the rows: each touched product's (store, category, level) before the batch
    // and after it, and the difference added to catalog_product_counts in one statement.
    const touched = [...new Set(events.map((event) => (event.data as { productId?: unknown }).productId).filter((id): id is string => typeof id === 'string'))];
    const counted = async () =>
      touched.length === 0
        ? []
        : (
            await tx.query<{ store_id: string; category_key: string; level: number }>(
              `SELECT store_id, COALESCE(category_id, '${NO_CATEGORY_KEY}') AS category_key, ${COUNT_LEVEL_SQL} AS level
               FROM ${t.catalog_products} WHERE product_id = ANY($1::uuid[]) AND listed AND NOT deleted`,
              [touched],
            )
          ).rows;
    const before = await counted();
    await applyEvents(tx, events, t);
    const delta = new Map<string, number>();
    const key = (r: { store_id: string; category_key: string; level: number }) => `${r.store_id}|${r.category_key}|${r.level}`;
    for (const r of before) delta.set(key(r), (delta.get(key(r)) ?? 0) - 1);
    for (const r of await counted()) delta.set(key(r), (delta.get(key(r)) ?? 0) + 1);
    const moved = [...delta].filter(([, n]) => n !== 0).map(([k, n]) => [...k.split('|'), n] as const);
    if (moved.length === 0) return;
    await tx.query(
      `INSERT INTO ${t.catalog_product_counts} AS c (store_id, category_key, level, n)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::smallint[], $4::int[])
       ON CONFLICT (store_id, category_key, level) DO UPDATE SET n = c.n + EXCLUDED.n`,
      [moved.map((m) => m[0]), moved.map((m) => m[1]), moved.map((m) => Number(m[2])), moved.map((m) => m[3])],
    );
    // An emptied key goes, so the table is the same whatever batches the events came in (a rebuild
    // applies them in larger batches than the live run did, and is compared with it).
    await tx.query(`DELETE FROM ${t.catalog_product_counts} WHERE n = 0 AND store_id = ANY($1::uuid[])`, [[...new Set(moved.map((m) => m[0]))]]);
  },
};

/** The batch's events on catalog_products and catalog_categories, one statement each (runs of stock moves together). */
async function applyEvents(tx: PoolClient, events: RecordedEventWithTx[], t: Record<ProductsTable, string>): Promise<void> {
  {
    const categoryName = (param: string) => `(SELECT c.name FROM ${t.catalog_categories} c WHERE c.category_id = ${param})`;
    /** Moves a product's stock columns; the row is made first when inventory's event comes before catalog's. */
    const stock = async (productId: string, storeId: string, set: string, values: unknown[], at: string) => {
      const update = () => tx.query(`UPDATE ${t.catalog_products} SET ${set}, stock_updated_at = $2 WHERE product_id = $1`, [productId, at, ...values]);
      if ((await update()).rowCount) return;
      await tx.query(`INSERT INTO ${t.catalog_products} (product_id, store_id) VALUES ($1, $2) ON CONFLICT (product_id) DO NOTHING`, [productId, storeId]);
      await update();
    };
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const at = event.metadata.occurredAt;
      if (STOCK_MOVES.has(event.type)) {
        // A run of holds, releases, sales and adjustments (a checkout brings one per line) in one
        // statement, or two when a product's row is not there yet.
        let j = i;
        while (j < events.length && STOCK_MOVES.has(events[j].type)) j++;
        await applyStockMoves(tx, events.slice(i, j), t);
        i = j - 1;
        continue;
      }
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
        case 'StockMinimumSet': {
          const d = StockMinimumSet.parse(event.data);
          await tx.query(`UPDATE ${t.catalog_products} SET minimum = $2 WHERE product_id = $1`, [d.productId, d.minimum]);
          break;
        }
        default:
          break;
      }
    }
  }
}
