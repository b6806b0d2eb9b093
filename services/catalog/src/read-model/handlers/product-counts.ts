import type { PoolClient } from 'pg';
import { type CatalogTables, NO_CATEGORY } from '../catalog-tables';

export interface CountActiveChange {
  tx: PoolClient;
  t: CatalogTables;
  storeId: string;
  /** null for products without category (counted under NO_CATEGORY). */
  categoryId: string | null;
  delta: number;
}

/** Adds `delta` to the active products of a store's category. */
export async function countActive({ tx, t, storeId, categoryId, delta }: CountActiveChange): Promise<void> {
  await tx.query(
    `INSERT INTO ${t.product_counts} (store_id, category_id, active) VALUES ($1, $2, $3)
     ON CONFLICT (store_id, category_id) DO UPDATE SET active = ${t.product_counts}.active + EXCLUDED.active`,
    [storeId, categoryId ?? NO_CATEGORY, delta],
  );
}
