import { Button, Empty, Form, Input, InputNumber, Modal, Segmented, Select, Space, Table, Tabs, Tag, Typography } from 'antd';
import { HistoryOutlined, ReloadOutlined, EditOutlined } from '@ant-design/icons';
import type { TableColumnsType } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { InventoryMessages, type InventoryItem, type LedgerEntry, OWNER_STOCK_LABELS, ownerStockLabel } from '@tiendita/contracts';
import { toast } from '../../components/toast/toast-store';
import { serverMessageOr } from '../../lib/api-error';
import { useCategories } from '../products/api/get-categories';
import { type InventoryParams, useAdjustInventory, useInventory, useProductHistory, useStoreHistory } from './api/inventory-api';
import { useMediaQuery } from '../shell/use-media-query';
import './inventory.css';

/** Spec 001 §8 texts of this screen. */
export const InventoryTexts = {
  updated: 'Inventario actualizado',
  adjustFailed: InventoryMessages.adjustFailed,
  noHistory: 'No hay historial de ajustes',
  fetchFailed: 'Failed to fetch inventory',
  historyFailed: 'Failed to fetch store history',
  productHistoryFailed: 'Failed to fetch product history',
};

const TYPE_LABELS: Record<string, string> = {
  manual: 'Manual',
  correction: 'Corrección',
  restock: 'Reabastecimiento',
  damaged: 'Dañado',
  return: 'Devolución',
};
const KIND_LABELS: Record<string, string> = {
  opening: 'Apertura',
  adjustment: 'Ajuste',
  reserved: 'Reservado por pedido',
  released: 'Reserva liberada',
  sold: 'Venta',
};
const PAGE_SIZE = 20;

const dateTime = (iso: string) => new Date(iso).toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'short', timeStyle: 'short' });

/** /inventory (spec 001 §2): current inventory and the general history, the adjust and history dialogs. */
export function InventoryPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'history' ? 'history' : 'current';
  const [adjusting, setAdjusting] = useState<{ open: boolean; productId?: string }>({ open: false });
  const [historyOf, setHistoryOf] = useState<InventoryItem | null>(null);
  return (
    <div className="inventory">
      <div className="inventory__header">
        <Typography.Title level={2} className="inventory__title">
          Inventario
        </Typography.Title>
        <Button type="primary" icon={<EditOutlined />} onClick={() => setAdjusting({ open: true })}>
          Ajustar inventario
        </Button>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(key) => {
          const next = new URLSearchParams(params);
          if (key === 'history') next.set('tab', 'history');
          else next.delete('tab');
          setParams(next, { replace: true });
        }}
        items={[
          { key: 'current', label: 'Inventario actual', children: <CurrentInventory onAdjust={(productId) => setAdjusting({ open: true, productId })} onHistory={setHistoryOf} /> },
          { key: 'history', label: 'Historial general', children: <StoreHistory /> },
        ]}
      />
      <AdjustDialog open={adjusting.open} productId={adjusting.productId} onClose={() => setAdjusting({ open: false })} />
      <ProductHistoryDialog product={historyOf} onClose={() => setHistoryOf(null)} />
    </div>
  );
}

function CurrentInventory({ onAdjust, onHistory }: { onAdjust: (productId: string) => void; onHistory: (p: InventoryItem) => void }) {
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

function ledgerColumns(withProduct: boolean): TableColumnsType<LedgerEntry> {
  return [
    { title: 'Fecha', dataIndex: 'createdAt', render: (v: string) => dateTime(v) },
    ...(withProduct ? [{ title: 'Producto', dataIndex: 'productName' }] : []),
    {
      title: 'Movimiento',
      dataIndex: 'kind',
      render: (_: unknown, e: LedgerEntry) => (
        <span>
          {e.kind === 'adjustment' && e.adjustmentType ? TYPE_LABELS[e.adjustmentType] : KIND_LABELS[e.kind]}
          {e.orderCode && <Typography.Text type="secondary"> · Pedido {e.orderCode}</Typography.Text>}
          {e.kind !== 'adjustment' && e.quantity ? <Typography.Text type="secondary"> ({e.quantity} u.)</Typography.Text> : null}
        </span>
      ),
    },
    { title: 'Anterior', dataIndex: 'oldStock', align: 'right' as const, responsive: ['sm' as const] },
    { title: 'Nuevo', dataIndex: 'newStock', align: 'right' as const },
    {
      title: 'Diferencia',
      dataIndex: 'adjustment',
      align: 'right' as const,
      render: (v: number) => <span className={v > 0 ? 'inventory__up' : v < 0 ? 'inventory__down' : undefined}>{v > 0 ? `+${v}` : v}</span>,
    },
    { title: 'Razón', dataIndex: 'reason', responsive: ['sm' as const], render: (v: string | null) => v ?? '—' },
    { title: 'Por', dataIndex: 'adjustedBy', responsive: ['md' as const], render: (v: string | null) => v ?? 'Sistema' },
  ];
}

function StoreHistory() {
  const [type, setType] = useState('all');
  const [page, setPage] = useState(1);
  const history = useStoreHistory({ type: type === 'all' ? undefined : type, page, limit: PAGE_SIZE });
  return (
    <div>
      <div className="inventory__filters">
        <Select
          aria-label="Tipo de movimiento"
          value={type}
          onChange={(v) => {
            setType(v);
            setPage(1);
          }}
          options={[
            { value: 'all', label: 'Todos los movimientos' },
            ...Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label })),
            { value: 'reserved', label: KIND_LABELS.reserved },
            { value: 'released', label: KIND_LABELS.released },
            { value: 'sold', label: KIND_LABELS.sold },
          ]}
        />
        <Button icon={<ReloadOutlined />} onClick={() => void history.refetch()} loading={history.isFetching}>
          Actualizar
        </Button>
      </div>
      {history.isError && <Typography.Text type="danger">{InventoryTexts.historyFailed}</Typography.Text>}
      <Table<LedgerEntry>
        rowKey="id"
        size="middle"
        columns={ledgerColumns(true)}
        dataSource={history.data?.history ?? []}
        loading={history.isLoading}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={InventoryTexts.noHistory} /> }}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: history.data?.total ?? 0, onChange: setPage, showSizeChanger: false }}
      />
    </div>
  );
}

function ProductHistoryDialog({ product, onClose }: { product: InventoryItem | null; onClose: () => void }) {
  const history = useProductHistory(product?.id ?? null);
  return (
    <Modal open={Boolean(product)} onCancel={onClose} footer={null} title={product ? `Historial de ${product.name}` : ''} width={900} destroyOnHidden>
      {history.isError && <Typography.Text type="danger">{InventoryTexts.productHistoryFailed}</Typography.Text>}
      <Table<LedgerEntry>
        rowKey="id"
        size="small"
        columns={ledgerColumns(false)}
        dataSource={history.data?.history ?? []}
        loading={history.isLoading}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty description={InventoryTexts.noHistory} /> }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
      />
    </Modal>
  );
}

interface AdjustValues {
  productId?: string;
  adjustmentType: string;
  newStock?: number | null;
  reason?: string;
}

function AdjustDialog({ open, productId, onClose }: { open: boolean; productId?: string; onClose: () => void }) {
  const [form] = Form.useForm<AdjustValues>();
  const products = useInventory({ page: 1, limit: 200, sortBy: 'name', sortOrder: 'asc' });
  const adjust = useAdjustInventory();
  const selectedId = Form.useWatch('productId', form);
  const selected = useMemo(() => products.data?.products.find((p) => p.id === selectedId), [products.data, selectedId]);
  const submit = (values: AdjustValues) =>
    adjust.mutate(
      { productId: values.productId!, newStock: values.newStock!, reason: values.reason ?? '', adjustmentType: values.adjustmentType as never },
      {
        onSuccess: () => {
          toast({ title: InventoryTexts.updated, description: selected?.name });
          onClose();
        },
        onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, InventoryTexts.adjustFailed), variant: 'destructive' }),
      },
    );
  return (
    <Modal
      open={open}
      title="Ajustar inventario"
      onCancel={onClose}
      okText="Guardar ajuste"
      cancelText="Cancelar"
      confirmLoading={adjust.isPending}
      onOk={() => form.submit()}
      destroyOnHidden
      afterOpenChange={(visible) => {
        if (visible) form.setFieldsValue({ productId, adjustmentType: 'manual', newStock: undefined, reason: '' });
      }}
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ productId, adjustmentType: 'manual' }} preserve={false}>
        <Form.Item name="productId" label="Producto" rules={[{ required: true, message: 'Selecciona un producto' }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder="Selecciona un producto"
            options={(products.data?.products ?? []).map((p) => ({ value: p.id, label: p.name }))}
          />
        </Form.Item>
        {selected && (
          <Typography.Paragraph type="secondary">
            En existencia: {selected.stock} · Reservado: {selected.reserved} · Disponible: {selected.available}
          </Typography.Paragraph>
        )}
        <Form.Item name="adjustmentType" label="Tipo de ajuste" rules={[{ required: true, message: InventoryMessages.invalidType }]}>
          <Select options={Object.entries(TYPE_LABELS).map(([value, label]) => ({ value, label }))} />
        </Form.Item>
        <Form.Item
          name="newStock"
          label="Nuevo stock (unidades contadas)"
          rules={[
            { required: true, message: InventoryMessages.stockInvalid },
            { type: 'integer', message: InventoryMessages.stockInvalid },
            { type: 'number', min: 0, message: InventoryMessages.stockNegative },
          ]}
        >
          {/* No min: a negative count is shown beside the field, not turned into 0. */}
          <InputNumber inputMode="numeric" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="reason" label="Razón" rules={[{ required: true, whitespace: true, message: InventoryMessages.reasonMissing }]}>
          <Input.TextArea rows={3} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
