import { publicStockLevel, type StockLevel } from '../lib/contracts';

const LABELS: Record<StockLevel, (stock: number) => string> = {
  out: () => 'Agotado',
  low: (stock) => (stock === 1 ? '¡Última unidad!' : `Solo quedan ${stock}`),
  medium: () => 'Pocas unidades',
  high: () => 'En stock',
};

/** The public stock badge of spec 001 §4: 0 Agotado, 1-5 low, 6-10 medium, above 10 in stock. */
export function StockBadge({ stock }: { stock: number }) {
  const level = publicStockLevel(stock);
  return <span className={`shop-stock shop-stock--${level}`}>{LABELS[level](stock)}</span>;
}
