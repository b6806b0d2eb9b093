import { finalPriceCentavos, LOW_STOCK_THRESHOLD } from '@tiendita/contracts';
import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import type { CatalogTables } from '../catalog-tables';
import { parseCatalog, type TouchedProducts } from './context';
import { countActive } from './product-counts';

export interface ProductsCreated {
  tx: PoolClient;
  t: CatalogTables;
  /** A run of ProductCreated events, in order. */
  events: RecordedEventWithTx[];
  touched: TouchedProducts;
}

/**
 * Products created, as many as come in a row (bulk loads, rebuilds), with three statements whatever
 * their number: the rows (with any stock level or category already known), the active counts, and
 * each product's opening price as the first entry of its price history.
 */
export async function onProductsCreated({ tx, t, events, touched }: ProductsCreated): Promise<void> {
  const rows = events.map((e) => ({ event: e, d: parseCatalog('ProductCreated', e.data) }));
  const col = <T>(f: (r: (typeof rows)[number]) => T): T[] => rows.map(f);
  const inserted = await tx.query<{ id: string; store_id: string; category_id: string | null; is_active: boolean }>(
    `WITH input AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::numeric[], $8::bigint[], $9::int[],
                            $10::uuid[], $11::text[], $12::bool[], $13::timestamptz[])
         AS u(id, store_id, name, description, sku, price, discount, final_price, stock, category_id, images, is_active, at)
     ), ins AS (
       INSERT INTO ${t.products} (id, store_id, name, description, sku, price_centavos, discount_percentage, final_price_centavos, stock, stock_minimum,
                                  category_id, category_name, images, is_active, created_at, updated_at)
       SELECT u.id, u.store_id, u.name, u.description, u.sku, u.price, u.discount, u.final_price, COALESCE(l.stock, u.stock), COALESCE(l.minimum, ${LOW_STOCK_THRESHOLD}),
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
  const deltas = new Map<string, { storeId: string; categoryId: string | null; delta: number }>();
  for (const row of inserted.rows) {
    if (!row.is_active) continue;
    const key = `${row.store_id}/${row.category_id}`;
    const entry = deltas.get(key) ?? { storeId: row.store_id, categoryId: row.category_id, delta: 0 };
    entry.delta += 1;
    deltas.set(key, entry);
  }
  for (const change of deltas.values()) await countActive({ tx, t, ...change });
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
