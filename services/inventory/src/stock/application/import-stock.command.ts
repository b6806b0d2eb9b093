import { Command } from '@nestjs/cqrs';
import type { ImportStockRequest, ImportStockResponse } from '@tiendita/contracts';
import type { OwnerIdentity } from '@tiendita/service-kit';

/**
 * The stock counts of a product import (catalog → inventory): each item is the product form's
 * stock edit (available units, idempotent on adjustmentId), recorded as a restock when it raises the
 * units and a correction when it lowers them. Items are applied in order, in transactions of a few
 * dozen; a refused item (another store's product, one never opened) answers its message, writes
 * nothing, and the rest go on.
 */
export class ImportStockCommand extends Command<ImportStockResponse> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly body: ImportStockRequest,
  ) {
    super();
  }
}
