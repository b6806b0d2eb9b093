import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Card, Empty, Steps, Table, Tabs, Tooltip } from 'antd';
import type { TableProps } from 'antd';
import { EyeOutlined, HistoryOutlined, PrinterOutlined, SwapOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { formatDate, formatMoney } from '../../../lib/format';
import { serverMessageOr } from '../../../lib/api-error';
import { useStore } from '../../store/api/get-store';
import { useOrders } from '../api/get-orders';
import type { OrderSortBy, OrderView } from '../api/types';
import { HistoryModal } from '../components/history-modal';
import { OrderDetailModal } from '../components/order-detail-modal';
import { OrderFilters } from '../components/order-filters';
import { OrderPagination } from '../components/order-pagination';
import { PaymentTag, StatusTag, TypeTag } from '../components/order-tags';
import { ReceiptModal } from '../components/receipt-modal';
import { StatusChangeModal } from '../components/status-change-modal';
import { DEFAULT_ORDER_FILTERS, hasOrderFilters, orderListParams, type OrderFilterState } from '../lib/order-filters';
import { OrderMessages } from '../lib/order-messages';
import { allowedNextStatuses, shortId, STATUS_FLOW, STATUS_LABELS } from '../lib/order-status';
import { customerWhatsappUrl } from '../lib/whatsapp';
import '../orders.css';

type Tab = 'list' | 'flow';

/** /orders (spec 001 §2): the order list with filters, sort and pages, the state flow, and the order dialogs. */
export function OrdersPage() {
  const [tab, setTab] = useState<Tab>('list');
  const [filters, setFilters] = useState<OrderFilterState>(DEFAULT_ORDER_FILTERS);
  const [viewing, setViewing] = useState<OrderView | null>(null);
  const [changing, setChanging] = useState<OrderView | null>(null);
  const [historyOf, setHistoryOf] = useState<OrderView | null>(null);
  const [receiptOf, setReceiptOf] = useState<OrderView | null>(null);
  const orders = useOrders(orderListParams(filters));
  const store = useStore();
  const storeName = store.data?.name;
  const patch = useCallback((change: Partial<OrderFilterState>) => setFilters((f) => ({ ...f, ...change })), []);
  // The bell links here with ?status=pending: the list opens on those orders.
  const statusFromUrl = useSearchParams()[0].get('status');
  useEffect(() => {
    if (statusFromUrl && statusFromUrl in STATUS_LABELS) patch({ status: statusFromUrl as OrderFilterState['status'], page: 1 });
  }, [statusFromUrl, patch]);
  const data = orders.data;
  // The detail shows the freshest copy of the order after a status change refreshed the list.
  const fresh = (order: OrderView | null) => (order ? (data?.orders.find((o) => o.id === order.id) ?? order) : null);

  const sortOrderOf = (key: OrderSortBy) => (filters.sortBy === key ? (filters.sortOrder === 'asc' ? 'ascend' : 'descend') : null);
  const onTableChange: TableProps<OrderView>['onChange'] = (_p, _f, sorter) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    if (!s?.order || !s.columnKey) {
      patch({ sortBy: 'createdAt', sortOrder: 'desc', page: 1 });
      return;
    }
    patch({ sortBy: s.columnKey as OrderSortBy, sortOrder: s.order === 'ascend' ? 'asc' : 'desc', page: 1 });
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
    { key: 'paymentStatus', title: 'Pago', render: (_, o) => <PaymentTag status={o.paymentStatus} /> },
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
              <Button size="small" icon={<EyeOutlined />} aria-label={`Ver pedido ${o.code}`} onClick={() => setViewing(o)} />
            </Tooltip>
            <Tooltip title="Cambiar estado">
              <Button size="small" icon={<SwapOutlined />} aria-label={`Cambiar estado del pedido ${o.code}`} disabled={allowedNextStatuses(o.status).length === 0} onClick={() => setChanging(o)} />
            </Tooltip>
            <Tooltip title="Historial">
              <Button size="small" icon={<HistoryOutlined />} aria-label={`Historial del pedido ${o.code}`} onClick={() => setHistoryOf(o)} />
            </Tooltip>
            <Tooltip title="Recibo">
              <Button size="small" icon={<PrinterOutlined />} aria-label={`Recibo del pedido ${o.code}`} onClick={() => setReceiptOf(o)} />
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
    <>
      <header className="page-header">
        <h1>Pedidos</h1>
        <p>Los pedidos de tu tienda en línea, de WhatsApp y del punto de venta, con su estado.</p>
      </header>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        items={[
          {
            key: 'list',
            label: 'Lista de pedidos',
            children: (
              <Card>
                <OrderFilters filters={filters} onChange={patch} onClear={() => setFilters(DEFAULT_ORDER_FILTERS)} canClear={hasOrderFilters(filters)} />
                {orders.isError && <Alert type="error" showIcon title={serverMessageOr(orders.error, 'No se pudieron cargar los pedidos.')} style={{ marginBottom: 12 }} />}
                <Table<OrderView>
                  rowKey="id"
                  className="orders-table"
                  loading={orders.isFetching}
                  columns={columns}
                  dataSource={data?.orders ?? []}
                  pagination={false}
                  scroll={{ x: 900 }}
                  onChange={onTableChange}
                  showSorterTooltip={false}
                  onRow={(o) => ({ onClick: () => setViewing(o), style: { cursor: 'pointer' } })}
                  locale={{ emptyText: <Empty description={OrderMessages.noOrders} /> }}
                />
                {data && (
                  <OrderPagination page={data.currentPage} totalPages={data.totalPages} total={data.total} limit={filters.limit} onPage={(page) => patch({ page })} />
                )}
              </Card>
            ),
          },
          { key: 'flow', label: 'Flujo de estados', children: <StateFlow /> },
        ]}
      />
      <OrderDetailModal
        order={fresh(viewing)}
        storeName={storeName}
        onClose={() => setViewing(null)}
        onChangeStatus={(o) => setChanging(o)}
        onHistory={(o) => setHistoryOf(o)}
        onReceipt={(o) => setReceiptOf(o)}
      />
      <StatusChangeModal order={changing} storeName={storeName} onClose={() => setChanging(null)} />
      <HistoryModal order={fresh(historyOf)} onClose={() => setHistoryOf(null)} />
      <ReceiptModal order={fresh(receiptOf)} onClose={() => setReceiptOf(null)} />
    </>
  );
}

const STEP_HINTS: Record<string, string> = {
  pending: 'El pedido llegó por WhatsApp o la tienda.',
  confirmed: 'Confirmaste el pedido con el cliente.',
  preparing: 'Lo estás preparando.',
  ready: 'Listo para entregar o recoger.',
  out_for_delivery: 'Va en camino: el stock sale de la bodega.',
  delivered: 'El cliente lo recibió.',
  completed: 'Cerrado. Las ventas del POS empiezan aquí.',
};

/** The state flow tab: the forward steps, and where cancelling is allowed. */
function StateFlow() {
  return (
    <Card>
      <Steps
        orientation="vertical"
        current={-1}
        items={STATUS_FLOW.map((s) => ({ title: STATUS_LABELS[s], content: STEP_HINTS[s] }))}
      />
      <Alert
        type="warning"
        showIcon
        title="Cancelar"
        description="Un pedido se puede cancelar en cualquier estado excepto Entregado, Completado y Cancelado. Al cancelarlo, sus unidades vuelven al inventario. Cada cambio guarda una nota opcional en el historial."
      />
    </Card>
  );
}
