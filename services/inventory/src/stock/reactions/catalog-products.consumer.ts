import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ProductCreated } from '@tiendita/contracts';
import { type EventTransport, handleCommand, PostgresEventStore, type Subscription } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { ProjectionHost } from '../../shared/projection-host';
import { EVENT_TRANSPORT, INVENTORY_EVENT_STORE } from '../../shared/tokens';
import { stockDecider, stockStreamId } from '../domain/stock-item.decider';

/** Consumer group of the stock items opened from catalog's ProductCreated. */
export const STOCK_ITEMS_GROUP = 'inventory.stock-items';

/**
 * A product created with a stock opens its stock item here: catalog's ProductCreated carries the
 * opening stock. The append shares the subscription's transaction with the checkpoint, and an
 * item already open is left alone, so redelivery opens nothing twice.
 */
@Injectable()
export class CatalogProductsConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_TRANSPORT) private readonly transport: EventTransport,
    @Inject(INVENTORY_EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly projectionHost: ProjectionHost,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The source's events table may not exist before catalog's first start; its DDL is idempotent.
    await new PostgresEventStore(this.pool, 'catalog').migrate();
    await this.projectionHost.started;
    this.subscription = await this.transport.subscribe({
      group: STOCK_ITEMS_GROUP,
      source: 'catalog',
      handle: async (events, tx) => {
        for (const event of events) {
          if (event.type !== 'ProductCreated') continue;
          const d = ProductCreated.parse(event.data);
          await handleCommand(
            this.store,
            stockStreamId(d.productId),
            stockDecider,
            { type: 'OpenStockItem', productId: d.productId, storeId: d.storeId, stock: d.initialStock },
            {
              client: tx,
              metadata: { storeId: d.storeId, actor: event.metadata.actor, causationId: event.metadata.eventId, correlationId: event.metadata.correlationId ?? event.metadata.eventId },
            },
          );
        }
      },
      onError: (err) => this.logger.error({ err }, 'No se pudo abrir el stock de productos nuevos; se reintenta'),
    });
  }

  /** Resolves once every ProductCreated committed before the call has opened its stock item. */
  caughtUp(): Promise<void> {
    return this.subscription?.caughtUp() ?? Promise.resolve();
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
  }
}
