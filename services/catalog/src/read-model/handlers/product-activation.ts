import { countActive } from './product-counts';
import { type EventContext, parseCatalog } from './context';

/** ProductActivated / ProductDeactivated: the flag, and the active count when it really changed. */
export async function onProductActivation({ tx, t, event }: EventContext): Promise<void> {
  const type = event.type as 'ProductActivated' | 'ProductDeactivated';
  const d = parseCatalog(type, event.data);
  const active = type === 'ProductActivated';
  const r = await tx.query<{ store_id: string; category_id: string | null }>(
    `UPDATE ${t.products} SET is_active = $2, updated_at = $3 WHERE id = $1 AND is_active <> $2 RETURNING store_id, category_id`,
    [d.productId, active, event.metadata.occurredAt],
  );
  const row = r.rows[0];
  if (row) await countActive({ tx, t, storeId: row.store_id, categoryId: row.category_id, delta: active ? 1 : -1 });
}
