import { LOW_STOCK_THRESHOLD } from '@tiendita/contracts';
import { physicalName, qualifiedIndexName } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type CatalogTable = 'products' | 'categories' | 'stock_levels' | 'price_history' | 'reviews' | 'product_counts';

/** The qualified name of each table of the projection (live or shadow, as the runner decides). */
export type CatalogTables = Record<CatalogTable, string>;

export const CATALOG_TABLES: CatalogTable[] = ['products', 'categories', 'stock_levels', 'price_history', 'reviews', 'product_counts'];

/** The category key of uncategorised products in product_counts. */
export const NO_CATEGORY = '00000000-0000-0000-0000-000000000000';

/** Creates the projection's tables and indexes (idempotent). */
export async function createCatalogTables(tx: PoolClient, t: CatalogTables): Promise<void> {
  const p = physicalName(t.products);
  const c = physicalName(t.categories);
  const ph = physicalName(t.price_history);
  const r = physicalName(t.reviews);
  await tx.query(`
    CREATE TABLE IF NOT EXISTS ${t.products} (
      id uuid PRIMARY KEY,
      store_id uuid NOT NULL,
      name varchar(255) NOT NULL,
      description text,
      sku varchar(100),
      price_centavos bigint NOT NULL,
      discount_percentage numeric(5,2) NOT NULL DEFAULT 0,
      final_price_centavos bigint NOT NULL,
      stock integer NOT NULL DEFAULT 0,
      -- Low stock at or below this many available units (inventory's StockMinimumSet; default LOW_STOCK_THRESHOLD).
      stock_minimum integer NOT NULL DEFAULT ${LOW_STOCK_THRESHOLD},
      category_id uuid,
      category_name varchar(100),
      images text[] NOT NULL DEFAULT '{}',
      is_active boolean NOT NULL DEFAULT true,
      rating_sum integer NOT NULL DEFAULT 0,
      rating_count integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      -- The shop's JSON of the product (contracts PublicProductView), kept ready for the public list.
      public_json text
    );
    CREATE INDEX IF NOT EXISTS ${p}_store_created ON ${t.products} (store_id, created_at DESC, id DESC);
    CREATE INDEX IF NOT EXISTS ${p}_store_name ON ${t.products} (store_id, name, id);
    CREATE INDEX IF NOT EXISTS ${p}_store_price ON ${t.products} (store_id, price_centavos, id);
    -- No index holds stock: a checkout moves the stock of each product it sells, and a row whose
    -- indexed columns stay put is updated in place (a HOT update: no new entry in any of the nine
    -- indexes), in the free fifth of its page. A list sorted by stock sorts the store's rows, which
    -- it counts anyway.
    DROP INDEX IF EXISTS ${qualifiedIndexName(t.products, 'store_stock')};
    ALTER TABLE ${t.products} SET (fillfactor = 80);
    CREATE INDEX IF NOT EXISTS ${p}_store_category ON ${t.products} (store_id, category_id, created_at DESC, id DESC);
    -- The import matches rows by SKU, else by name, without case.
    CREATE INDEX IF NOT EXISTS ${p}_store_sku_folded ON ${t.products} (store_id, lower(sku)) WHERE sku IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${p}_store_name_folded ON ${t.products} (store_id, lower(name));
    CREATE INDEX IF NOT EXISTS ${p}_public ON ${t.products} (store_id, created_at DESC, id DESC) WHERE is_active;
    CREATE INDEX IF NOT EXISTS ${p}_public_category ON ${t.products} (store_id, category_id, created_at DESC, id DESC) WHERE is_active;

    CREATE TABLE IF NOT EXISTS ${t.categories} (
      id uuid PRIMARY KEY,
      store_id uuid NOT NULL,
      name varchar(100) NOT NULL,
      description text,
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${c}_store_name ON ${t.categories} (store_id, name, id);

    CREATE TABLE IF NOT EXISTS ${t.stock_levels} (
      product_id uuid PRIMARY KEY,
      store_id uuid NOT NULL,
      stock integer NOT NULL,
      minimum integer NOT NULL DEFAULT ${LOW_STOCK_THRESHOLD}
    );
    ALTER TABLE ${t.stock_levels} SET (fillfactor = 80);

    CREATE TABLE IF NOT EXISTS ${t.price_history} (
      id uuid PRIMARY KEY,
      product_id uuid NOT NULL,
      store_id uuid NOT NULL,
      old_price_centavos bigint,
      new_price_centavos bigint NOT NULL,
      old_discount_percentage numeric(5,2),
      new_discount_percentage numeric(5,2) NOT NULL,
      change_reason varchar(255),
      changed_by varchar(255) NOT NULL DEFAULT 'system',
      created_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${ph}_product ON ${t.price_history} (product_id, created_at DESC, id);

    CREATE TABLE IF NOT EXISTS ${t.reviews} (
      id uuid PRIMARY KEY,
      kind varchar(10) NOT NULL CHECK (kind IN ('rating', 'comment')),
      product_id uuid NOT NULL,
      store_id uuid NOT NULL,
      rating smallint,
      comment text,
      customer_name varchar(255) NOT NULL,
      customer_email varchar(255),
      parent_comment_id uuid,
      status varchar(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
      is_public boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL
    );
    CREATE INDEX IF NOT EXISTS ${r}_product_public ON ${t.reviews} (product_id, kind, created_at DESC) WHERE status = 'approved' AND is_public;
    CREATE INDEX IF NOT EXISTS ${r}_store_status ON ${t.reviews} (store_id, status, created_at DESC);

    CREATE TABLE IF NOT EXISTS ${t.product_counts} (
      store_id uuid NOT NULL,
      category_id uuid NOT NULL,
      active integer NOT NULL,
      PRIMARY KEY (store_id, category_id)
    );
  `);
}
