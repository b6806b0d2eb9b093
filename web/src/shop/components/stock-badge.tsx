import { publicStockLabel, publicStockLevel } from '../lib/contracts';

/** The public stock badge of spec 001 §4: 0 Agotado, 1-5 low, 6-10 medium, above 10 in stock. */
export function StockBadge({ stock }: { stock: number }) {
  return <span className={`shop-stock shop-stock--${publicStockLevel(stock)}`}>{publicStockLabel(stock)}</span>;
}
