import { z } from 'zod';

// Inventory's events (stream `stock-<productId>`): catalog projects stock from them, ordering and
// reporting follow them.

/** A product's stock item was opened with its first stock (from catalog's ProductCreated). */
export const StockItemOpened = z.object({
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  stock: z.number().int().min(0),
});
export type StockItemOpened = z.infer<typeof StockItemOpened>;

export const AdjustmentType = z.enum(['manual', 'correction', 'restock', 'damaged', 'return'], { error: 'Tipo de ajuste inválido' });
export type AdjustmentType = z.infer<typeof AdjustmentType>;

export const StockAdjusted = z.object({
  adjustmentId: z.string().uuid(),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  adjustmentType: AdjustmentType,
  oldStock: z.number().int(),
  newStock: z.number().int(),
  adjustment: z.number().int(),
  reason: z.string(),
  adjustedBy: z.string(),
});
export type StockAdjusted = z.infer<typeof StockAdjusted>;


// Reservations (spec: ARCHITECTURE.md, Consistency). Stream `stock-<productId>`, one event per product line.

/** Units held for an order (public or POS) before the order exists; they leave `available`, not `onHand`. */
export const StockReserved = z.object({
  orderId: z.string().uuid(),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  quantity: z.number().int().min(1),
  /** When inventory releases the units if no OrderPlaced for the order has arrived. */
  expiresAt: z.string(),
});
export type StockReserved = z.infer<typeof StockReserved>;

/** Held units given back: the order was cancelled, or never appeared before expiresAt. */
export const StockReservationReleased = z.object({
  orderId: z.string().uuid(),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  quantity: z.number().int().min(1),
  reason: z.enum(['cancelled', 'expired']),
});
export type StockReservationReleased = z.infer<typeof StockReservationReleased>;

/** Units left the shelf for an order: a POS sale at once, a public order when it goes out for delivery. */
export const StockSold = z.object({
  orderId: z.string().uuid(),
  productId: z.string().uuid(),
  storeId: z.string().uuid(),
  quantity: z.number().int().min(1),
  /** On hand after the sale. */
  onHand: z.number().int(),
});
export type StockSold = z.infer<typeof StockSold>;

/** Every inventory event type other services read, with its payload schema. */
export const InventoryStockEventSchemas = { StockItemOpened, StockAdjusted, StockReserved, StockReservationReleased, StockSold } as const;
export type InventoryStockEventType = keyof typeof InventoryStockEventSchemas;
