import { type ReactNode, useEffect, useId, useState } from 'react';
import { Badge, Button, Input, Select } from 'antd';
import { ClearOutlined, FilterOutlined, SearchOutlined } from '@ant-design/icons';
import { PRODUCT_PAGE_SIZES } from '@tiendita/contracts';
import { useCategories } from '../api/get-categories';
import { hasActiveFilters, type ProductFilterState } from '../lib/product-filters';

const SEARCH_PAUSE_MS = 300;

/** How many of the folded controls differ from their default (the 'Filtros' button's badge on a phone). */
function foldedActive(f: ProductFilterState): number {
  return [f.categoryId !== 'all', f.status !== 'all', f.stock !== 'all'].filter(Boolean).length;
}

/**
 * Search, category (all, each, none), status, stock, page size and 'Limpiar filtros'. `compact` (a
 * phone): only the search shows, with a 'Filtros' button that unfolds the rest and `children` (the
 * sort buttons), so the first products fit on the first screen.
 */
export function ProductFilters({
  filters,
  onChange,
  onClear,
  compact = false,
  children,
}: {
  filters: ProductFilterState;
  onChange: (patch: Partial<ProductFilterState>) => void;
  onClear: () => void;
  compact?: boolean;
  children?: ReactNode;
}) {
  const categories = useCategories();
  const [text, setText] = useState(filters.search);
  const [unfolded, setUnfolded] = useState(false);
  const foldId = useId();
  const folded = compact && !unfolded;

  useEffect(() => {
    setText(filters.search);
  }, [filters.search]);
  useEffect(() => {
    if (text === filters.search) return;
    const timer = setTimeout(() => onChange({ search: text, page: 1 }), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text, filters.search, onChange]);

  const search = (
    <label className="product-filters__search">
      <span className="visually-hidden">Buscar productos</span>
      <Input allowClear prefix={<SearchOutlined aria-hidden="true" />} placeholder="Buscar por nombre, SKU o descripción" value={text} onChange={(e) => setText(e.target.value)} />
    </label>
  );
  if (compact) {
    return (
      <div className="product-filters product-filters--compact" role="search">
        <div className="product-filters__bar">
          {search}
          <Badge count={foldedActive(filters)} size="small">
            <Button icon={<FilterOutlined />} aria-expanded={unfolded} aria-controls={foldId} onClick={() => setUnfolded((u) => !u)}>
              Filtros
            </Button>
          </Badge>
        </div>
        <div id={foldId} hidden={folded} className="product-filters__fold">
          {!folded && <FilterFields filters={filters} onChange={onChange} onClear={onClear} categories={categories} />}
          {!folded && children}
        </div>
      </div>
    );
  }
  return (
    <>
      <div className="product-filters" role="search">
        {search}
        <FilterFields filters={filters} onChange={onChange} onClear={onClear} categories={categories} />
      </div>
      {children}
    </>
  );
}

function FilterFields({
  filters,
  onChange,
  onClear,
  categories,
}: {
  filters: ProductFilterState;
  onChange: (patch: Partial<ProductFilterState>) => void;
  onClear: () => void;
  categories: ReturnType<typeof useCategories>;
}) {
  return (
    <>
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
    </>
  );
}
