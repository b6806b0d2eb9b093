import { LOW_STOCK_THRESHOLD, type StockLevel } from '@tiendita/contracts';

/** Above this many units the owner's level is high (spec 001 §4). */
const OWNER_MEDIUM_MAX = 20;

/** Owner views' stock levels (spec 001 §4): 0 Agotado, 1-5 low, 6-20 medium, above 20 high. */
export const OWNER_STOCK_LABELS: Record<StockLevel, { label: string; color: string }> = {
  out: { label: 'Agotado', color: 'red' },
  low: { label: 'Stock bajo', color: 'orange' },
  medium: { label: 'Stock medio', color: 'gold' },
  high: { label: 'Stock alto', color: 'green' },
};

/**
 * The owner's level of a product: low stock is at or below the product's own minimum (set in the
 * inventory screen; 5 unless changed), as the inventory filter, the bell and the dashboard count it.
 * Above the minimum, spec §4's medium (up to 20) and high.
 */
export function ownerStock(stock: number, minimum: number = LOW_STOCK_THRESHOLD): { level: StockLevel; label: string; color: string } {
  const level: StockLevel = stock <= 0 ? 'out' : stock <= minimum ? 'low' : stock <= OWNER_MEDIUM_MAX ? 'medium' : 'high';
  return { level, ...OWNER_STOCK_LABELS[level] };
}
