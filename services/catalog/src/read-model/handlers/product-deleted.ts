import { countActive } from './product-counts';
import { type EventContext, parseCatalog } from './context';

/** ProductDeleted: the row goes; an active product leaves its category's count. */
export async function onProductDeleted({ tx, t, event }: EventContext): Promise<void> {
  const d = parseCatalog('ProductDeleted', event.data);
  const r = await tx.query<{ store_id: string; category_id: string | null; is_active: boolean }>(
    `DELETE FROM ${t.products} WHERE id = $1 RETURNING store_id, category_id, is_active`,
    [d.productId],
  );
  const row = r.rows[0];
  if (row?.is_active) await countActive({ tx, t, storeId: row.store_id, categoryId: row.category_id, delta: -1 });
}
