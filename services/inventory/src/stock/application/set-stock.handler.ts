import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InventoryMessages } from '@tiendita/contracts';
import { handleCommand, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { INVENTORY_EVENT_STORE } from '../../shared/tokens';
import { stockDecider, stockStreamId } from '../domain/stock-item.decider';
import { SetStockCommand, type SetStockResult } from './set-stock.command';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@CommandHandler(SetStockCommand)
export class SetStockHandler implements ICommandHandler<SetStockCommand, SetStockResult> {
  constructor(@Inject(INVENTORY_EVENT_STORE) private readonly store: PostgresEventStore) {}

  async execute({ owner, productId, body }: SetStockCommand): Promise<SetStockResult> {
    if (!UUID.test(productId)) throw new NotFoundError(InventoryMessages.invalidProductId);
    const streamId = stockStreamId(productId);
    const { newEvents, newState, version } = await handleCommand(
      this.store,
      streamId,
      stockDecider,
      {
        type: 'SetStock',
        adjustmentId: body.adjustmentId,
        productId,
        storeId: owner.storeId,
        newStock: body.newStock,
        adjustmentType: body.adjustmentType,
        reason: body.reason,
        adjustedBy: owner.userId,
        openingStock: body.openingStock,
      },
      { metadata: { storeId: owner.storeId, actor: owner.userId } },
    );
    const stock = newState.status === 'open' ? newState.stock : body.newStock;
    const r = await this.store.pool.query<{ transaction_id: string; global_position: string }>(
      `SELECT transaction_id::text, global_position FROM inventory.events WHERE stream_id = $1 AND stream_position = $2`,
      [streamId, version],
    );
    const position = r.rows[0] ? { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) } : null;
    return { productId, stock, adjusted: newEvents.some((e) => e.type === 'StockAdjusted'), position };
  }
}
