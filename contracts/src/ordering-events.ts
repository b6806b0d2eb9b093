import { z } from 'zod';

// Ordering's events (stream `order-<orderId>`). Inventory releases and sells reserved stock from
// them, reporting builds the dashboard and reports from them. Money in integer centavos.

export const OrderStatus = z.enum(['pending', 'confirmed', 'preparing', 'ready', 'out_for_delivery', 'delivered', 'completed', 'cancelled']);
export type OrderStatus = z.infer<typeof OrderStatus>;
export const OrderType = z.enum(['whatsapp', 'pos']);
export type OrderType = z.infer<typeof OrderType>;
export const PaymentStatus = z.enum(['pending', 'paid', 'failed']);
export type PaymentStatus = z.infer<typeof PaymentStatus>;
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

/** Every ordering event type with its payload schema (consumers validate what they read). */
export const OrderingEventSchemas = { OrderPlaced, OrderStatusChanged } as const;
export type OrderingEventType = keyof typeof OrderingEventSchemas;
