import { Button, DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import { ClearOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import type { OrderStatus } from '../api/types';
import { ORDER_PAGE_SIZES, type OrderFilterState } from '../lib/order-filters';
import { ORDER_TYPE_LABELS, PAYMENT_STATUS_LABELS, STATUS_FLOW, STATUS_LABELS } from '../lib/order-status';

const ALL_STATUSES: OrderStatus[] = [...STATUS_FLOW, 'cancelled'];

/** Free text (customer, phone, id, code), status, payment status, type, date from/to, page size and clear. */
export function OrderFilters({ filters, onChange, onClear, canClear }: { filters: OrderFilterState; onChange: (patch: Partial<OrderFilterState>) => void; onClear: () => void; canClear: boolean }) {
  const [text, setText] = useState(filters.search);
  useEffect(() => setText(filters.search), [filters.search]);
  useEffect(() => {
    if (text === filters.search) return;
    const timer = setTimeout(() => onChange({ search: text, page: 1 }), 300);
    return () => clearTimeout(timer);
  }, [text, filters.search, onChange]);

  return (
    <div className="order-filters">
      <Input.Search
        allowClear
        className="order-filters__search"
        placeholder="Buscar por cliente, teléfono, id o código"
        aria-label="Buscar pedidos"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={(value) => onChange({ search: value, page: 1 })}
      />
      <Select
        aria-label="Estado"
        value={filters.status}
        onChange={(status) => onChange({ status, page: 1 })}
        options={[{ value: 'all', label: 'Todos los estados' }, ...ALL_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))]}
      />
      <Select
        aria-label="Estado de pago"
        value={filters.paymentStatus}
        onChange={(paymentStatus) => onChange({ paymentStatus, page: 1 })}
        options={[{ value: 'all', label: 'Todos los pagos' }, ...(['pending', 'paid', 'failed'] as const).map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] }))]}
      />
      <Select
        aria-label="Tipo de pedido"
        value={filters.orderType}
        onChange={(orderType) => onChange({ orderType, page: 1 })}
        options={[{ value: 'all', label: 'Todos los tipos' }, ...(['whatsapp', 'pos'] as const).map((t) => ({ value: t, label: ORDER_TYPE_LABELS[t] }))]}
      />
      <DatePicker
        aria-label="Desde"
        placeholder="Desde"
        format="DD/MM/YYYY"
        value={filters.startDate ? dayjs(filters.startDate) : null}
        disabledDate={(d) => (filters.endDate ? d.format('YYYY-MM-DD') > filters.endDate : false)}
        onChange={(d) => onChange({ startDate: d ? d.format('YYYY-MM-DD') : '', page: 1 })}
      />
      <DatePicker
        aria-label="Hasta"
        placeholder="Hasta"
        format="DD/MM/YYYY"
        value={filters.endDate ? dayjs(filters.endDate) : null}
        disabledDate={(d) => (filters.startDate ? d.format('YYYY-MM-DD') < filters.startDate : false)}
        onChange={(d) => onChange({ endDate: d ? d.format('YYYY-MM-DD') : '', page: 1 })}
      />
      <Select
        aria-label="Pedidos por página"
        value={filters.limit}
        onChange={(limit) => onChange({ limit, page: 1 })}
        options={ORDER_PAGE_SIZES.map((n) => ({ value: n, label: `${n} por página` }))}
      />
      <Button icon={<ClearOutlined />} onClick={onClear} disabled={!canClear}>
        Limpiar filtros
      </Button>
    </div>
  );
}
