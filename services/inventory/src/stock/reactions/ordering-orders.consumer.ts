import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { OrderPlaced, OrderStatusChanged } from '@tiendita/contracts';
import { reaction, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import { ProjectionHost, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { InventoryConfig } from '../../config';
import { ReservationsService } from '../application/reservations.service';

/** What the reaction reads of OrderPlaced (the order's lines and customer are not its business). */
const PlacedRef = OrderPlaced.pick({ orderId: true, status: true });

const RELEASES = new Set(['cancelled']);
const SELLS = new Set(['out_for_delivery', 'delivered', 'completed']);

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
        // A checkout's hold is confirmed here; under load batches may gather for 100 ms. A status
        // change waits for it (POST /internal/reservations/settled), and the stock reads wait for it (fresh).
        liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
        apply: async (tx, events) => {
          // Consecutive OrderPlaced are confirmed in one statement, before any later event acts;
          // a release or sale is looked into only for an order that holds stock here (one look for
          // the batch: most status changes move nothing, e.g. a completed POS sale or a history replayed).
          const moves = events.map((event) => {
            if (event.type === 'OrderPlaced') return { kind: 'placed' as const, ...PlacedRef.parse(event.data) };
            if (event.type === 'OrderStatusChanged') return { kind: 'changed' as const, ...OrderStatusChanged.parse(event.data) };
            return null;
          });
          const acting = moves.filter((m) => m && (m.kind === 'changed' ? RELEASES.has(m.status) || SELLS.has(m.status) : m.status === 'cancelled')).map((m) => m!.orderId);
          const holding = await this.reservations.ordersHolding(tx, acting);
          let placed: string[] = [];
          const confirmPlaced = async () => {
            if (placed.length) await this.reservations.confirmMany(tx, placed);
            placed = [];
          };
          for (const m of moves) {
            if (!m) continue;
            if (m.kind === 'placed') {
              if (m.status !== 'cancelled') {
                placed.push(m.orderId);
                continue;
              }
              await confirmPlaced();
              const confirmed = await this.reservations.confirm(tx, m.orderId);
              if (!confirmed && holding.has(m.orderId)) await this.reservations.release(m.orderId, 'cancelled', tx);
            } else {
              await confirmPlaced();
              if (!holding.has(m.orderId)) continue;
              if (RELEASES.has(m.status)) await this.reservations.release(m.orderId, 'cancelled', tx);
              else if (SELLS.has(m.status)) await this.reservations.sell(m.orderId, tx);
            }
          }
          await confirmPlaced();
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
