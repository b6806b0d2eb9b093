import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PostgresEventStore } from '@tiendita/eventsourcing';
import { ProjectionHost } from '@tiendita/service-kit';
import { createTestDatabase, type TestDatabase, testEnv } from '@tiendita/service-kit/testing';
import pg from 'pg';
import { createApp } from '../../src/app';
import { orderingStore } from './orders';

export interface ReportingTestApp {
  app: NestFastifyApplication;
  pool: pg.Pool;
  /** Ordering's and inventory's real event stores on the test database. */
  ordering: PostgresEventStore;
  inventory: PostgresEventStore;
  host: ProjectionHost;
}

/**
 * The reporting app on its own test database with "now" fixed, started before the file's tests and
 * stopped after them; its fields are set once beforeAll has run.
 */
export function useReportingApp(now: Date): ReportingTestApp {
  const ctx = {} as ReportingTestApp;
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    ctx.app = await createApp(testEnv(db.url), { clock: () => now });
    ctx.pool = new pg.Pool({ connectionString: db.url, max: 3 });
    ctx.ordering = orderingStore(ctx.pool);
    ctx.inventory = new PostgresEventStore(ctx.pool, 'inventory');
    await ctx.ordering.migrate();
    await ctx.inventory.migrate();
    ctx.host = ctx.app.get(ProjectionHost);
  });
  afterAll(async () => {
    await ctx.app?.close();
    await ctx.pool?.end();
    await db?.drop();
  });
  return ctx;
}
