import { countActive } from './product-counts';
import { type EventContext, parseCatalog } from './context';

/** ProductUpdated: the changed fields; a category change moves the product between the active counts. */
export async function onProductUpdated({ tx, t, event }: EventContext): Promise<void> {
  const d = parseCatalog('ProductUpdated', event.data);
  const sets: string[] = [];
  const values: unknown[] = [d.productId, event.metadata.occurredAt];
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
    await countActive({ tx, t, storeId: row.store_id, categoryId: row.old_category, delta: -1 });
    await countActive({ tx, t, storeId: row.store_id, categoryId: row.new_category, delta: 1 });
  }
}
