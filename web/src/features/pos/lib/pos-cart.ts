import { randomUuid } from '../../../lib/uuid';
import type { ProductView } from '@tiendita/contracts';

/** A POS cart line: the price after discount (spec 001 §3), capped at the product's stock. */
export interface PosLine {
  productId: string;
  name: string;
  sku: string | null;
  price: number;
  stock: number;
  quantity: number;
}

export type AddResult = 'added' | 'out-of-stock' | 'capped';

/** Adds `quantity` of a product; zero stock is refused, and the line never goes above stock. */
export function addLine(lines: readonly PosLine[], product: ProductView, quantity: number): { lines: PosLine[]; result: AddResult } {
  if (product.stock <= 0) return { lines: [...lines], result: 'out-of-stock' };
  const existing = lines.find((l) => l.productId === product.id);
  const wanted = (existing?.quantity ?? 0) + quantity;
  const capped = Math.min(wanted, product.stock);
  const line: PosLine = { productId: product.id, name: product.name, sku: product.sku, price: product.finalPrice, stock: product.stock, quantity: capped };
  const next = existing ? lines.map((l) => (l.productId === product.id ? line : l)) : [...lines, line];
  return { lines: next, result: capped < wanted ? 'capped' : 'added' };
}

/** Sets a line's quantity, capped at stock; 0 or less removes the line (spec 001 §5). */
export function setLineQuantity(lines: readonly PosLine[], productId: string, quantity: number): PosLine[] {
  if (!Number.isFinite(quantity) || quantity <= 0) return lines.filter((l) => l.productId !== productId);
  return lines.map((l) => (l.productId === productId ? { ...l, quantity: Math.min(Math.floor(quantity), l.stock) } : l));
}

/** Cart total in quetzales, summed in centavos. */
export function cartTotal(lines: readonly PosLine[]): number {
  return lines.reduce((cents, l) => cents + Math.round(l.price * 100) * l.quantity, 0) / 100;
}

export function cartUnits(lines: readonly PosLine[]): number {
  return lines.reduce((n, l) => n + l.quantity, 0);
}

/** Change to give back, in quetzales (never negative). */
export function changeDue(total: number, received: number): number {
  return Math.max(0, Math.round(received * 100) - Math.round(total * 100)) / 100;
}

/** Quantity-per-click options and quick cash of spec 001 §9. */
export const QUANTITY_OPTIONS = [1, 2, 3, 4, 5, 10] as const;
export const QUICK_CASH = [50, 100, 200, 500] as const;

/** A fresh idempotency key for one checkout attempt. */
export function newIdempotencyKey(): string {
  return randomUuid();
}
