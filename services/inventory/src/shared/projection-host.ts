import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type PostgresTransport, ProjectionRunner } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { projections } from '../projections';
import { EVENT_TRANSPORT, INVENTORY_SCHEMA } from './tokens';

/** Runs inventory's projections in this process; closes the transport last. */
@Injectable()
export class ProjectionHost implements OnApplicationBootstrap, OnModuleDestroy {
  readonly runner: ProjectionRunner;
  private markStarted!: () => void;
  /** Resolves once the runner has set up its tables: other subscribers wait for it (concurrent DDL on the checkpoint table would clash). */
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(EVENT_TRANSPORT) private readonly transport: PostgresTransport,
    @Inject(SERVICE_LOGGER) logger: Logger,
  ) {
    this.runner = new ProjectionRunner({ pool, schema: INVENTORY_SCHEMA, transport, projections, logger });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
    this.markStarted();
  }

  async onModuleDestroy(): Promise<void> {
    await this.runner.stop();
    await this.transport.close();
  }
}
