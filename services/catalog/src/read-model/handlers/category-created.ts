import { type EventContext, parseCatalog } from './context';

/**
 * CategoryCreated: a category row (a redelivered event inserts nothing), and its name on the
 * store's products that already point to it. Under Kafka a category and a product travel on
 * different partitions (the key is the stream id), so a product can arrive before its category:
 * it then holds the id with no name until this fills it in.
 */
export async function onCategoryCreated({ tx, t, event, touched }: EventContext): Promise<void> {
  const d = parseCatalog('CategoryCreated', event.data);
  await tx.query(`INSERT INTO ${t.categories} (id, store_id, name, description, created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`, [
    d.categoryId,
    d.storeId,
    d.name,
    d.description,
    event.metadata.occurredAt,
  ]);
  const named = await tx.query<{ id: string }>(
    `UPDATE ${t.products} SET category_name = c.name FROM ${t.categories} c
     WHERE c.id = $1 AND ${t.products}.category_id = c.id AND ${t.products}.store_id = c.store_id AND ${t.products}.category_name IS DISTINCT FROM c.name
     RETURNING ${t.products}.id`,
    [d.categoryId],
  );
  for (const row of named.rows) touched.add(row.id);
}
