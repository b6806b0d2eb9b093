import { monthOf } from '../shared/time';

/** An order's row of the orders table, as a batch reads it back. */
export interface OrderRow {
  order_id: string;
  store_id: string;
  day: string;
  hour: number;
  order_type: string;
  payment_method: string | null;
  status: string;
  total: string;
  items: Line[];
}

/** One line of an order, as the product aggregates need it. */
export type Line = { productId: string; productName: string; quantity: number; lineTotal: number };

/** An order as the aggregates need it, and its status as the batch leaves it. */
export interface Row {
  storeId: string;
  day: string;
  hour: number;
  orderType: string;
  paymentMethod: string | null;
  status: string;
  /** The last change folded in this batch (null: unchanged here). */
  updatedAt: string | null;
  total: number;
  items: Line[];
}

export interface SalesDelta {
  storeId: string;
  day: string;
  hour: number;
  orderType: string;
  paymentMethod: string;
  orders: number;
  amount: number;
}

export interface ProductDelta {
  storeId: string;
  /** The day, or the first day of the month. */
  at: string;
  productId: string;
  name: string;
  units: number;
  amount: number;
}

/** What a batch adds to (or takes from) each aggregate, by its key. */
export interface Deltas {
  hourly: Map<string, SalesDelta>;
  daily: Map<string, SalesDelta>;
  dailyProducts: Map<string, ProductDelta>;
  monthlyProducts: Map<string, ProductDelta>;
}

export const newDeltas = (): Deltas => ({ hourly: new Map(), daily: new Map(), dailyProducts: new Map(), monthlyProducts: new Map() });

/**
 * Adds (sign 1) or takes back (sign −1) one order in the batch's deltas. A key touched keeps its
 * row even when its delta nets to zero, and a product's name is the last one written, so any
 * batching of the same events leaves the same rows.
 */
export function count(d: Deltas, o: Row, sign: 1 | -1): void {
  const method = o.paymentMethod ?? 'none';
  addSale(d.hourly, `${o.storeId}|${o.day}|${o.hour}|${o.orderType}|${method}`, o, method, sign);
  addSale(d.daily, `${o.storeId}|${o.day}|${o.orderType}|${method}`, o, method, sign);
  const month = monthOf(o.day);
  // Two lines of one product in an order: the first line names it.
  const namedDay = new Set<string>();
  const namedMonth = new Set<string>();
  for (const line of o.items) {
    addProduct(d.dailyProducts, o.storeId, o.day, line, sign, namedDay);
    addProduct(d.monthlyProducts, o.storeId, month, line, sign, namedMonth);
  }
}

function addSale(map: Map<string, SalesDelta>, key: string, o: Row, method: string, sign: 1 | -1): void {
  const x = map.get(key);
  if (x) {
    x.orders += sign;
    x.amount += sign * o.total;
  } else {
    map.set(key, { storeId: o.storeId, day: o.day, hour: o.hour, orderType: o.orderType, paymentMethod: method, orders: sign, amount: sign * o.total });
  }
}

function addProduct(map: Map<string, ProductDelta>, storeId: string, at: string, line: Line, sign: 1 | -1, named: Set<string>): void {
  const key = `${storeId}|${at}|${line.productId}`;
  const x = map.get(key);
  if (x) {
    x.units += sign * line.quantity;
    x.amount += sign * line.lineTotal;
    if (!named.has(key)) x.name = line.productName;
  } else {
    map.set(key, { storeId, at, productId: line.productId, name: line.productName, units: sign * line.quantity, amount: sign * line.lineTotal });
  }
  named.add(key);
}
