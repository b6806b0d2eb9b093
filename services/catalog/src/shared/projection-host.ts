import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { comparePositions, type Position, createTransport, type EventTransport, ProjectionRunner, readCheckpoint } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { CatalogConfig } from '../config';
import { catalogProjection } from '../read-model/catalog.projection';
import { projections } from '../projections';
import { CATALOG_SCHEMA } from './tokens';

/** How long a write waits for its own events to reach the read models before answering anyway. */
const READ_YOUR_WRITES_TIMEOUT_MS = 5000;

/**
 * Runs the catalog's projections (products, categories, stock, price history, reviews, stores)
 * in this process, and lets a write wait until the read models show it (read-your-writes).
 */
@Injectable()
export class ProjectionHost implements OnApplicationBootstrap, OnModuleDestroy {
  readonly transport: EventTransport;
  readonly runner: ProjectionRunner;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) config: CatalogConfig,
    @Inject(SERVICE_LOGGER) logger: Logger,
  ) {
    this.transport = createTransport({ pool, schema: CATALOG_SCHEMA, connectionString: config.DATABASE_URL });
    this.runner = new ProjectionRunner({ pool, schema: CATALOG_SCHEMA, transport: this.transport, projections, logger });
  }

  async onApplicationBootstrap(): Promise<void> {
    // The runner creates its sources' events tables if missing (catalog, inventory, identity).
    await this.runner.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
    await this.transport.close();
  }

  /** Waits until the product views include a catalog stream up to `version` (its event count). */
  async waitForStream(streamId: string, version: number): Promise<void> {
    if (version <= 0) return;
    const r = await this.pool.query<{ transaction_id: string; global_position: string }>({
      name: 'catalog_event_position',
      text: `SELECT transaction_id::text, global_position FROM catalog.events WHERE stream_id = $1 AND stream_position = $2`,
      values: [streamId, version],
    });
    if (!r.rows[0]) return;
    await this.waitForPosition('catalog', { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) });
  }

  /**
   * Waits until the product views have applied a source's events up to `position`. It compares
   * the projection's checkpoint rather than trusting one catch-up pass: a pass stops below the
   * oldest transaction in flight anywhere, so "nothing new" can come before a committed event.
   */
  async waitForPosition(source: string, position: Position, timeoutMs = READ_YOUR_WRITES_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const group = `${CATALOG_SCHEMA}.${catalogProjection.name}`;
    for (;;) {
      const at = await readCheckpoint(this.pool, CATALOG_SCHEMA, group, source);
      if (at && comparePositions(at, position) >= 0) return;
      if (Date.now() >= deadline) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.runner.caughtUp(catalogProjection.name),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 20);
        }),
      ]);
      clearTimeout(timer);
    }
  }

  /**
   * Resolves once the read models include every event committed before the call, as far as one
   * pass can tell, or after `timeoutMs`: true when they caught up, false when the time ran out.
   */
  async caughtUp(projection?: string, timeoutMs = READ_YOUR_WRITES_TIMEOUT_MS): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const reached = await Promise.race([
      this.runner.caughtUp(projection).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return reached;
  }
}
