import { Tag } from 'antd';
import { ownerStock } from '../lib/stock-level';

/** The stock with its owner level (Agotado, bajo, medio, alto). */
export function StockTag({ stock, withCount = true }: { stock: number; withCount?: boolean }) {
  const { label, color } = ownerStock(stock);
  return <Tag color={color}>{withCount && stock > 0 ? `${label} · ${stock}` : label}</Tag>;
}
