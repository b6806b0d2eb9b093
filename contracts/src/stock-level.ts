// Low stock and the stock levels (issue 24: one home). zod-free, so the browser imports it from
// `@tiendita/contracts/constants`; the services' SQL builds its predicates with the helpers below,
// so a filter, a count and a tag never disagree about the same product.

/** The minimum a product has until its owner sets another: low stock is this many units or fewer (spec 001 §9). */
export const LOW_STOCK_THRESHOLD = 5;

/** Owner views: above the minimum, medium up to this many units, high above it (spec 001 §4). */
export const OWNER_MEDIUM_MAX = 20;

/** The shop's badge: low up to LOW_STOCK_THRESHOLD, medium up to this many units, in stock above (spec 001 §4). */
export const PUBLIC_MEDIUM_MAX = 10;

export type StockLevel = 'out' | 'low' | 'medium' | 'high';

/**
 * Low stock: the available units at or below the product's own minimum (sold out included). The
 * product's minimum wins everywhere: the inventory list and its tags, the products filter and
 * cards, the bell, the dashboard and the reports.
 */
export function isLowStock(available: number, minimum: number = LOW_STOCK_THRESHOLD): boolean {
  return available <= minimum;
}

/** The owner's level of a product: Agotado at 0, low at or below its minimum, then medium up to 20 and high. */
export function ownerStockLevel(available: number, minimum: number = LOW_STOCK_THRESHOLD): StockLevel {
  if (available <= 0) return 'out';
  if (isLowStock(available, minimum)) return 'low';
  if (available <= OWNER_MEDIUM_MAX) return 'medium';
  return 'high';
}

/** The owner's level names and the colours of their tags (antd preset colours). */
export const OWNER_STOCK_LABELS: Record<StockLevel, { label: string; color: string }> = {
  out: { label: 'Agotado', color: 'red' },
  low: { label: 'Stock bajo', color: 'orange' },
  medium: { label: 'Stock medio', color: 'gold' },
  high: { label: 'Stock alto', color: 'green' },
};

/** The owner's tag text of a product: 'Stock bajo (mín. 10)' names the minimum it is measured against. */
export function ownerStockLabel(available: number, minimum: number = LOW_STOCK_THRESHOLD): string {
  const level = ownerStockLevel(available, minimum);
  return level === 'low' ? `${OWNER_STOCK_LABELS.low.label} (mín. ${minimum})` : OWNER_STOCK_LABELS[level].label;
}

/**
 * isLowStock as a SQL condition over the caller's column expressions (trusted SQL text, never user
 * input), e.g. `lowStockSql('p.stock - p.reserved', 'p.minimum')` → `(p.stock - p.reserved) <= p.minimum`.
 */
export function lowStockSql(available: string, minimum: string): string {
  return `(${available}) <= ${minimum}`;
}

/** The owner level as a SQL number: 0 out of stock, 1 low (above 0, at or below the minimum), 2 above the minimum. */
export function stockLevelSql(available: string, minimum: string): string {
  return `CASE WHEN (${available}) <= 0 THEN 0 WHEN ${lowStockSql(available, minimum)} THEN 1 ELSE 2 END`;
}

/**
 * The shop's level (spec 001 §4): fixed thresholds, not the owner's minimum, which the shop never
 * sees: 0 Agotado, 1-5 low, 6-10 medium, above 10 in stock.
 */
export function publicStockLevel(stock: number): StockLevel {
  if (stock <= 0) return 'out';
  if (stock <= LOW_STOCK_THRESHOLD) return 'low';
  if (stock <= PUBLIC_MEDIUM_MAX) return 'medium';
  return 'high';
}

const PUBLIC_STOCK_LABELS: Record<StockLevel, (stock: number) => string> = {
  out: () => 'Agotado',
  low: (stock) => (stock === 1 ? '¡Última unidad!' : `Solo quedan ${stock}`),
  medium: () => 'Pocas unidades',
  high: () => 'En stock',
};

/** The shop's stock badge text (spec 001 §4): Agotado, ¡Última unidad! / Solo quedan n, Pocas unidades, En stock. */
export function publicStockLabel(stock: number): string {
  return PUBLIC_STOCK_LABELS[publicStockLevel(stock)](stock);
}
