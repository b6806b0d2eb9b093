import type { Projection } from '@tiendita/eventsourcing';

export type StoresTable = 'stores';

/** The store's name, logo and main colour (for the exports' headers), from identity's StoreCreated and StoreUpdated. */
export const storesProjection: Projection<StoresTable> = {
  name: 'stores',
  // 2: logo_url and primary_color (the report PDF's header)
  version: 2,
  sources: ['identity'],
  tables: ['stores'],

  async setup(tx, t) {
    await tx.query(`CREATE TABLE IF NOT EXISTS ${t.stores} (store_id uuid PRIMARY KEY, name text NOT NULL, logo_url text, primary_color text)`);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.type === 'StoreCreated') {
        const d = event.data as { storeId: string; name: string; logoUrl?: string | null; primaryColor?: string | null };
        await tx.query(`INSERT INTO ${t.stores} (store_id, name, logo_url, primary_color) VALUES ($1, $2, $3, $4) ON CONFLICT (store_id) DO NOTHING`, [
          d.storeId,
          d.name,
          d.logoUrl ?? null,
          d.primaryColor ?? null,
        ]);
      } else if (event.type === 'StoreUpdated') {
        const d = event.data as { storeId: string; changes?: { name?: string; logoUrl?: string | null; primaryColor?: string } };
        const c = d.changes ?? {};
        // Only the fields present changed (StoreChanges): the others keep their value.
        await tx.query(
          `UPDATE ${t.stores} SET name = CASE WHEN $2 THEN $3 ELSE name END, logo_url = CASE WHEN $4 THEN $5 ELSE logo_url END,
             primary_color = CASE WHEN $6 THEN $7 ELSE primary_color END WHERE store_id = $1`,
          [d.storeId, typeof c.name === 'string', c.name ?? null, 'logoUrl' in c, c.logoUrl ?? null, typeof c.primaryColor === 'string', c.primaryColor ?? null],
        );
      }
    }
  },
};
