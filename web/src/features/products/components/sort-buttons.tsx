import { Button, Space } from 'antd';
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import type { SortField, SortOrder } from '../lib/product-filters';

const FIELDS: { field: SortField; label: string; firstOrder: SortOrder }[] = [
  { field: 'name', label: 'Nombre', firstOrder: 'asc' },
  { field: 'price', label: 'Precio', firstOrder: 'asc' },
  { field: 'stock', label: 'Stock', firstOrder: 'asc' },
  { field: 'createdAt', label: 'Fecha', firstOrder: 'desc' },
];

/** Sort by name, price, stock or date; pressing the active one flips the order. */
export function SortButtons({ sortBy, sortOrder, onChange }: { sortBy: SortField; sortOrder: SortOrder; onChange: (sortBy: SortField, sortOrder: SortOrder) => void }) {
  return (
    <Space wrap size={[8, 8]} className="sort-buttons" role="group" aria-label="Ordenar productos">
      <span className="sort-buttons__label">Ordenar por:</span>
      {FIELDS.map(({ field, label, firstOrder }) => {
        const active = sortBy === field;
        const order = active ? sortOrder : firstOrder;
        const orderText = order === 'asc' ? 'ascendente' : 'descendente';
        return (
          <Button
            key={field}
            size="small"
            type={active ? 'primary' : 'default'}
            aria-pressed={active}
            aria-label={active ? `${label}, orden ${orderText}` : `Ordenar por ${label.toLowerCase()}`}
            icon={active ? order === 'asc' ? <ArrowUpOutlined /> : <ArrowDownOutlined /> : undefined}
            iconPlacement="end"
            onClick={() => onChange(field, active ? (sortOrder === 'asc' ? 'desc' : 'asc') : firstOrder)}
          >
            {label}
          </Button>
        );
      })}
    </Space>
  );
}
