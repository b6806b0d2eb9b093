import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { OrderPlaced, OrderStatusChanged } from '@tiendita/contracts';
import { reaction } from '@tiendita/eventsourcing';
import { ProjectionHost, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { InventoryConfig } from '../../config';
import { ReservationsService } from '../application/reservations.service';

/** The reaction (consumer group `inventory.orders`) to ordering's events. */
export const ORDERS_REACTION = 'orders';

/**
 * Ordering's events move reservations: OrderPlaced confirms the hold (it no longer expires);
 * OrderStatusChanged to 'cancelled' gives the units back; to 'out_for_delivery' (or straight to
 * delivered/completed) sells them. Each reaction shares the runner's transaction with the
 * checkpoint and acts only on rows still in the status it expects, so redelivery changes nothing.
 * It runs in the service's ProjectionRunner: an event that keeps failing is retried a few times,
 * then dead-lettered, and pauses this reaction alone. A timer releases holds whose OrderPlaced never came.
 */
@Injectable()
export class OrderingOrdersConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> | null = null;

  constructor(
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(SERVICE_CONFIG) private readonly config: InventoryConfig,
    private readonly host: ProjectionHost,
    private readonly reservations: ReservationsService,
  ) {
    host.addReaction(
      reaction({
        name: ORDERS_REACTION,
        sources: ['ordering'],
        apply: async (tx, events) => {
          for (const event of events) {
            if (event.type === 'OrderPlaced') {
              const d = OrderPlaced.parse(event.data);
              const confirmed = await this.reservations.confirm(tx, d.orderId);
              if (!confirmed && d.status === 'cancelled') await this.reservations.release(d.orderId, 'cancelled', tx);
            } else if (event.type === 'OrderStatusChanged') {
              const d = OrderStatusChanged.parse(event.data);
              if (d.status === 'cancelled') await this.reservations.release(d.orderId, 'cancelled', tx);
              else if (d.status === 'out_for_delivery' || d.status === 'delivered' || d.status === 'completed') await this.reservations.sell(d.orderId, tx);
            }
          }
        },
      }),
    );
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.sweepNow(), this.config.RESERVATION_SWEEP_MS);
    this.timer.unref();
  }

  /** Releases expired holds now (the timer calls it; tests too). One sweep at a time per process. */
  sweepNow(): Promise<unknown> {
    this.sweeping ??= this.reservations
      .sweep()
      .catch((err) => this.logger.error({ err }, 'No se pudieron liberar las reservas vencidas'))
      .finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  /** Resolves once every order event committed before the call has moved its reservations (or this reaction paused). */
  caughtUp(): Promise<void> {
    return this.host.runner.caughtUp(ORDERS_REACTION);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.sweeping;
  }
}
