import { type ProjectionHost, runMigrations } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase } from '@tiendita/service-kit/testing';
import pg from 'pg';
import type { OrderingConfig } from '../src/config';
import { migrations } from '../src/migrations';
import { PublicOrderLimits } from '../src/orders/limits/public-order-limits';

/** The per-phone counters (one row per shopper's phone and store) are swept once their window is long over. */
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  db = await createTestDatabase();
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await runMigrations(pool, 'ordering', migrations);
});

afterAll(async () => {
  await pool?.end();
  await db?.drop();
});

it('drops the counters whose window ended more than a day ago and keeps the others', async () => {
  await pool.query(
    `INSERT INTO ordering.public_order_counters (key, window_start, hits) VALUES
       ('phone:a:1', now() - interval '3 days', 4), ('phone:a:2', now() - interval '2 hours', 1), ('phone:a:3', now(), 2)`,
  );
  const limits = new PublicOrderLimits(pool, { ORDER_RATE_PHONE_WINDOW_MIN: 60 } as OrderingConfig, {} as ProjectionHost);
  expect(await limits.sweepCounters()).toBe(1);
  const left = await pool.query<{ key: string }>('SELECT key FROM ordering.public_order_counters ORDER BY key');
  expect(left.rows.map((r) => r.key)).toEqual(['phone:a:2', 'phone:a:3']);
  expect(await limits.sweepCounters()).toBe(0);
});
