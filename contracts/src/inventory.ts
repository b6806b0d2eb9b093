import { z } from 'zod';
import { InventoryMessages } from './catalog-constants';
import { AdjustmentType } from './inventory-events';

// Internal commands of inventory, called by other services through service-kit's InternalClient.

const stockValue = z
  .number({ error: InventoryMessages.stockInvalid })
  .int(InventoryMessages.stockInvalid)
  .min(0, InventoryMessages.stockNegative)
  .max(1_000_000, InventoryMessages.stockInvalid);

/** POST /internal/stock-items/{productId}/set: the product form's stock edit (catalog → inventory). Idempotent on adjustmentId. */
export const SetStockRequest = z.object({
  adjustmentId: z.string().uuid(),
  newStock: stockValue,
  adjustmentType: AdjustmentType,
  reason: z.string({ error: InventoryMessages.reasonRequired }).trim().min(1, InventoryMessages.reasonRequired).max(500),
  /** Opens the stock item with this value first if ProductCreated has not reached inventory yet. */
  openingStock: stockValue.optional(),
});
export type SetStockRequest = z.infer<typeof SetStockRequest>;

/** A position in inventory's global order (consumers wait for it to read their own write). */
export const EventPosition = z.object({ transactionId: z.string(), globalPosition: z.number() });

export const SetStockResponse = z.object({
  productId: z.string(),
  stock: z.number().int(),
  /** False when nothing changed (same stock, or the adjustment was already applied). */
  adjusted: z.boolean(),
  position: EventPosition.nullable(),
});
export type SetStockResponse = z.infer<typeof SetStockResponse>;

/** The message of a refused reservation (spec 001 §8, POS and checkout): the product and the units left follow it. */
export const OUT_OF_STOCK_MESSAGE = 'Sin Stock';

/**
 * POST /internal/reservations (ordering → inventory): holds stock for an order before the order
 * exists. Idempotent by orderId (the same orderId again answers the same reservation and holds
 * nothing more) and all-or-nothing across the lines. 409 `Sin Stock: <name> (quedan N)` with
 * details `{ productId, productName, available }` when a line cannot be held; 404 for a product
 * of another store or unknown. `sale: true` (a POS sale) takes the units off the shelf at once.
 * A reservation whose order never appears is released by inventory after `holdMs`.
 */
export const ReserveStockRequest = z.object({
  orderId: z.string().uuid(),
  lines: z
    .array(z.object({ productId: z.string().uuid(), quantity: z.number().int().min(1).max(100_000) }))
    .min(1)
    .max(100),
  sale: z.boolean().default(false),
  /** With `sale`: an offline sale (issue 28), never refused for stock; the units it lacks are an alert ('Vendido sin existencias'). */
  allowShort: z.boolean().default(false),
  holdMs: z.number().int().min(1000).max(7 * 24 * 3600 * 1000).optional(),
});
export type ReserveStockRequest = z.input<typeof ReserveStockRequest>;

export const ReserveStockResponse = z.object({
  orderId: z.string().uuid(),
  lines: z.array(z.object({ productId: z.string().uuid(), quantity: z.number().int(), available: z.number().int() })),
  position: EventPosition.nullable(),
});
export type ReserveStockResponse = z.infer<typeof ReserveStockResponse>;
