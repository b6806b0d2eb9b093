import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PostgresTransport, ProjectionRunner } from '@tiendita/eventsourcing';
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
 * Queries that must see a write the same caller just made call waitUntilCurrent().
 */
@Injectable()
export class IdentityReadModels implements OnApplicationBootstrap, OnModuleDestroy {
  readonly transport: PostgresTransport;
  readonly runner: ProjectionRunner;

  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(IDENTITY_CONFIG) config: IdentityConfig,
    @Inject(SERVICE_LOGGER) logger: Logger,
  ) {
    this.transport = new PostgresTransport({ pool, schema: IDENTITY_SCHEMA, connectionString: config.DATABASE_URL });
    this.runner = new ProjectionRunner({ pool, schema: IDENTITY_SCHEMA, transport: this.transport, projections, logger });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
  }

  /** Resolves once every event committed before the call is in the read models (at most `timeoutMs`). */
  async waitUntilCurrent(timeoutMs = 3000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.runner.caughtUp(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
    await this.transport.close();
  }
}
