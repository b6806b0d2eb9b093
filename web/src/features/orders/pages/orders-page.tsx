import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Card, Empty, Skeleton, Tabs } from 'antd';
import { ORDER_STATUS_LABELS } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { useMediaQuery } from '../../shell/use-media-query';
import { useStore } from '../../store/api/get-store';
import { useOrders } from '../api/get-orders';
import type { OrderView } from '../api/types';
import { BulkActionsBar } from '../components/bulk-actions-bar';
import { HistoryModal } from '../components/history-modal';
import { OrderCard } from '../components/order-card';
import { OrderDetailModal } from '../components/order-detail-modal';
import { OrderFilters } from '../components/order-filters';
import { OrderFiltersSheet } from '../components/order-filters-sheet';
import { OrderPagination } from '../components/order-pagination';
import { OrdersTable } from '../components/orders-table';
import { ReceiptModal } from '../components/receipt-modal';
import { RecordPaymentModal } from '../components/record-payment-modal';
import { RefundModal } from '../components/refund-modal';
import { StateFlow } from '../components/state-flow';
import { StatusChangeModal } from '../components/status-change-modal';
import { DEFAULT_ORDER_FILTERS, hasOrderFilters, orderListParams, type OrderFilterState } from '../lib/order-filters';
import { OrderMessages } from '../lib/order-messages';
import { SCREEN_HEADERS } from '../../../app/screen-headers';
import '../orders.css';

type Tab = 'list' | 'flow';
type Dialog = 'detail' | 'status' | 'history' | 'receipt' | 'payment' | 'refund';

/**
 * /orders (spec 001 §2): the order list with filters, sort and pages (a table on a wide screen, one card
 * per order on a phone, its filters in a sheet), the state flow, and the order dialogs.
 */
export function OrdersPage() {
  const [tab, setTab] = useState<Tab>('list');
  const [filters, setFilters] = useState<OrderFilterState>(DEFAULT_ORDER_FILTERS);
  const [open, setOpen] = useState<Partial<Record<Dialog, OrderView>>>({});
  const [selected, setSelected] = useState<OrderView[]>([]);
  const phone = useMediaQuery('(max-width: 640px)');
  const orders = useOrders(orderListParams(filters));
  const store = useStore();
  const storeName = store.data?.name;
  const patch = useCallback((change: Partial<OrderFilterState>) => setFilters((f) => ({ ...f, ...change })), []);
  // The bell links here with ?status=pending: the list opens on those orders.
  const statusFromUrl = useSearchParams()[0].get('status');
  useEffect(() => {
    if (statusFromUrl && statusFromUrl in ORDER_STATUS_LABELS) patch({ status: statusFromUrl as OrderFilterState['status'], page: 1 });
  }, [statusFromUrl, patch]);
  const data = orders.data;
  // Dialogs show the freshest copy of their order once a payment or a status change refreshed the list.
  const fresh = (dialog: Dialog) => {
    const order = open[dialog];
    return order ? (data?.orders.find((o) => o.id === order.id) ?? order) : null;
  };
  const show = (dialog: Dialog) => (order: OrderView) => setOpen((o) => ({ ...o, [dialog]: order }));
  const close = (dialog: Dialog) => () => setOpen((o) => ({ ...o, [dialog]: undefined }));
  const clear = () => setFilters(DEFAULT_ORDER_FILTERS);
  const list = data?.orders ?? [];

  const listTab = (
    <Card className="orders-list">
      {phone ? (
        <OrderFiltersSheet filters={filters} onChange={patch} onClear={clear} canClear={hasOrderFilters(filters)} />
      ) : (
        <OrderFilters filters={filters} onChange={patch} onClear={clear} canClear={hasOrderFilters(filters)} />
      )}
      {orders.isError && <Alert type="error" showIcon title={serverMessageOr(orders.error, 'No se pudieron cargar los pedidos.')} style={{ marginBottom: 12 }} />}
      {!phone && <BulkActionsBar selected={selected.filter((o) => o.status === 'pending')} onDone={() => setSelected([])} />}
      {!phone ? (
        <OrdersTable
          orders={list}
          loading={orders.isFetching}
          filters={filters}
          onSort={patch}
          storeName={storeName}
          onView={show('detail')}
          onChangeStatus={show('status')}
          onHistory={show('history')}
          onReceipt={show('receipt')}
          selectedIds={selected.map((o) => o.id)}
          onSelect={setSelected}
        />
      ) : orders.isPending ? (
        <Skeleton active />
      ) : list.length === 0 ? (
        <Empty description={OrderMessages.noOrders} />
      ) : (
        <div className="order-cards">
          {list.map((o) => (
            <OrderCard key={o.id} order={o} onOpen={show('detail')} />
          ))}
        </div>
      )}
      {data && <OrderPagination page={data.currentPage} totalPages={data.totalPages} total={data.total} limit={filters.limit} onPage={(page) => patch({ page })} />}
    </Card>
  );

  return (
    <>
      <header className="page-header">
        <h1>{SCREEN_HEADERS['/orders'].title}</h1>
        <p>{SCREEN_HEADERS['/orders'].description}</p>
      </header>
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as Tab)}
        items={[
          { key: 'list', label: 'Lista de pedidos', children: listTab },
          { key: 'flow', label: 'Flujo de estados', children: <StateFlow /> },
        ]}
      />
      <OrderDetailModal
        order={fresh('detail')}
        storeName={storeName}
        fullScreen={phone}
        onClose={close('detail')}
        onChangeStatus={show('status')}
        onReceipt={show('receipt')}
        onRecordPayment={show('payment')}
        onRefund={show('refund')}
      />
      <StatusChangeModal order={open.status ?? null} storeName={storeName} onClose={close('status')} />
      <HistoryModal order={fresh('history')} onClose={close('history')} />
      <ReceiptModal order={fresh('receipt')} onClose={close('receipt')} />
      <RecordPaymentModal order={open.payment ?? null} onClose={close('payment')} />
      <RefundModal order={open.refund ?? null} onClose={close('refund')} />
    </>
  );
}
