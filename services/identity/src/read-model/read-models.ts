import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { redactIdentityEventData } from '@tiendita/contracts';
import { createTransport, type EventTransport, ProjectionRunner } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config';
import { IDENTITY_SCHEMA } from '../migrations';
import { IDENTITY_CONFIG } from '../shared/tokens-di';
import { projections } from '../projections';
import type { IdentityTable } from './identity.projection';

/** Physical names of the read-model tables (the runner puts them in the service schema). */
export const READ_TABLES: Record<IdentityTable, string> = {
  users: `${IDENTITY_SCHEMA}.users`,
  stores: `${IDENTITY_SCHEMA}.stores`,
  store_settings: `${IDENTITY_SCHEMA}.store_settings`,
};

/**
 * Keeps identity's read models up to date: the ProjectionRunner follows identity's own events
 * (checkpoint and rows in one transaction; `npm run replay -- identity.accounts` rebuilds them).
 * Queries that must see a write the same caller just made use waitFor().
 */
@Injectable()
export class IdentityReadModels implements OnApplicationBootstrap, OnModuleDestroy {
  readonly transport: EventTransport;
  readonly runner: ProjectionRunner;

  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(IDENTITY_CONFIG) config: IdentityConfig,
    @Inject(SERVICE_LOGGER) logger: Logger,
  ) {
    // With Kafka, identity's events go out to other services without their credential hashes.
    this.transport = createTransport({ pool, schema: IDENTITY_SCHEMA, connectionString: config.DATABASE_URL, redact: redactIdentityEventData });
    this.runner = new ProjectionRunner({ pool, schema: IDENTITY_SCHEMA, transport: this.transport, projections, logger });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  /**
   * Read-your-writes for a row the caller knows exists (its own user or store): probes until it
   * shows up, for at most `timeoutMs`. Probing, not only runner.caughtUp(): a catch-up pass stops
   * below the oldest transaction in flight in the whole cluster, so "nothing new" can come before
   * an event already committed.
   */
  async waitFor<T>(probe: () => Promise<T | null>, timeoutMs = 3000): Promise<T | null> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== null || Date.now() >= deadline) return found;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.runner.caughtUp(),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 25);
        }),
      ]);
      clearTimeout(timer);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
    await this.transport.close();
  }
}
