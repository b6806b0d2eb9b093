import { createPool, runMigrations } from '@tiendita/service-kit';
import { createTestDatabase } from '@tiendita/service-kit/testing';
import type { Pool } from 'pg';
import { GATEWAY_SCHEMA, gatewayMigrations } from '../../src/migrations';

/** A database of its own for one test file with the gateway's tables, and a pool on it. */
export interface GatewayTestDb {
  pool: Pool;
  close(): Promise<void>;
}

export async function openGatewayDb(): Promise<GatewayTestDb> {
  const db = await createTestDatabase();
  const pool = createPool(db.url);
  await runMigrations(pool, GATEWAY_SCHEMA, gatewayMigrations);
  return {
    pool,
    async close() {
      await pool.end();
      await db.drop();
    },
  };
}
