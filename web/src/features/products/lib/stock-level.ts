import { ownerStockLevel, type StockLevel } from '@tiendita/contracts';

/** Owner views' stock levels (spec 001 §4): 0 Agotado, 1-5 low, 6-20 medium, above 20 high. */
export const OWNER_STOCK_LABELS: Record<StockLevel, { label: string; color: string }> = {
  out: { label: 'Agotado', color: 'red' },
  low: { label: 'Stock bajo', color: 'orange' },
  medium: { label: 'Stock medio', color: 'gold' },
  high: { label: 'Stock alto', color: 'green' },
};

export function ownerStock(stock: number): { level: StockLevel; label: string; color: string } {
  const level = ownerStockLevel(stock);
  return { level, ...OWNER_STOCK_LABELS[level] };
}
