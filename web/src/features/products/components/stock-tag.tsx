import { Tag } from 'antd';
import { ownerStock } from '../lib/stock-level';

/** The stock with its owner level (Agotado, bajo, medio, alto); low is at or below the product's minimum. */
export function StockTag({ stock, minimum, withCount = true }: { stock: number; minimum?: number; withCount?: boolean }) {
  const { label, color } = ownerStock(stock, minimum);
  return <Tag color={color}>{withCount && stock > 0 ? `${label} · ${stock}` : label}</Tag>;
}
