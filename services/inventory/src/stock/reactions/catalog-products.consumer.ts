import { Inject, Injectable } from '@nestjs/common';
import { ProductCreated } from '@tiendita/contracts';
import { reaction } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { StockWriteModel, W } from '../write-model/stock-write-model';

/** The reaction (consumer group `inventory.stock_items`) that opens stock items from catalog's ProductCreated. */
export const STOCK_ITEMS_REACTION = 'stock_items';

/** The 503 of a command that waits for a stock item while this reaction is paused on an event it could not apply. */
export const STOCK_ITEMS_PAUSED_MESSAGE =
  'El inventario de los productos nuevos está detenido por un error y este producto aún no tiene su registro de stock. Inténtalo más tarde.';

/**
 * A product created with a stock opens its stock item here: catalog's ProductCreated carries the
 * opening stock. The append shares the runner's transaction with the checkpoint, and an item
 * already open is left alone, so redelivery opens nothing twice. It runs in the service's
 * ProjectionRunner: an event that keeps failing (one that does not parse, a command that throws)
 * is retried a few times, then dead-lettered, and pauses this reaction alone.
 */
@Injectable()
export class CatalogProductsConsumer {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly model: StockWriteModel,
    private readonly host: ProjectionHost,
  ) {
    host.addReaction(
      reaction({
        name: STOCK_ITEMS_REACTION,
        sources: ['catalog'],
        apply: async (tx, events) => {
          // The batch's products locked together and opened in one append (a catalogue import or
          // a rebuild brings thousands): the same events, one by one, cost four statements each.
          const created = events.filter((e) => e.type === 'ProductCreated').map((e) => ({ event: e, d: ProductCreated.parse(e.data) }));
          if (created.length === 0) return;
          const locked = await this.model.lockMany(
            tx,
            created.map((c) => c.d.productId),
          );
          await this.model.executeMany(
            tx,
            created.map(({ event, d }) => ({
              locked: locked.get(d.productId)!,
              command: { type: 'OpenStockItem', productId: d.productId, storeId: d.storeId, stock: d.initialStock },
              metadata: { storeId: d.storeId, actor: event.metadata.actor, causationId: event.metadata.eventId, correlationId: event.metadata.correlationId ?? event.metadata.eventId },
            })),
          );
        },
      }),
    );
  }

  /** Resolves once every ProductCreated committed before the call has opened its stock item (or this reaction paused). */
  caughtUp(): Promise<void> {
    return this.host.runner.caughtUp(STOCK_ITEMS_REACTION);
  }

  /**
   * A product created a moment ago may not have its stock item yet: when it has none, waits (at
   * most 5 s) for this reaction to open it, so a command on it does not answer 404 too early.
   * Gives up at once with 503 when the reaction is paused.
   */
  async awaitOpened(productId: string): Promise<void> {
    await this.host.waitFor(async () => ((await this.pool.query(`SELECT 1 FROM ${W.rows} WHERE product_id = $1`, [productId])).rowCount ? true : null), {
      projection: STOCK_ITEMS_REACTION,
      timeoutMs: 5_000,
      pausedMessage: STOCK_ITEMS_PAUSED_MESSAGE,
    });
  }
}
