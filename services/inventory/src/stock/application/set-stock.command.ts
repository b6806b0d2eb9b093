import { Command } from '@nestjs/cqrs';
import type { OwnerIdentity } from '@tiendita/service-kit';
import { z } from 'zod';
import { AdjustmentType, InventoryMessages } from '@tiendita/contracts';

const stock = z
  .number({ error: InventoryMessages.stockInvalid })
  .int(InventoryMessages.stockInvalid)
  .min(0, InventoryMessages.stockNegative)
  .max(1_000_000, InventoryMessages.stockInvalid);

/** Body of catalog's internal call POST /internal/stock-items/{productId}/set. */
export const SetStockRequest = z.object({
  adjustmentId: z.string().uuid(),
  newStock: stock,
  adjustmentType: AdjustmentType,
  reason: z.string({ error: InventoryMessages.reasonRequired }).trim().min(1, InventoryMessages.reasonRequired).max(500),
  openingStock: stock.optional(),
});
export type SetStockRequest = z.infer<typeof SetStockRequest>;

export interface SetStockResult {
  productId: string;
  stock: number;
  /** False when nothing changed (same stock, or the adjustment was already applied). */
  adjusted: boolean;
  /** Where the stock item's last event sits in inventory's global order (consumers wait for it), or null. */
  position: { transactionId: string; globalPosition: number } | null;
}

/** Sets a product's stock, recorded as an adjustment; idempotent on adjustmentId. */
export class SetStockCommand extends Command<SetStockResult> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly productId: string,
    readonly body: SetStockRequest,
  ) {
    super();
  }
}
