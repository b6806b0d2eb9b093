import { z } from 'zod';

// Ordering's events (stream `order-<orderId>`). Inventory releases and sells reserved stock from
// them, reporting builds the dashboard and reports from them. Money in integer centavos.

export const OrderStatus = z.enum(['pending', 'confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed', 'cancelled']);
export type OrderStatus = z.infer<typeof OrderStatus>;
export const OrderType = z.enum(['whatsapp', 'pos']);
export type OrderType = z.infer<typeof OrderType>;
// New values go last: reporting stores a status as its index in this list.
export const PaymentStatus = z.enum(['pending', 'paid', 'failed', 'partial', 'refunded']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;

/**
 * An order's payment status from the money recorded for it (centavos): all of the total paid is
 * 'paid', part of it 'partial'; nothing paid on balance is 'refunded' once something came back, and
 * otherwise the status it had unpaid ('pending', or what a legacy order was placed with). Ordering
 * decides with it, its orders view and reporting show it.
 */
export function paymentStatusOf(total: number, netPaid: number, refunded: boolean, unpaid: PaymentStatus = 'pending'): PaymentStatus {
  if (netPaid <= 0) return refunded ? 'refunded' : unpaid;
  return netPaid >= total ? 'paid' : 'partial';
}
export const PaymentMethod = z.enum(['cash', 'card', 'kash', 'zigi', 'whatsapp']);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

/** One line as charged: the server's price at the time of the order. */
export const OrderLine = z.object({
  productId: z.string().uuid(),
  productName: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int().min(1),
  /** Unit price charged, centavos (discount applied). */
  unitPrice: z.number().int().min(0),
  /** quantity × unitPrice, centavos. */
  lineTotal: z.number().int().min(0),
  /** An offline sale charged a price the device showed: the catalogue's price then, when it was another (issue 28). */
  listPrice: z.number().int().min(0).optional(),
});
export type OrderLine = z.infer<typeof OrderLine>;

/** A public (WhatsApp) order or a POS sale was placed, after its stock was reserved. */
export const OrderPlaced = z.object({
  orderId: z.string().uuid(),
  storeId: z.string().uuid(),
  /** Short code, unique in the store, easy to read out over the phone. */
  code: z.string(),
  orderType: OrderType,
  status: OrderStatus,
  paymentMethod: PaymentMethod.nullable(),
  paymentStatus: PaymentStatus,
  customerName: z.string(),
  customerPhone: z.string().nullable(),
  customerAddress: z.string().nullable(),
  customerEmail: z.string().nullable(),
  customerNit: z.string().nullable(),
  notes: z.string().nullable(),
  items: z.array(OrderLine).min(1),
  subtotal: z.number().int(),
  tax: z.number().int(),
  total: z.number().int(),
  /** Cash handed over and change given back (POS cash sales), centavos. */
  cashReceived: z.number().int().nullable(),
  change: z.number().int().nullable(),
  whatsappMessage: z.string().nullable(),
  placedBy: z.string(),
  placedAt: z.string(),
  /** A POS sale made offline on a device (issue 28): its id there, the receipt's local number, when it was sold. */
  offline: z.object({ deviceSaleId: z.string(), localNumber: z.string(), soldAt: z.string() }).optional(),
});
export type OrderPlaced = z.infer<typeof OrderPlaced>;

/** An order moved to another status (forward step or cancellation), with an optional note. */
export const OrderStatusChanged = z.object({
  orderId: z.string().uuid(),
  storeId: z.string().uuid(),
  status: OrderStatus,
  previousStatus: OrderStatus,
  notes: z.string().nullable(),
  /** Who changed it: the owner's name, or 'system' for an automatic cancellation. */
  changedBy: z.string(),
  changedAt: z.string(),
});
export type OrderStatusChanged = z.infer<typeof OrderStatusChanged>;

/** Largest amount a sale, a line, a payment or cash received may carry (spec §5: decimal 10,2), centavos. */
export const MAX_AMOUNT_CENTAVOS = 9_999_999_999;
const Amount = z.number().int().min(1).max(MAX_AMOUNT_CENTAVOS);

/** How money changed hands when a payment is recorded or refunded. */
export const PaymentRecordMethod = z.enum(['cash', 'card', 'transfer', 'other']);
export type PaymentRecordMethod = z.infer<typeof PaymentRecordMethod>;

/**
 * Money was received for an order. Since payments exist an order is always placed with
 * paymentStatus 'pending' and a POS sale appends its PaymentRecorded in the same batch as its
 * OrderPlaced. An OrderPlaced written before (paymentStatus 'paid', no PaymentRecorded after it)
 * is read as one payment of its total by its paymentMethod.
 */
export const PaymentRecorded = z.object({
  orderId: z.string().uuid(),
  storeId: z.string().uuid(),
  paymentId: z.string().uuid(),
  method: PaymentRecordMethod,
  /** Amount applied to the order, centavos (never more than the balance due). */
  amount: Amount,
  /** Bank or card reference (a transfer's number), if any. */
  reference: z.string().nullable(),
  /** Cash handed over and change given back (cash only), centavos. */
  cashReceived: z.number().int().min(0).max(MAX_AMOUNT_CENTAVOS).nullable(),
  change: z.number().int().min(0).max(MAX_AMOUNT_CENTAVOS).nullable(),
  /** Total paid so far and the resulting payment status, after this payment. */
  paidTotal: z.number().int().min(0).max(MAX_AMOUNT_CENTAVOS),
  paymentStatus: PaymentStatus,
  /** The author's display name (never a raw id) and user id. */
  recordedBy: z.string(),
  recordedById: z.string(),
  recordedAt: z.string(),
});
export type PaymentRecorded = z.infer<typeof PaymentRecorded>;

/** Money was given back (a paid order cancelled, or a refund recorded on its own). */
export const PaymentRefunded = z.object({
  orderId: z.string().uuid(),
  storeId: z.string().uuid(),
  refundId: z.string().uuid(),
  method: PaymentRecordMethod,
  amount: Amount,
  reason: z.string().nullable(),
  /** Net paid after this refund, centavos. */
  paidTotal: z.number().int().min(0).max(MAX_AMOUNT_CENTAVOS),
  refundedBy: z.string(),
  refundedById: z.string(),
  refundedAt: z.string(),
});
export type PaymentRefunded = z.infer<typeof PaymentRefunded>;

/** Every ordering event type with its payload schema (consumers validate what they read). */
export const OrderingEventSchemas = { OrderPlaced, OrderStatusChanged, PaymentRecorded, PaymentRefunded } as const;
export type OrderingEventType = keyof typeof OrderingEventSchemas;
