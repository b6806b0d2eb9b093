import { Button, Empty, Modal, Select, Table, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import type { TableColumnsType } from 'antd';
import { useState } from 'react';
import type { InventoryItem, LedgerEntry } from '@tiendita/contracts';
import { useProductHistory, useStoreHistory } from '../api/inventory-api';
import { dateTime, InventoryTexts, KIND_LABELS, PAGE_SIZE, TYPE_LABELS } from '../inventory-texts';

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

/** The store's ledger, every product's movements, by type. */
export function StoreHistory() {
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

/** One product's ledger in a dialog. */
export function ProductHistoryDialog({ product, onClose }: { product: InventoryItem | null; onClose: () => void }) {
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
