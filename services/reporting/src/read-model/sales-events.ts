import { OrderStatus, OrderType, PaymentMethod, PaymentStatus, type OrderPlaced, type OrderStatusChanged } from '@tiendita/contracts';

const ORDER_STATUSES = new Set<string>(OrderStatus.options);
const ORDER_TYPES = new Set<string>(OrderType.options);
const PAYMENT_METHODS = new Set<string>(PaymentMethod.options);
const PAYMENT_STATUSES = new Set<string>(PaymentStatus.options);

const isInt = (x: unknown): x is number => Number.isInteger(x);
const isText = (x: unknown): x is string => typeof x === 'string';
const isTextOrNull = (x: unknown): x is string | null => x === null || typeof x === 'string';

/**
 * OrderPlaced checked field by field against its contract, without the copy a zod parse makes:
 * a rebuild reads a million of them, and parsing was a fifth of its JavaScript time. Ids that are
 * not uuids are refused by their uuid columns. What fails either way is dead-lettered.
 */
export function readOrderPlaced(data: unknown): OrderPlaced {
  const d = data as OrderPlaced;
  const ok =
    typeof d === 'object' && d !== null &&
    isText(d.orderId) && isText(d.storeId) && isText(d.code) && ORDER_TYPES.has(d.orderType) && ORDER_STATUSES.has(d.status) &&
    (d.paymentMethod === null || PAYMENT_METHODS.has(d.paymentMethod)) && PAYMENT_STATUSES.has(d.paymentStatus) &&
    isText(d.customerName) && isTextOrNull(d.customerPhone) && isInt(d.subtotal) && isInt(d.tax) && isInt(d.total) &&
    isText(d.placedAt) && !Number.isNaN(Date.parse(d.placedAt)) && Array.isArray(d.items) && d.items.length > 0 &&
    d.items.every((l) => typeof l === 'object' && l !== null && isText(l.productId) && isText(l.productName) && isInt(l.quantity) && l.quantity >= 1 && isInt(l.lineTotal) && l.lineTotal >= 0);
  if (!ok) throw new Error(`OrderPlaced no cumple su contrato: ${JSON.stringify(data).slice(0, 300)}`);
  return d;
}

export function readStatusChanged(data: unknown): OrderStatusChanged {
  const d = data as OrderStatusChanged;
  const ok = typeof d === 'object' && d !== null && isText(d.orderId) && ORDER_STATUSES.has(d.status) && isText(d.changedAt) && !Number.isNaN(Date.parse(d.changedAt));
  if (!ok) throw new Error(`OrderStatusChanged no cumple su contrato: ${JSON.stringify(data).slice(0, 300)}`);
  return d;
}
