import { Button, Empty, Table, Tooltip } from 'antd';
import type { TableProps } from 'antd';
import { EyeOutlined, HistoryOutlined, PrinterOutlined, SwapOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { allowedNextStatuses } from '@tiendita/contracts';
import { formatDate, formatMoney } from '../../../lib/format';
import type { OrderSortBy } from '../api/get-orders';
import type { OrderView } from '../api/types';
import type { OrderFilterState } from '../lib/order-filters';
import { OrderMessages } from '../lib/order-messages';
import { shortId } from '../lib/order-status';
import { customerWhatsappUrl } from '../lib/whatsapp';
import { PaymentTag, StatusTag, TypeTag } from './order-tags';
import { OfflineOrderTags } from '../../pos/components/offline-order-tags';

interface Props {
  orders: OrderView[];
  loading: boolean;
  filters: OrderFilterState;
  onSort: (patch: Partial<OrderFilterState>) => void;
  storeName?: string;
  onView: (order: OrderView) => void;
  onChangeStatus: (order: OrderView) => void;
  onHistory: (order: OrderView) => void;
  onReceipt: (order: OrderView) => void;
  /** Pending orders chosen for the bulk actions (only pending rows can be chosen). */
  selectedIds?: string[];
  onSelect?: (orders: OrderView[]) => void;
}

/** The orders as a table on a wide screen: sortable by id, total, status and date, with each row's actions. */
export function OrdersTable({ orders, loading, filters, onSort, storeName, onView, onChangeStatus, onHistory, onReceipt, selectedIds, onSelect }: Props) {
  const sortOrderOf = (key: OrderSortBy) => (filters.sortBy === key ? (filters.sortOrder === 'asc' ? 'ascend' : 'descend') : null);
  const onTableChange: TableProps<OrderView>['onChange'] = (_p, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    if (!s?.order || !s.columnKey) onSort({ sortBy: 'createdAt', sortOrder: 'desc', page: 1 });
    else onSort({ sortBy: s.columnKey as OrderSortBy, sortOrder: s.order === 'ascend' ? 'asc' : 'desc', page: 1 });
  };

  const columns: TableProps<OrderView>['columns'] = [
    {
      key: 'id',
      title: 'Pedido',
      sorter: true,
      sortOrder: sortOrderOf('id'),
      render: (_, o) => (
        <div className="order-id">
          <code>{shortId(o.id)}</code>
          <span className="order-id__code">{o.code}</span>
        </div>
      ),
    },
    {
      key: 'customer',
      title: 'Cliente',
      render: (_, o) => (
        <div className="order-customer">
          <strong>{o.customerName || 'Sin nombre'}</strong>
          <span>{o.customerPhone || 'Sin teléfono'}</span>
          {o.customerAddress && <span className="order-customer__address">{o.customerAddress}</span>}
        </div>
      ),
    },
    { key: 'total', title: 'Total', sorter: true, sortOrder: sortOrderOf('total'), align: 'right', render: (_, o) => <strong>{formatMoney(o.total)}</strong> },
    { key: 'status', title: 'Estado', sorter: true, sortOrder: sortOrderOf('status'), render: (_, o) => <StatusTag status={o.status} /> },
    {
      key: 'paymentStatus',
      title: 'Pago',
      render: (_, o) => (
        <>
          <PaymentTag status={o.paymentStatus} />
          <OfflineOrderTags order={o} />
        </>
      ),
    },
    { key: 'orderType', title: 'Tipo', render: (_, o) => <TypeTag type={o.orderType} /> },
    { key: 'createdAt', title: 'Fecha', sorter: true, sortOrder: sortOrderOf('createdAt'), render: (_, o) => formatDate(o.createdAt) },
    {
      key: 'actions',
      title: 'Acciones',
      render: (_, o) => {
        const wa = customerWhatsappUrl(o, o.status, storeName);
        return (
          <div className="order-actions" onClick={(e) => e.stopPropagation()}>
            <Tooltip title="Ver detalle">
              <Button size="small" icon={<EyeOutlined />} aria-label={`Ver pedido ${o.code}`} onClick={() => onView(o)} />
            </Tooltip>
            <Tooltip title="Cambiar estado">
              <Button size="small" icon={<SwapOutlined />} aria-label={`Cambiar estado del pedido ${o.code}`} disabled={allowedNextStatuses(o.status).length === 0} onClick={() => onChangeStatus(o)} />
            </Tooltip>
            <Tooltip title="Historial">
              <Button size="small" icon={<HistoryOutlined />} aria-label={`Historial del pedido ${o.code}`} onClick={() => onHistory(o)} />
            </Tooltip>
            <Tooltip title="Recibo">
              <Button size="small" icon={<PrinterOutlined />} aria-label={`Recibo del pedido ${o.code}`} onClick={() => onReceipt(o)} />
            </Tooltip>
            {wa && (
              <Tooltip title="WhatsApp al cliente">
                <Button size="small" icon={<WhatsAppOutlined />} aria-label={`WhatsApp al cliente del pedido ${o.code}`} href={wa} target="_blank" rel="noopener noreferrer" />
              </Tooltip>
            )}
          </div>
        );
      },
    },
  ];

  return (
    <Table<OrderView>
      rowKey="id"
      className="orders-table"
      loading={loading}
      columns={columns}
      dataSource={orders}
      pagination={false}
      scroll={{ x: 900 }}
      onChange={onTableChange}
      rowSelection={
        onSelect && {
          selectedRowKeys: selectedIds ?? [],
          onChange: (_keys, rows) => onSelect(rows),
          getCheckboxProps: (o) => ({ disabled: o.status !== 'pending', 'aria-label': `Seleccionar el pedido ${o.code}` }),
        }
      }
      showSorterTooltip={false}
      onRow={(o) => ({ onClick: () => onView(o), style: { cursor: 'pointer' } })}
      locale={{ emptyText: <Empty description={OrderMessages.noOrders} /> }}
    />
  );
}
