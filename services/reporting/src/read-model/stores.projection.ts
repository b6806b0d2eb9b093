import type { Projection } from '@tiendita/eventsourcing';

export type StoresTable = 'stores';

/** The store's name (for the exports' titles), from identity's StoreCreated and StoreUpdated. */
export const storesProjection: Projection<StoresTable> = {
  name: 'stores',
  version: 1,
  sources: ['identity'],
  tables: ['stores'],

  async setup(tx, t) {
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.stores} (store_id uuid PRIMARY KEY, name text NOT NULL)`);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.type === 'StoreCreated') {
        const d = event.data as { storeId: string; name: string };
        await tx.query(`INSERT INTO ${t.stores} (store_id, name) VALUES ($1, $2) ON CONFLICT (store_id) DO NOTHING`, [d.storeId, d.name]);
      } else if (event.type === 'StoreUpdated') {
        const d = event.data as { storeId: string; changes?: { name?: string } };
        if (typeof d.changes?.name === 'string') await tx.query(`UPDATE ${t.stores} SET name = $2 WHERE store_id = $1`, [d.storeId, d.changes.name]);
      }
    }
  },
};
