import { Tag } from 'antd';
import { OWNER_STOCK_LABELS, ownerStockLevel } from '@tiendita/contracts';

/** The stock with its owner level (Agotado, bajo, medio, alto); low is at or below the product's minimum. */
export function StockTag({ stock, minimum, withCount = true }: { stock: number; minimum?: number; withCount?: boolean }) {
  const { label, color } = OWNER_STOCK_LABELS[ownerStockLevel(stock, minimum)];
  return <Tag color={color}>{withCount && stock > 0 ? `${label} · ${stock}` : label}</Tag>;
}
