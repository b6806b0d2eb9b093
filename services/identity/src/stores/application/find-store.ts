import type { ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { STORE_COLUMNS, STORES_TABLE, type StoreRow } from './store-row';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An active store by id, subdomain, or a subdomain it left less than 90 days ago (the redirect of
 * a changed subdomain). Inactive stores are offline: null, as for one that does not exist. Not
 * found, and with `readModels`: once more after the stores' read model has every event committed
 * before the call (a store registered a moment ago, its shop opened at once).
 */
export async function findActiveStore(pool: Pool, identifier: string, readModels?: ProjectionHost): Promise<StoreRow | null> {
  const found = await readActiveStore(pool, identifier);
  if (found || !readModels) return found;
  await readModels.fresh([{ projection: 'accounts', source: 'identity' }]);
  return readActiveStore(pool, identifier);
}

async function readActiveStore(pool: Pool, identifier: string): Promise<StoreRow | null> {
  const key = identifier.trim().toLowerCase();
  if (!key || key.length > 100) return null;
  if (UUID.test(key)) {
    const r = await pool.query<StoreRow>(`SELECT ${STORE_COLUMNS} FROM ${STORES_TABLE} WHERE id = $1 AND is_active`, [key]);
    return r.rows[0] ?? null;
  }
  const r = await pool.query<StoreRow>(
    `SELECT ${STORE_COLUMNS} FROM ${STORES_TABLE} WHERE subdomain = $1 AND is_active
     UNION ALL
     SELECT ${STORE_COLUMNS.replace(/(\w+)/g, 's.$1')} FROM identity.subdomain_redirects r JOIN ${STORES_TABLE} s ON s.id = r.store_id
     WHERE r.subdomain = $1 AND r.expires_at > now() AND s.is_active
     LIMIT 1`,
    [key],
  );
  return r.rows[0] ?? null;
}
