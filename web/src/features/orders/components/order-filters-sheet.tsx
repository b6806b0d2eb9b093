import { useState } from 'react';
import { Badge, Button, Drawer } from 'antd';
import { FilterOutlined } from '@ant-design/icons';
import { activeFilterCount, type OrderFilterState } from '../lib/order-filters';
import { OrderFilters, OrderSearch } from './order-filters';

interface Props {
  filters: OrderFilterState;
  onChange: (patch: Partial<OrderFilterState>) => void;
  onClear: () => void;
  canClear: boolean;
}

/** On a phone: the search on the page, and the other filters in a sheet that opens from the bottom. */
export function OrderFiltersSheet({ filters, onChange, onClear, canClear }: Props) {
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(filters);
  return (
    <div className="order-filters-bar">
      <OrderSearch filters={filters} onChange={onChange} />
      <Badge count={count} size="small">
        <Button icon={<FilterOutlined />} onClick={() => setOpen(true)} aria-haspopup="dialog">
          Filtros
        </Button>
      </Badge>
      <Drawer
        title="Filtrar pedidos"
        placement="bottom"
        size="auto"
        open={open}
        onClose={() => setOpen(false)}
        footer={
          <Button type="primary" block onClick={() => setOpen(false)}>
            Ver pedidos
          </Button>
        }
      >
        <OrderFilters filters={filters} onChange={onChange} onClear={onClear} canClear={canClear} withSearch={false} />
      </Drawer>
    </div>
  );
}
