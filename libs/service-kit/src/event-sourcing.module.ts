import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { createTransport, PostgresEventStore } from '@tiendita/eventsourcing';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import { createPool } from './database';
import { EVENT_SOURCING_OPTIONS, EVENT_STORE, EVENT_TRANSPORT, type EventSourcingOptions, ProjectionHost } from './event-sourcing';
import { PG_POOL, SERVICE_CONFIG, SERVICE_LOGGER } from './service-kit.module';

const EVENT_SOURCING_POOLS = 'TIENDITA_EVENT_SOURCING_POOLS';

/** Connections the subscriptions' passes of one service may hold at once. */
export const SUBSCRIPTION_POOL_SIZE = 4;

/**
 * Two small pools beside the service's own, so that neither the event store's NOTIFYs nor the
 * subscriptions' passes wait in the queue of the service's commands: while a WAL flush stalls,
 * every command's connection waits for it and hundreds more commands queue for one; a NOTIFY or a
 * pass behind them (a read-your-writes wait with it) would start only once that queue has drained
 * (`npm run bench -- eventstore`: events became visible ~250-460 ms after their commit's p99).
 */
interface EventSourcingPools {
  notify: Pool;
  passes: Pool;
}

@Injectable()
class EventSourcingPoolCloser implements OnApplicationShutdown {
  constructor(@Inject(EVENT_SOURCING_POOLS) private readonly pools: EventSourcingPools) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.pools.notify.end(), this.pools.passes.end()]).catch(() => undefined);
  }
}

/**
 * A service's event-sourcing plumbing in one import: its event store (migrated), its transport
 * (PostgreSQL or Kafka by EVENT_TRANSPORT), and the ProjectionHost running its projections.
 * `imports: [EventSourcingModule.forService({ schema: 'ordering', projections })]`.
 */
@Module({})
export class EventSourcingModule {
  static forService(options: EventSourcingOptions): DynamicModule {
    return {
      module: EventSourcingModule,
      global: true,
      providers: [
        { provide: EVENT_SOURCING_OPTIONS, useValue: options },
        {
          provide: EVENT_SOURCING_POOLS,
          inject: [SERVICE_CONFIG],
          useFactory: (config: BaseConfig): EventSourcingPools => ({
            notify: createPool(config.DATABASE_URL, { max: 1, applicationName: `tiendita-${options.schema}-notify`, allowExitOnIdle: true }),
            passes: createPool(config.DATABASE_URL, { max: SUBSCRIPTION_POOL_SIZE, applicationName: `tiendita-${options.schema}-subscriptions`, allowExitOnIdle: true }),
          }),
        },
        EventSourcingPoolCloser,
        {
          provide: EVENT_STORE,
          inject: [PG_POOL, EVENT_SOURCING_POOLS],
          useFactory: async (pool: Pool, pools: EventSourcingPools) => {
            const store = new PostgresEventStore(pool, options.schema, { notifyPool: pools.notify });
            await store.migrate();
            return store;
          },
        },
        {
          provide: EVENT_TRANSPORT,
          inject: [PG_POOL, SERVICE_CONFIG, EVENT_SOURCING_POOLS, SERVICE_LOGGER],
          useFactory: (pool: Pool, config: BaseConfig, pools: EventSourcingPools, logger: Logger) =>
            createTransport({
              pool,
              passPool: pools.passes,
              logger,
              schema: options.schema,
              connectionString: config.DATABASE_URL,
              ...(options.redact ? { redact: options.redact } : {}),
            }),
        },
        ProjectionHost,
      ],
      exports: [EVENT_STORE, EVENT_TRANSPORT, ProjectionHost],
    };
  }
}
