import {
  CatalogEventSchemas,
  type CatalogEventType,
  finalPriceCentavos,
  InventoryStockEventSchemas,
  type InventoryStockEventType,
} from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { productJsonSql } from '../shared/sql';

export type CatalogTable = 'products' | 'categories' | 'stock_levels' | 'price_history' | 'reviews' | 'product_counts';

/** The category key of uncategorised products in product_counts. */
export const NO_CATEGORY = '00000000-0000-0000-0000-000000000000';

/**
 * The read side of the catalog: product list (with stock from inventory's events and the
 * approved-rating totals), categories, price history and reviews. Rows depend only on the
 * events (timestamps from occurredAt, ids from event ids), so a rebuild yields identical rows.
 * product_counts keeps the number of active products per store and category, so the shop's
 * list answers its total without counting thousands of rows on every request.
 */
export const catalogProjection: Projection<CatalogTable> = {
  name: 'catalog_views',
  version: 4,
  sources: ['catalog', 'inventory'],
  tables: ['products', 'categories', 'stock_levels', 'price_history', 'reviews', 'product_counts'],

  async setup(tx, t) {
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
      CREATE INDEX IF NOT EXISTS ${p}_store_stock ON ${t.products} (store_id, stock, id);
      CREATE INDEX IF NOT EXISTS ${p}_store_category ON ${t.products} (store_id, category_id, created_at DESC, id DESC);
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
        stock integer NOT NULL
      );

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
  },

  async apply(tx, events, t) {
    const touched = new Set<string>();
    // Runs of ProductCreated (bulk loads, rebuilds) go in one statement; everything else one by one, in order.
    for (let i = 0; i < events.length; ) {
      if (events[i].type === 'ProductCreated') {
        let j = i;
        while (j < events.length && events[j].type === 'ProductCreated') j++;
        await applyCreated(tx, events.slice(i, j), t, touched);
        i = j;
      } else {
        await applyOne(tx, events[i], t, touched);
        i++;
      }
    }
    if (touched.size > 0) {
      await tx.query(`UPDATE ${t.products} p SET public_json = ${productJsonSql('public')}::text WHERE p.id = ANY($1::uuid[])`, [[...touched]]);
    }
  },
};

function parseCatalog<K extends CatalogEventType>(type: K, data: unknown) {
  return CatalogEventSchemas[type].parse(data) as ReturnType<(typeof CatalogEventSchemas)[K]['parse']>;
}

function parseInventory<K extends InventoryStockEventType>(type: K, data: unknown) {
  return InventoryStockEventSchemas[type].parse(data) as ReturnType<(typeof InventoryStockEventSchemas)[K]['parse']>;
}

/** Applies one event; `touched` collects the products whose public JSON must be made again. */
async function applyOne(tx: PoolClient, event: RecordedEventWithTx, t: Record<CatalogTable, string>, touched: Set<string>): Promise<void> {
  const at = event.metadata.occurredAt;
  const data = event.data as { productId?: unknown };
  // Product events change the shop's JSON; stock events only when the stock really changed (below).
  if (typeof data?.productId === 'string' && event.type.startsWith('Product') && event.type !== 'ProductDeleted') touched.add(data.productId);
  switch (event.type) {
    case 'ProductUpdated': {
      const d = parseCatalog('ProductUpdated', event.data);
      const sets: string[] = [];
      const values: unknown[] = [d.productId, at];
      const set = (column: string, value: unknown) => {
        values.push(value);
        sets.push(`${column} = $${values.length}`);
      };
      if (d.changes.name !== undefined) set('name', d.changes.name);
      if (d.changes.description !== undefined) set('description', d.changes.description);
      if (d.changes.sku !== undefined) set('sku', d.changes.sku);
      if (d.changes.images !== undefined) set('images', d.changes.images);
      if (d.changes.categoryId !== undefined) {
        set('category_id', d.changes.categoryId);
        sets.push(`category_name = (SELECT name FROM ${t.categories} c WHERE c.id = $${values.length} AND c.store_id = ${t.products}.store_id)`);
      }
      const r = await tx.query<{ store_id: string; is_active: boolean; old_category: string | null; new_category: string | null }>(
        `WITH old AS (SELECT id, category_id FROM ${t.products} WHERE id = $1 FOR UPDATE)
         UPDATE ${t.products} SET ${[...sets, 'updated_at = $2'].join(', ')} FROM old WHERE ${t.products}.id = old.id
         RETURNING ${t.products}.store_id, ${t.products}.is_active, old.category_id AS old_category, ${t.products}.category_id AS new_category`,
        values,
      );
      const row = r.rows[0];
      if (row?.is_active && row.old_category !== row.new_category) {
        await countActive(tx, t, row.store_id, row.old_category, -1);
        await countActive(tx, t, row.store_id, row.new_category, 1);
      }
      return;
    }
    case 'ProductPriceChanged': {
      const d = parseCatalog('ProductPriceChanged', event.data);
      await tx.query(
        `UPDATE ${t.products} SET price_centavos = $2, discount_percentage = $3, final_price_centavos = $4, updated_at = $5 WHERE id = $1`,
        [d.productId, d.newPriceCentavos, d.newDiscountPercentage, finalPriceCentavos(d.newPriceCentavos, d.newDiscountPercentage), at],
      );
      await insertPriceHistory(
        tx,
        t,
        event.metadata.eventId,
        d.productId,
        d.storeId,
        d.oldPriceCentavos,
        d.newPriceCentavos,
        d.oldDiscountPercentage,
        d.newDiscountPercentage,
        d.changeReason,
        d.changedBy,
        at,
      );
      return;
    }
    case 'ProductActivated':
    case 'ProductDeactivated': {
      const d = parseCatalog(event.type, event.data);
      const active = event.type === 'ProductActivated';
      const r = await tx.query<{ store_id: string; category_id: string | null }>(
        `UPDATE ${t.products} SET is_active = $2, updated_at = $3 WHERE id = $1 AND is_active <> $2 RETURNING store_id, category_id`,
        [d.productId, active, at],
      );
      if (r.rows[0]) await countActive(tx, t, r.rows[0].store_id, r.rows[0].category_id, active ? 1 : -1);
      return;
    }
    case 'ProductDeleted': {
      const d = parseCatalog('ProductDeleted', event.data);
      const r = await tx.query<{ store_id: string; category_id: string | null; is_active: boolean }>(
        `DELETE FROM ${t.products} WHERE id = $1 RETURNING store_id, category_id, is_active`,
        [d.productId],
      );
      if (r.rows[0]?.is_active) await countActive(tx, t, r.rows[0].store_id, r.rows[0].category_id, -1);
      return;
    }
    case 'CategoryCreated': {
      const d = parseCatalog('CategoryCreated', event.data);
      await tx.query(`INSERT INTO ${t.categories} (id, store_id, name, description, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`, [
        d.categoryId,
        d.storeId,
        d.name,
        d.description,
        at,
      ]);
      return;
    }
    case 'RatingSubmitted': {
      const d = parseCatalog('RatingSubmitted', event.data);
      await tx.query(
        `INSERT INTO ${t.reviews} (id, kind, product_id, store_id, rating, comment, customer_name, customer_email, created_at, updated_at)
         VALUES ($1, 'rating', $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING`,
        [d.ratingId, d.productId, d.storeId, d.rating, d.comment, d.customerName, d.customerEmail, at],
      );
      return;
    }
    case 'CommentSubmitted': {
      const d = parseCatalog('CommentSubmitted', event.data);
      await tx.query(
        `INSERT INTO ${t.reviews} (id, kind, product_id, store_id, comment, customer_name, customer_email, parent_comment_id, created_at, updated_at)
         VALUES ($1, 'comment', $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING`,
        [d.commentId, d.productId, d.storeId, d.comment, d.customerName, d.customerEmail, d.parentCommentId, at],
      );
      return;
    }
    case 'ReviewApproved':
    case 'ReviewRejected': {
      const d = parseCatalog(event.type, event.data);
      const status = event.type === 'ReviewApproved' ? 'approved' : 'rejected';
      // The rating totals follow the approved ratings only: +1 on approval, −1 when an approved one is rejected.
      const r = await tx.query<{ rating: number | null; was_approved: boolean }>(
        `WITH old AS (SELECT id, status FROM ${t.reviews} WHERE id = $1 FOR UPDATE)
         UPDATE ${t.reviews} rv SET status = $2, updated_at = $3 FROM old
         WHERE rv.id = old.id AND old.status <> $2
         RETURNING rv.rating, old.status = 'approved' AS was_approved`,
        [d.reviewId, status, at],
      );
      const row = r.rows[0];
      if (row && row.rating !== null) {
        const sign = status === 'approved' ? 1 : row.was_approved ? -1 : 0;
        if (sign !== 0) {
          await tx.query(`UPDATE ${t.products} SET rating_sum = rating_sum + $2, rating_count = rating_count + $3 WHERE id = $1`, [d.productId, sign * row.rating, sign]);
        }
      }
      return;
    }
    case 'StockItemOpened': {
      const d = parseInventory('StockItemOpened', event.data);
      if (await setStock(tx, t, d.productId, d.storeId, d.stock, true)) touched.add(d.productId);
      return;
    }
    case 'StockAdjusted': {
      const d = parseInventory('StockAdjusted', event.data);
      if (await setStock(tx, t, d.productId, d.storeId, d.newStock, false)) touched.add(d.productId);
      return;
    }
    default:
      return; // events this projection does not read
  }
}

/** Products created, as many as come in a row, with three statements whatever their number. */
async function applyCreated(tx: PoolClient, events: RecordedEventWithTx[], t: Record<CatalogTable, string>, touched: Set<string>): Promise<void> {
  const rows = events.map((e) => ({ event: e, d: parseCatalog('ProductCreated', e.data) }));
  const col = <T>(f: (r: (typeof rows)[number]) => T): T[] => rows.map(f);
  const inserted = await tx.query<{ id: string; store_id: string; category_id: string | null; is_active: boolean }>(
    `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::numeric[], $8::bigint[], $9::int[],
                            $10::uuid[], $11::text[], $12::bool[], $13::timestamptz[])
         AS u(id, store_id, name, description, sku, price, discount, final_price, stock, category_id, images, is_active, at)
     ), ins AS (
       INSERT INTO ${t.products} (id, store_id, name, description, sku, price_centavos, discount_percentage, final_price_centavos, stock,
                                  category_id, category_name, images, is_active, created_at, updated_at)
       SELECT u.id, u.store_id, u.name, u.description, u.sku, u.price, u.discount, u.final_price, COALESCE(l.stock, u.stock),
              u.category_id, c.name, ARRAY(SELECT json_array_elements_text(u.images::json)), u.is_active, u.at, u.at
       FROM input u
       LEFT JOIN ${t.stock_levels} l ON l.product_id = u.id
       LEFT JOIN ${t.categories} c ON c.id = u.category_id AND c.store_id = u.store_id
       ON CONFLICT (id) DO NOTHING
       RETURNING id, store_id, category_id, is_active
     )
     SELECT * FROM ins`,
    [
      col((r) => r.d.productId),
      col((r) => r.d.storeId),
      col((r) => r.d.name),
      col((r) => r.d.description),
      col((r) => r.d.sku),
      col((r) => r.d.priceCentavos),
      col((r) => r.d.discountPercentage),
      col((r) => finalPriceCentavos(r.d.priceCentavos, r.d.discountPercentage)),
      col((r) => r.d.initialStock),
      col((r) => r.d.categoryId),
      col((r) => JSON.stringify(r.d.images)),
      col((r) => r.d.isActive),
      col((r) => r.event.metadata.occurredAt),
    ],
  );
  // Active products counted per store and category (several may land in the same one).
  const deltas = new Map<string, { storeId: string; categoryId: string | null; n: number }>();
  for (const row of inserted.rows) {
    if (!row.is_active) continue;
    const key = `${row.store_id}/${row.category_id}`;
    const entry = deltas.get(key) ?? { storeId: row.store_id, categoryId: row.category_id, n: 0 };
    entry.n += 1;
    deltas.set(key, entry);
  }
  for (const { storeId, categoryId, n } of deltas.values()) await countActive(tx, t, storeId, categoryId, n);
  // The opening price is the first entry of each product's price history.
  await tx.query(
    `INSERT INTO ${t.price_history} (id, product_id, store_id, old_price_centavos, new_price_centavos, old_discount_percentage, new_discount_percentage, change_reason, changed_by, created_at)
     SELECT u.id, u.product_id, u.store_id, NULL, u.price, NULL, u.discount, NULL, u.changed_by, u.at
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bigint[], $5::numeric[], $6::text[], $7::timestamptz[]) AS u(id, product_id, store_id, price, discount, changed_by, at)
     ON CONFLICT (id) DO NOTHING`,
    [
      col((r) => r.event.metadata.eventId),
      col((r) => r.d.productId),
      col((r) => r.d.storeId),
      col((r) => r.d.priceCentavos),
      col((r) => r.d.discountPercentage),
      col((r) => r.d.createdBy || 'system'),
      col((r) => r.event.metadata.occurredAt),
    ],
  );
  for (const r of rows) touched.add(r.d.productId);
}

/** Adds `delta` to the active products of a store's category (NO_CATEGORY for none). */
async function countActive(tx: PoolClient, t: Record<CatalogTable, string>, storeId: string, categoryId: string | null, delta: number): Promise<void> {
  await tx.query(
    `INSERT INTO ${t.product_counts} (store_id, category_id, active) VALUES ($1, $2, $3)
     ON CONFLICT (store_id, category_id) DO UPDATE SET active = ${t.product_counts}.active + EXCLUDED.active`,
    [storeId, categoryId ?? NO_CATEGORY, delta],
  );
}

/** Records a stock level; answers whether the product row changed (a product created with that stock does not). */
async function setStock(tx: PoolClient, t: Record<CatalogTable, string>, productId: string, storeId: string, stock: number, opening: boolean): Promise<boolean> {
  // An opening never overwrites a level already recorded (the item opens once; redelivery is harmless).
  await tx.query(
    `INSERT INTO ${t.stock_levels} (product_id, store_id, stock) VALUES ($1, $2, $3)
     ON CONFLICT (product_id) DO ${opening ? 'NOTHING' : 'UPDATE SET stock = EXCLUDED.stock'}`,
    [productId, storeId, stock],
  );
  const r = await tx.query(
    `UPDATE ${t.products} p SET stock = l.stock FROM ${t.stock_levels} l WHERE p.id = $1 AND l.product_id = $1 AND p.stock <> l.stock`,
    [productId],
  );
  return (r.rowCount ?? 0) > 0;
}

async function insertPriceHistory(
  tx: PoolClient,
  t: Record<CatalogTable, string>,
  id: string,
  productId: string,
  storeId: string,
  oldPrice: number | null,
  newPrice: number,
  oldDiscount: number | null,
  newDiscount: number,
  reason: string | null,
  changedBy: string,
  at: string,
): Promise<void> {
  await tx.query(
    `INSERT INTO ${t.price_history} (id, product_id, store_id, old_price_centavos, new_price_centavos, old_discount_percentage, new_discount_percentage, change_reason, changed_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
    [id, productId, storeId, oldPrice, newPrice, oldDiscount, newDiscount, reason, changedBy || 'system', at],
  );
}
