import { Button, Empty, Input, Segmented, Select, Space, Table, Tag, Typography } from 'antd';
import { EditOutlined, HistoryOutlined, ReloadOutlined } from '@ant-design/icons';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { type InventoryItem, OWNER_STOCK_LABELS, ownerStockLabel } from '@tiendita/contracts';
import { useCategories } from '../../products/api/get-categories';
import { useMediaQuery } from '../../shell/use-media-query';
import { type InventoryParams, useInventory } from '../api/inventory-api';
import { InventoryTexts, PAGE_SIZE } from '../inventory-texts';

/** The current inventory: filters, sort and the paged list with units and levels; each row opens the adjust and history dialogs. */
export function CurrentInventory({ onAdjust, onHistory }: { onAdjust: (productId: string) => void; onHistory: (p: InventoryItem) => void }) {
  // A phone gets a table that fits its width (names wrap) instead of one that scrolls sideways.
  const phone = useMediaQuery('(max-width: 575.98px)');
  const [urlParams, setUrlParams] = useSearchParams();
  const stock = urlParams.get('stock') === 'low' ? 'low' : urlParams.get('stock') === 'out' ? 'out' : 'all';
  const [search, setSearch] = useState('');
  const [categoryId, setCategoryId] = useState('all');
  const [sortBy, setSortBy] = useState<NonNullable<InventoryParams['sortBy']>>('name');
  const [sortOrder, setSortOrder] = useState<'asc' | 'desc'>('asc');
  const [page, setPage] = useState(1);
  const query: InventoryParams = {
    search: search || undefined,
    categoryId: categoryId === 'all' ? undefined : categoryId,
    lowStock: stock === 'low' ? 'true' : undefined,
    outOfStock: stock === 'out' ? 'true' : undefined,
    sortBy,
    sortOrder,
    page,
    limit: PAGE_SIZE,
  };
  const inventory = useInventory(query);
  const categories = useCategories();
  const setStock = (value: string) => {
    const next = new URLSearchParams(urlParams);
    if (value === 'all') next.delete('stock');
    else next.set('stock', value);
    setUrlParams(next, { replace: true });
    setPage(1);
  };
  const columns: TableColumnsType<InventoryItem> = [
    {
      title: 'Producto',
      dataIndex: 'name',
      render: (_: unknown, p) => (
        <div>
          <div className="inventory__name">{p.name}</div>
          {p.sku && <Typography.Text type="secondary">SKU: {p.sku}</Typography.Text>}
        </div>
      ),
    },
    { title: 'Categoría', dataIndex: 'categoryName', responsive: ['md'], render: (v: string | null) => v ?? 'Sin categoría' },
    { title: 'En existencia', dataIndex: 'stock', align: 'right', responsive: ['sm'] },
    { title: 'Reservado', dataIndex: 'reserved', align: 'right', responsive: ['sm'] },
    {
      title: 'Disponible',
      dataIndex: 'available',
      align: 'right',
      // On a phone the level column is hidden: its tag sits under the number instead.
      render: (_: unknown, p) => (
        <div>
          <div>{p.available}</div>
          <Tag color={OWNER_STOCK_LABELS[p.level].color} className="inventory__level-xs">
            {OWNER_STOCK_LABELS[p.level].label}
          </Tag>
        </div>
      ),
    },
    {
      title: 'Nivel',
      dataIndex: 'level',
      responsive: ['sm'],
      render: (_: unknown, p) => (
        // One tag from the same rule as the filter, the bell and the dashboard: a low product names its minimum.
        <Tag color={OWNER_STOCK_LABELS[p.level].color}>{ownerStockLabel(p.available, p.minimum)}</Tag>
      ),
    },
    { title: 'Ajustes', dataIndex: 'adjustmentsCount', align: 'right', responsive: ['lg'] },
    {
      title: 'Acciones',
      key: 'actions',
      fixed: phone ? undefined : 'right',
      render: (_: unknown, p) => (
        <Space size={4}>
          <Button size="small" icon={<EditOutlined />} aria-label={`Ajustar ${p.name}`} onClick={() => onAdjust(p.id)} />
          <Button size="small" icon={<HistoryOutlined />} aria-label={`Historial de ${p.name}`} onClick={() => onHistory(p)} />
        </Space>
      ),
    },
  ];
  return (
    <div>
      <div className="inventory__filters">
        <Input.Search
          allowClear
          placeholder="Buscar por nombre o SKU"
          aria-label="Buscar productos"
          onSearch={(v) => {
            setSearch(v.trim());
            setPage(1);
          }}
        />
        <Select
          aria-label="Categoría"
          value={categoryId}
          onChange={(v) => {
            setCategoryId(v);
            setPage(1);
          }}
          options={[{ value: 'all', label: 'Todas las categorías' }, { value: 'none', label: 'Sin categoría' }, ...(categories.data ?? []).map((c) => ({ value: c.id, label: c.name }))]}
        />
        <Segmented
          aria-label="Stock"
          value={stock}
          onChange={(v) => setStock(String(v))}
          options={[
            { value: 'all', label: 'Todos' },
            { value: 'low', label: 'Stock bajo' },
            { value: 'out', label: 'Agotados' },
          ]}
        />
        <Select
          aria-label="Ordenar por"
          value={`${sortBy}:${sortOrder}`}
          onChange={(v: string) => {
            const [by, order] = v.split(':') as [typeof sortBy, 'asc' | 'desc'];
            setSortBy(by);
            setSortOrder(order);
          }}
          options={[
            { value: 'name:asc', label: 'Nombre (A-Z)' },
            { value: 'name:desc', label: 'Nombre (Z-A)' },
            { value: 'stock:asc', label: 'Stock (menor a mayor)' },
            { value: 'stock:desc', label: 'Stock (mayor a menor)' },
            { value: 'category:asc', label: 'Categoría (A-Z)' },
            { value: 'category:desc', label: 'Categoría (Z-A)' },
          ]}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void inventory.refetch()} loading={inventory.isFetching}>
          Actualizar
        </Button>
      </div>
      {inventory.isError && <Typography.Text type="danger">{InventoryTexts.fetchFailed}</Typography.Text>}
      <Table<InventoryItem>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={inventory.data?.products ?? []}
        loading={inventory.isLoading}
        scroll={phone ? undefined : { x: 'max-content' }}
        locale={{ emptyText: <Empty description="No hay productos" /> }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: inventory.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      />
    </div>
  );
}
