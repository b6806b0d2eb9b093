import { useEffect, useState } from 'react';
import { Button, Input, Select } from 'antd';
import { ClearOutlined, SearchOutlined } from '@ant-design/icons';
import { PRODUCT_PAGE_SIZES } from '@tiendita/contracts';
import { useCategories } from '../api/get-categories';
import { hasActiveFilters, type ProductFilterState } from '../lib/product-filters';

const SEARCH_PAUSE_MS = 300;

/** Search, category (all, each, none), status, stock, page size and 'Limpiar filtros'. */
export function ProductFilters({ filters, onChange, onClear }: { filters: ProductFilterState; onChange: (patch: Partial<ProductFilterState>) => void; onClear: () => void }) {
  const categories = useCategories();
  const [text, setText] = useState(filters.search);

  useEffect(() => {
    setText(filters.search);
  }, [filters.search]);
  useEffect(() => {
    if (text === filters.search) return;
    const timer = setTimeout(() => onChange({ search: text, page: 1 }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, filters.search, onChange]);

  return (
    <div className="product-filters" role="search">
      <label className="product-filters__search">
        <span className="visually-hidden">Buscar productos</span>
        <Input allowClear prefix={<SearchOutlined aria-hidden="true" />} placeholder="Buscar por nombre, SKU o descripción" value={text} onChange={(e) => setText(e.target.value)} />
      </label>
      <label>
        <span className="product-filters__label">Categoría</span>
        <Select
          value={filters.categoryId}
          onChange={(categoryId) => onChange({ categoryId, page: 1 })}
          loading={categories.isLoading}
          popupMatchSelectWidth={false}
          options={[
            { value: 'all', label: 'Todas las categorías' },
            ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name })),
            { value: 'none', label: 'Sin categoría' },
          ]}
        />
      </label>
      <label>
        <span className="product-filters__label">Estado</span>
        <Select
          value={filters.status}
          onChange={(status) => onChange({ status, page: 1 })}
          options={[
            { value: 'all', label: 'Todos' },
            { value: 'active', label: 'Activos' },
            { value: 'inactive', label: 'Inactivos' },
          ]}
        />
      </label>
      <label>
        <span className="product-filters__label">Stock</span>
        <Select
          value={filters.stock}
          onChange={(stock) => onChange({ stock, page: 1 })}
          options={[
            { value: 'all', label: 'Todo el stock' },
            { value: 'low', label: 'Solo stock bajo' },
            { value: 'normal', label: 'Stock normal' },
          ]}
        />
      </label>
      <label>
        <span className="product-filters__label">Por página</span>
        <Select
          value={filters.limit}
          onChange={(limit) => onChange({ limit, page: 1 })}
          options={PRODUCT_PAGE_SIZES.map((n) => ({ value: n, label: `${n} por página` }))}
        />
      </label>
      <Button icon={<ClearOutlined />} onClick={onClear} disabled={!hasActiveFilters(filters)} className="product-filters__clear">
        Limpiar filtros
      </Button>
    </div>
  );
}
