import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ImportStockResponse } from '@tiendita/contracts';
import { DomainError, type Position } from '@tiendita/eventsourcing';
import { httpStatusOf } from '@tiendita/service-kit';
import { InventoryQueries } from '../../inventory/inventory.queries';
import { CatalogProductsConsumer } from '../reactions/catalog-products.consumer';
import { StockWriteModel, W } from '../write-model/stock-write-model';
import { ImportStockCommand } from './import-stock.command';
import { applyStockCount } from './set-stock.handler';

/** Counts per transaction: one commit for many, and a transaction short enough not to hold readers back. */
const BATCH = 50;

@CommandHandler(ImportStockCommand)
export class ImportStockHandler implements ICommandHandler<ImportStockCommand, ImportStockResponse> {
  constructor(
    private readonly model: StockWriteModel,
    private readonly opener: CatalogProductsConsumer,
    private readonly queries: InventoryQueries,
  ) {}

  async execute({ owner, body }: ImportStockCommand): Promise<ImportStockResponse> {
    const adjustedBy = await this.queries.ownerName(owner.userId);
    // A product created a moment ago may not have its stock item yet: wait for it once, not per item.
    const ids = body.items.map((i) => i.productId);
    const open = await this.model.pool.query<{ product_id: string }>(`SELECT product_id FROM ${W.rows} WHERE product_id = ANY($1::uuid[])`, [ids]);
    if (open.rowCount !== new Set(ids).size) await this.opener.awaitOpened(ids.find((id) => !open.rows.some((r) => r.product_id === id))!);

    const results: ImportStockResponse['results'] = [];
    let position: Position | null = null;
    for (let i = 0; i < body.items.length; i += BATCH) {
      const batch = body.items.slice(i, i + BATCH);
      // The rows are locked in product order (no deadlock with orders); each count is applied in the file's order.
      const done = await this.model.transaction(async (tx) => {
        const locked = await this.model.lock(tx, batch.map((item) => item.productId));
        const answers: ImportStockResponse['results'] = [];
        let last: Position | null = null;
        for (const item of batch) {
          try {
            const r = await applyStockCount(this.model, tx, locked.get(item.productId)!, {
              owner,
              productId: item.productId,
              body: { adjustmentId: item.adjustmentId, newStock: item.newStock, adjustmentType: 'correction', reason: item.reason, openingStock: item.openingStock },
              adjustedBy,
              basis: 'available',
              typeByDirection: true,
            });
            last = r.position ?? last;
            answers.push({ productId: item.productId, ok: true, adjusted: r.adjusted, stock: r.stock, message: null });
          } catch (error) {
            // Refused by the rules before anything was written: that count only.
            if (!(error instanceof DomainError) || httpStatusOf(error) >= 500) throw error;
            answers.push({ productId: item.productId, ok: false, adjusted: false, stock: null, message: error.message });
          }
        }
        return { answers, last };
      });
      results.push(...done.answers);
      position = done.last ?? position;
    }
    return { results, position };
  }
}
