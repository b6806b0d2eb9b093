import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { InventoryMessages, isUuid, type SetStockRequest } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import type { OwnerIdentity } from '@tiendita/service-kit';
import type { PoolClient } from 'pg';
import { type SetStock, stockDecider } from '../domain/stock-item.decider';
import { CatalogProductsConsumer } from '../reactions/catalog-products.consumer';
import { type LockedStock, StockWriteModel, W } from '../write-model/stock-write-model';
import { SetStockCommand, type SetStockResult } from './set-stock.command';

/** What one stock count needs besides the locked row: see SetStockCommand. */
export interface StockCount {
  owner: OwnerIdentity;
  productId: string;
  body: SetStockRequest;
  adjustedBy?: string;
  basis: 'onHand' | 'available';
  typeByDirection: boolean;
}

/**
 * One stock count on a row already locked in `tx`: refused (a typed error, nothing written) when the
 * rules say no; when its adjustment id was applied before, answers the stock as it is and writes
 * nothing; else claims the id and appends, in the caller's transaction.
 */
export async function applyStockCount(model: StockWriteModel, tx: PoolClient, locked: LockedStock, count: StockCount): Promise<SetStockResult> {
  const { owner, productId, body, adjustedBy, basis, typeByDirection } = count;
  const state = locked.state;
  if (state.status === 'open' && state.storeId !== owner.storeId) throw new NotFoundError(InventoryMessages.productNotFound);
  const available = (s: typeof state) => (s.status === 'open' ? s.onHand - (basis === 'available' ? s.reserved : 0) : body.newStock);
  const applied = await tx.query(`SELECT 1 FROM ${W.applied} WHERE adjustment_id = $1`, [body.adjustmentId]);
  if (applied.rowCount) return { productId, stock: available(state), adjusted: false, position: null };
  const newStock = basis === 'available' && state.status === 'open' ? body.newStock + state.reserved : body.newStock;
  const current = state.status === 'open' ? state.onHand : (body.openingStock ?? 0);
  const command: SetStock = {
    type: 'SetStock',
    adjustmentId: body.adjustmentId,
    productId,
    storeId: owner.storeId,
    newStock,
    adjustmentType: typeByDirection ? (newStock > current ? 'restock' : 'correction') : body.adjustmentType,
    reason: body.reason,
    adjustedBy: adjustedBy ?? owner.userId,
    openingStock: body.openingStock,
  };
  // The rules first (pure): a refused count claims nothing, so a batch can go on with the next one.
  stockDecider.decide(command, state);
  // The adjustment id is claimed in the command's transaction: a repeat finds it and changes nothing.
  const claimed = await tx.query(`INSERT INTO ${W.applied} (adjustment_id, product_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [body.adjustmentId, productId]);
  if (!claimed.rowCount) return { productId, stock: available(state), adjusted: false, position: null };
  const { events, state: after, position } = await model.execute(tx, locked, command, { storeId: owner.storeId, actor: owner.userId });
  return { productId, stock: available(after), adjusted: events.some((e) => e.type === 'StockAdjusted'), position };
}

@CommandHandler(SetStockCommand)
export class SetStockHandler implements ICommandHandler<SetStockCommand, SetStockResult> {
  constructor(
    private readonly model: StockWriteModel,
    private readonly opener: CatalogProductsConsumer,
  ) {}

  async execute({ owner, productId, body, adjustedBy, basis, typeByDirection }: SetStockCommand): Promise<SetStockResult> {
    if (!isUuid(productId)) throw new NotFoundError(InventoryMessages.invalidProductId);
    if (body.openingStock === undefined) await this.opener.awaitOpened(productId);
    return this.model.transaction(async (tx) => {
      const locked = (await this.model.lock(tx, [productId])).get(productId)!;
      return applyStockCount(this.model, tx, locked, { owner, productId, body, adjustedBy, basis, typeByDirection });
    });
  }
}
