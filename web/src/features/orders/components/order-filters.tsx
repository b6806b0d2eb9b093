import { Button, DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import { ClearOutlined } from '@ant-design/icons';
import { useEffect, useState } from 'react';
import { ORDER_PAGE_SIZES, ORDER_STATUSES, ORDER_STATUS_LABELS, ORDER_TYPE_LABELS, PAYMENT_STATUS_FILTERS, PAYMENT_STATUS_LABELS } from '@tiendita/contracts';
import type { OrderFilterState } from '../lib/order-filters';

interface FilterProps {
  filters: OrderFilterState;
  onChange: (patch: Partial<OrderFilterState>) => void;
}

/** Free text (customer, phone, id, code), sent 300 ms after the owner stops typing. */
export function OrderSearch({ filters, onChange }: FilterProps) {
  const [text, setText] = useState(filters.search);
  useEffect(() => setText(filters.search), [filters.search]);
  useEffect(() => {
    if (text === filters.search) return;
    const timer = setTimeout(() => onChange({ search: text, page: 1 }), 300);
    return () => clearTimeout(timer);
  }, [text, filters.search, onChange]);
  return (
    <Input.Search
      allowClear
      className="order-filters__search"
      placeholder="Buscar por cliente, teléfono, id o código"
      aria-label="Buscar pedidos"
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(value) => onChange({ search: value, page: 1 })}
    />
  );
}

/**
 * Status, payment status, type, date from/to, page size and clear; with the search on a wide screen
 * (a phone keeps the search on the page and these in a sheet).
 */
export function OrderFilters({ filters, onChange, onClear, canClear, withSearch = true }: FilterProps & { onClear: () => void; canClear: boolean; withSearch?: boolean }) {
  return (
    <div className="order-filters">
      {withSearch && <OrderSearch filters={filters} onChange={onChange} />}
      <Select
        aria-label="Estado"
        value={filters.status}
        onChange={(status) => onChange({ status, page: 1 })}
        options={[{ value: 'all', label: 'Todos los estados' }, ...ORDER_STATUSES.map((s) => ({ value: s, label: ORDER_STATUS_LABELS[s] }))]}
      />
      <Select
        aria-label="Estado de pago"
        value={filters.paymentStatus}
        onChange={(paymentStatus) => onChange({ paymentStatus, page: 1 })}
        options={[{ value: 'all', label: 'Todos los pagos' }, ...PAYMENT_STATUS_FILTERS.map((s) => ({ value: s, label: PAYMENT_STATUS_LABELS[s] }))]}
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
