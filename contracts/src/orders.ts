import { z } from 'zod';
import { OrderMessages } from './order-constants';
import { OrderStatus, OrderType, PaymentMethod, PaymentStatus } from './ordering-events';

// HTTP shapes of the ordering service (spec 001 §3, §5, §7, §8). Amounts in quetzales with 2 decimals.

export { OrderMessages };

/** Page sizes of the orders list (spec §9). */
export const ORDER_PAGE_SIZES = [5, 10, 20, 50] as const;
/** The largest page GET /api/orders answers (any whole size from 1 up to it). */
export const ORDER_MAX_PAGE_SIZE = 100;

/**
 * A cart line: `productId` and `quantity`; the spec's cart line (§3: product, quantity, price) is
 * taken too, its product's `id` standing for `productId` (one of the two is required: 'Producto
 * inválido'). A price sent is ignored.
 */
const cartLine = z.object({
  productId: z.string({ error: 'Producto inválido' }).optional(),
  product: z.object({ id: z.string({ error: 'Producto inválido' }) }, { error: 'Producto inválido' }).passthrough().optional(),
  quantity: z.unknown(),
});

/** POST /api/public/orders/{store}. `items` or `cart` carry the lines; prices sent are ignored. */
export const PublicOrderRequest = z.object({
  customerData: z
    .object({
      name: z.unknown().optional(),
      phone: z.unknown().optional(),
      address: z.unknown().optional(),
      notes: z.unknown().optional(),
      email: z.unknown().optional(),
    })
    .passthrough()
    .optional(),
  items: z.array(cartLine.passthrough()).optional(),
  cart: z.array(cartLine.passthrough()).optional(),
});
export type PublicOrderRequest = z.infer<typeof PublicOrderRequest>;

/** POST /api/orders (POS sale). Totals and prices sent are ignored: the server recomputes them. */
export const PosOrderRequest = z.object({
  customerName: z.unknown().optional(),
  customerPhone: z.unknown().optional(),
  customerNit: z.unknown().optional(),
  customerEmail: z.unknown().optional(),
  orderType: z.unknown().optional(),
  paymentMethod: z.unknown().optional(),
  paymentStatus: z.unknown().optional(),
  status: z.unknown().optional(),
  total: z.unknown().optional(),
  subtotal: z.unknown().optional(),
  cashReceived: z.unknown().optional(),
  notes: z.unknown().optional(),
  items: z.array(cartLine.passthrough()).optional(),
});
export type PosOrderRequest = z.infer<typeof PosOrderRequest>;

export const UpdateOrderStatusRequest = z.object({
  status: z.string({ error: OrderMessages.invalidStatus }),
  notes: z.string({ error: 'Las notas deben ser texto.' }).max(1000, OrderMessages.notesTooLong).nullish(),
});

export const OrderItemView = z.object({
  productId: z.string(),
  productName: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  /** Unit price charged (discount applied), quetzales. */
  price: z.number(),
  lineTotal: z.number(),
});
export type OrderItemView = z.infer<typeof OrderItemView>;

export const OrderView = z.object({
  id: z.string(),
  storeId: z.string(),
  code: z.string(),
  customerName: z.string().nullable(),
  customerPhone: z.string().nullable(),
  customerAddress: z.string().nullable(),
  customerEmail: z.string().nullable(),
  customerNit: z.string().nullable(),
  subtotal: z.number(),
  tax: z.number(),
  total: z.number(),
  status: OrderStatus,
  orderType: OrderType,
  paymentMethod: PaymentMethod.nullable(),
  paymentStatus: PaymentStatus,
  notes: z.string().nullable(),
  whatsappMessage: z.string().nullable(),
  items: z.array(OrderItemView),
  cashReceived: z.number().nullable(),
  change: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type OrderView = z.infer<typeof OrderView>;

export const OrderListResponse = z.object({
  orders: z.array(OrderView),
  total: z.number().int(),
  totalPages: z.number().int(),
  currentPage: z.number().int(),
});
export type OrderListResponse = z.infer<typeof OrderListResponse>;

export const OrderHistoryEntry = z.object({
  id: z.string(),
  orderId: z.string(),
  status: OrderStatus,
  previousStatus: OrderStatus.nullable(),
  notes: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Spec §3: the screens read action, timestamp and notes. The status reached, and createdAt again. */
  action: OrderStatus,
  timestamp: z.string(),
});
export type OrderHistoryEntry = z.infer<typeof OrderHistoryEntry>;

/** 201 of POST /api/public/orders/{store}. */
export const PublicOrderResponse = z.object({
  id: z.string(),
  code: z.string(),
  status: z.literal('pending'),
  items: z.array(OrderItemView),
  subtotal: z.number(),
  tax: z.number(),
  total: z.number(),
  whatsappMessage: z.string(),
  /** https://wa.me/<digits>?text=…, or null when the store has no WhatsApp number ('WhatsApp no configurado'). */
  whatsappUrl: z.string().nullable(),
});
export type PublicOrderResponse = z.infer<typeof PublicOrderResponse>;
