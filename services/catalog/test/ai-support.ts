import { PostgresEventStore } from '@tiendita/eventsourcing';
import type { Stack, StackClient } from '../../../gateway/test/support/stack';
import { CATALOGUE } from '../../../libs/ai/test/search-catalogue';

/** Loads the first `count` products of the fixed search catalogue into the signed-in owner's store. */
export async function seedCatalogue(owner: StackClient, count = CATALOGUE.length): Promise<Map<string, string>> {
  const categories = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const p of CATALOGUE.slice(0, count)) {
    if (!categories.has(p.category)) {
      const c = await owner.post('/api/categories', { name: p.category });
      if (c.status !== 201) throw new Error(`categoría: ${c.status} ${c.text}`);
      categories.set(p.category, c.body.id);
    }
    const r = await owner.post('/api/products', { name: p.name, description: p.description, price: p.price, stock: 10, categoryId: categories.get(p.category), images: [] });
    if (r.status !== 201) throw new Error(`producto: ${r.status} ${r.text}`);
    ids.set(p.name, r.body.id);
  }
  return ids;
}

/** Identity's StoreUpdated event (written into identity's event store, as its settings command does). */
export async function updateStore(stack: Stack, storeId: string, changes: Record<string, unknown>): Promise<void> {
  const store = new PostgresEventStore(stack.pool, 'identity');
  await store.append(`store-${storeId}`, [{ type: 'StoreUpdated', data: { storeId, changes, updatedAt: new Date().toISOString() } }], 'any', { storeId });
}

/** Words as a reader counts them. */
export const words = (text: string) => text.trim().split(/\s+/).filter(Boolean).length;
