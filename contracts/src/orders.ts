import { z } from 'zod';
import { receiverIdError } from './fel';
import { OfflineSale } from './offline-sale';
import { OrderMessages } from './order-constants';
import { MAX_AMOUNT_CENTAVOS, OrderStatus, OrderType, PaymentMethod, PaymentRecordMethod, PaymentStatus } from './ordering-events';

// HTTP shapes of the ordering service (spec 001 §3, §5, §7, §8). Amounts in quetzales with 2 decimals.

export { OrderMessages };

/** Page sizes of the orders list (spec §9). */
export const ORDER_PAGE_SIZES = [5, 10, 20, 50] as const;
/** The largest page GET /api/orders answers (any whole size from 1 up to it). */
export const ORDER_MAX_PAGE_SIZE = 100;
/** The largest page number GET /api/orders takes. */
export const ORDER_MAX_PAGE = 1_000_000;
/** The most distinct products one order may carry. */
export const ORDER_MAX_LINES = 100;
/** The most units of one product one line may carry. */
export const ORDER_MAX_QUANTITY = 100_000;
/** Sort keys of GET /api/orders (spec §2: id, total, status, createdAt). */
export const ORDER_SORT_KEYS = ['id', 'total', 'status', 'createdAt'] as const;

/** NUL and every other control character but tab and line breaks, which multi-line fields keep. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
/** Every control character: one-line fields (name, phone, NIT…) refuse line breaks too. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_ONE_LINE = /[\u0000-\u001f\u007f]/;

/** A number or a numeric string as a number; '' and null as absent. */
const numeric = (v: unknown) => (v === '' || v === null ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v);
/** A trimmed text (a number is taken as its digits); '' and null as absent. */
const trimmed = (v: unknown) => {
  const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : v;
  return s === '' || s === null ? undefined : s;
};

/** An optional text of at most `max` characters without control characters (`multiLine` keeps tab and line breaks). */
export function orderText(max: number, tooLong: string, multiLine = false, invalid = tooLong) {
  return z.preprocess(
    trimmed,
    z
      .string({ error: invalid })
      .max(max, tooLong)
      .refine((s) => !(multiLine ? CONTROL : CONTROL_ONE_LINE).test(s), OrderMessages.controlCharacters)
      .optional(),
  );
}

/** An amount in quetzales: more than 0, at most 2 decimals, at most 99,999,999.99 (spec §9: decimal 10,2). */
export function quetzalesAmount(invalid: string = OrderMessages.amountInvalid, min = 0.01) {
  return z
    .number({ error: invalid })
    .refine(Number.isFinite, invalid)
    .refine((n) => n >= min, invalid)
    .refine((n) => Math.abs(Math.round(n * 100) - n * 100) < 1e-6, invalid)
    .refine((n) => Math.round(n * 100) <= MAX_AMOUNT_CENTAVOS, OrderMessages.amountTooLarge);
}
const amount = () => z.preprocess(numeric, quetzalesAmount());
const cashReceived = () => z.preprocess(numeric, quetzalesAmount(OrderMessages.cashReceivedInvalid, 0).optional());

/**
 * A cart line: `productId` and `quantity`; the spec's cart line (§3: product, quantity, price) is
 * taken too, its product's `id` standing for `productId` (one of the two is required: 'Producto
 * inválido'). A price sent is ignored.
 */
const CartLine = z
  .object(
    {
      productId: z.preprocess(trimmed, z.string({ error: OrderMessages.productInvalid }).max(100, OrderMessages.productInvalid).optional()),
      product: z.object({ id: z.preprocess(trimmed, z.string({ error: OrderMessages.productInvalid }).max(100, OrderMessages.productInvalid)) }, { error: OrderMessages.productInvalid }).optional(),
      quantity: z.preprocess(
        numeric,
        z.number({ error: OrderMessages.quantityInvalid }).int(OrderMessages.quantityInvalid).min(1, OrderMessages.quantityInvalid).max(ORDER_MAX_QUANTITY, OrderMessages.quantityInvalid),
      ),
    },
    { error: OrderMessages.productInvalid },
  )
  .transform((l, ctx) => {
    // `productId`, when sent, names the product (as before); else the spec's `product.id`.
    const productId = 'productId' in l && l.productId !== undefined ? l.productId : l.product?.id;
    if (!productId) {
      ctx.addIssue({ code: 'custom', message: OrderMessages.productInvalid, path: ['productId'] });
      return z.NEVER;
    }
    return { productId, quantity: l.quantity };
  });

/** The cart: 1 to 100 lines, each product's quantities added up. */
const Cart = z.preprocess(
  (v) => (v === undefined || v === null ? [] : v),
  z
    .array(CartLine, { error: OrderMessages.emptyCart })
    .min(1, OrderMessages.emptyCart)
    .max(ORDER_MAX_LINES, OrderMessages.tooManyLines)
    .transform((lines) => {
      const merged = new Map<string, number>();
      for (const l of lines) merged.set(l.productId, (merged.get(l.productId) ?? 0) + l.quantity);
      return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
    }),
);
export type CartLines = z.output<typeof Cart>;

const required = (max: number, tooLong: string) =>
  z.preprocess(trimmed, z.string({ error: OrderMessages.customerRequired }).max(max, tooLong).refine((s) => !CONTROL_ONE_LINE.test(s), OrderMessages.controlCharacters));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** POST /api/public/orders/{store}. `items` or `cart` carry the lines (as `lines`); prices and totals sent are ignored. */
export const PublicOrderRequest = z.preprocess(
  (b) => (isRecord(b) ? { customerData: b.customerData ?? {}, lines: b.items ?? b.cart } : b),
  z.object({
    customerData: z.object(
      {
        name: required(255, OrderMessages.nameTooLong),
        phone: required(20, OrderMessages.phoneTooLong),
        address: orderText(1000, OrderMessages.addressTooLong, true),
        notes: orderText(1000, OrderMessages.notesTooLong, true),
        email: orderText(255, OrderMessages.emailTooLong),
      },
      { error: OrderMessages.customerRequired },
    ),
    lines: Cart,
  }),
);
export type PublicOrderRequest = z.output<typeof PublicOrderRequest>;

/** The methods the POS takes (kash and zigi are refused as 'Próximamente' by the order's rules). */
export const PosPaymentMethod = z.enum(['cash', 'card', 'kash', 'zigi'], { error: OrderMessages.invalidPaymentMethod });
export type PosPaymentMethod = z.infer<typeof PosPaymentMethod>;

/**
 * POST /api/orders (POS sale). The spec's payload also carries total, subtotal, orderType,
 * paymentStatus and status: the server decides those (a POS sale is completed and paid, priced by
 * the server), so they are not read.
 */
export const PosOrderRequest = z.object({
  customerName: orderText(255, OrderMessages.nameTooLong),
  customerPhone: orderText(20, OrderMessages.phoneTooLong),
  // The receiver of the sale's invoice: CF, a NIT with its check digit or a 13-digit CUI (issue 25), refused before the sale.
  customerNit: orderText(20, OrderMessages.nitTooLong).superRefine((value, ctx) => {
    const error = value ? receiverIdError(value) : null;
    if (error) ctx.addIssue({ code: 'custom', message: error });
  }),
  customerEmail: orderText(255, OrderMessages.emailTooLong),
  paymentMethod: z.preprocess(trimmed, PosPaymentMethod.default('cash')),
  cashReceived: cashReceived(),
  notes: orderText(1000, OrderMessages.notesTooLong, true),
  items: Cart,
  /** A sale made offline on the device, sent when the connection came back (issue 28). */
  offline: OfflineSale.optional(),
});
export type PosOrderRequest = z.output<typeof PosOrderRequest>;

/** PUT /api/orders/{id}/status. Cancelling a paid order refunds what was paid (by `refundMethod` when named, else by each method paid). */
export const UpdateOrderStatusRequest = z.object({
  status: z.preprocess(trimmed, z.enum(OrderStatus.options, { error: OrderMessages.invalidStatus })),
  notes: orderText(1000, OrderMessages.notesTooLong, true, 'Las notas deben ser texto.'),
  refundMethod: z.preprocess(trimmed, z.enum(PaymentRecordMethod.options, { error: OrderMessages.invalidPaymentMethod }).optional()),
});
export type UpdateOrderStatusRequest = z.output<typeof UpdateOrderStatusRequest>;

const RecordMethod = z.preprocess(trimmed, z.enum(PaymentRecordMethod.options, { error: OrderMessages.invalidPaymentMethod }));

/** POST /api/orders/{id}/payments. `cashReceived` only for cash, at least the amount (the change is the rest). */
export const RecordPaymentRequest = z.object({
  method: RecordMethod,
  amount: amount(),
  reference: orderText(100, OrderMessages.referenceTooLong),
  cashReceived: cashReceived(),
});
export type RecordPaymentRequest = z.output<typeof RecordPaymentRequest>;

/** POST /api/orders/{id}/refunds. Never more than the net paid. */
export const RefundPaymentRequest = z.object({
  method: RecordMethod,
  amount: amount(),
  reason: orderText(500, OrderMessages.reasonTooLong, true),
});
export type RefundPaymentRequest = z.output<typeof RefundPaymentRequest>;

const filter = <T extends z.ZodType>(schema: T, message: string) =>
  z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), z.union([schema, z.undefined()], { error: message }));
const day = (message: string) => z.preprocess((v) => (typeof v === 'string' ? v.trim().slice(0, 10) || undefined : v), z.string({ error: message }).regex(/^\d{4}-\d{2}-\d{2}$/, message).optional());
const whole = (fallback: number, max: number, message: string) =>
  z.preprocess((v) => (v === undefined || v === '' ? fallback : numeric(v)), z.number({ error: message }).int(message).min(1, message).max(max, message));

/** GET /api/orders query: every key checked before it reaches SQL (a sort key is one of ORDER_SORT_KEYS). */
export const ListOrdersQuery = z.object({
  search: orderText(200, OrderMessages.searchTooLong),
  status: filter(OrderStatus, OrderMessages.invalidStatus),
  paymentStatus: filter(PaymentStatus, OrderMessages.invalidPaymentStatus),
  orderType: filter(OrderType, OrderMessages.invalidOrderType),
  startDate: day(OrderMessages.invalidStartDate),
  endDate: day(OrderMessages.invalidEndDate),
  page: whole(1, ORDER_MAX_PAGE, OrderMessages.invalidPage),
  limit: whole(10, ORDER_MAX_PAGE_SIZE, OrderMessages.invalidPageSize),
  sortBy: z.preprocess((v) => (v === '' || v === undefined ? 'createdAt' : v), z.enum(ORDER_SORT_KEYS, { error: OrderMessages.invalidSortBy })),
  sortOrder: z.preprocess((v) => (v === '' || v === undefined ? 'desc' : typeof v === 'string' ? v.toLowerCase() : v), z.enum(['asc', 'desc'], { error: OrderMessages.invalidSortOrder })),
});
export type ListOrdersQuery = z.output<typeof ListOrdersQuery>;

export const OrderItemView = z.object({
  productId: z.string(),
  productName: z.string(),
  sku: z.string().nullable(),
  quantity: z.number().int(),
  /** Unit price charged (discount applied), quetzales. */
  price: z.number(),
  lineTotal: z.number(),
  /** Offline sale at an old price: the catalogue's unit price then (quetzales); absent otherwise. */
  listPrice: z.number().optional(),
});
export type OrderItemView = z.infer<typeof OrderItemView>;

/** A payment of an order (quetzales); `recordedBy` is the author's name. */
export const PaymentView = z.object({
  id: z.string(),
  method: PaymentRecordMethod,
  amount: z.number(),
  reference: z.string().nullable(),
  cashReceived: z.number().nullable(),
  change: z.number().nullable(),
  recordedBy: z.string(),
  recordedAt: z.string(),
});
export type PaymentView = z.infer<typeof PaymentView>;

/** A refund of an order (quetzales); `refundedBy` is the author's name. */
export const RefundView = z.object({
  id: z.string(),
  method: PaymentRecordMethod,
  amount: z.number(),
  reason: z.string().nullable(),
  refundedBy: z.string(),
  refundedAt: z.string(),
});
export type RefundView = z.infer<typeof RefundView>;

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
  payments: z.array(PaymentView),
  refunds: z.array(RefundView),
  /** Net paid (payments − refunds) and what is still owed, quetzales. */
  amountPaid: z.number(),
  balanceDue: z.number(),
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
  /** The author's name ('Sistema' for the system), never a raw id. */
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
