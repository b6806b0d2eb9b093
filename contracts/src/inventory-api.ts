import { z } from 'zod';
import { InventoryMessages } from './catalog-constants';
import { AdjustmentType } from './inventory-events';

// The owner's inventory calls (spec 001 §7) and inventory's own extra event.

/** Minimum units below which a product is low stock (default LOW_STOCK_THRESHOLD). Stream `stock-<productId>`. */
export const StockMinimumSet = z.object({
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  minimum: z.number().int().min(0),
});
export type StockMinimumSet = z.infer<typeof StockMinimumSet>;

const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v);

/** POST /api/inventory/adjust (spec 001 §5 messages). `newStock` is the units counted on the shelf. */
export const AdjustInventoryRequest = z.object({
  productId: z.string({ error: InventoryMessages.invalidProductId }).uuid(InventoryMessages.invalidProductId),
  newStock: z.preprocess(
    numeric,
    z
      .number({ error: InventoryMessages.stockInvalid })
      .int(InventoryMessages.stockInvalid)
      .min(0, InventoryMessages.stockNegative)
      .max(1_000_000, InventoryMessages.stockInvalid),
  ),
  reason: z.string({ error: InventoryMessages.reasonRequired }).trim().min(1, InventoryMessages.reasonRequired).max(500),
  adjustmentType: AdjustmentType,
  /** Optional: the same id again records nothing more (a retried click). */
  adjustmentId: z.string().uuid().optional(),
});
export type AdjustInventoryRequest = z.input<typeof AdjustInventoryRequest>;

/** PUT /api/inventory/{productId}/minimum. */
export const SetMinimumRequest = z.object({
  minimum: z.preprocess(numeric, z.number({ error: 'El mínimo debe ser un número entero mayor o igual a 0.' }).int('El mínimo debe ser un número entero mayor o igual a 0.').min(0, 'El mínimo debe ser un número entero mayor o igual a 0.').max(1_000_000)),
});

export const OwnerStockLevelName = z.enum(['out', 'low', 'medium', 'high']);

/** One product of GET /api/inventory. */
export const InventoryItem = z.object({
  id: z.string(),
  name: z.string(),
  sku: z.string().nullable(),
  categoryId: z.string().nullable(),
  categoryName: z.string().nullable(),
  /** Units on the shelf. */
  stock: z.number().int(),
  /** Units held by pending orders. */
  reserved: z.number().int(),
  /** stock − reserved: what can still be sold. */
  available: z.number().int(),
  level: OwnerStockLevelName,
  minimum: z.number().int(),
  lowStock: z.boolean(),
  adjustmentsCount: z.number().int(),
  updatedAt: z.string().nullable(),
});
export type InventoryItem = z.infer<typeof InventoryItem>;

export const LedgerKind = z.enum(['opening', 'adjustment', 'reserved', 'released', 'sold']);
export type LedgerKind = z.infer<typeof LedgerKind>;

/** One line of the stock ledger (GET /api/inventory/history[/{productId}]), newest first. */
export const LedgerEntry = z.object({
  id: z.string(),
  productId: z.string(),
  productName: z.string(),
  storeId: z.string(),
  kind: LedgerKind,
  adjustmentType: AdjustmentType.nullable(),
  /** On hand before and after the line; `adjustment` is the signed change of on hand. */
  oldStock: z.number().int(),
  newStock: z.number().int(),
  adjustment: z.number().int(),
  /** Units of the order line (reserved, released, sold). */
  quantity: z.number().int().nullable(),
  reserved: z.number().int(),
  reason: z.string().nullable(),
  adjustedBy: z.string().nullable(),
  orderId: z.string().nullable(),
  orderCode: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof LedgerEntry>;
