import { Alert, Skeleton, Timeline } from 'antd';
import { ORDER_STATUS_LABELS } from '@tiendita/contracts';
import { formatDateTime } from '../../../lib/format';
import { serverMessageOr } from '../../../lib/api';
import { useOrderHistory } from '../api/get-order-history';
import type { OrderView } from '../api/types';
import { StatusTag } from './order-tags';

/** The order's timeline: created, each change with its time, author and note, the current state, and the order notes. */
export function OrderHistory({ order }: { order: OrderView }) {
  const history = useOrderHistory(order.id);
  if (history.isPending) return <Skeleton active />;
  if (history.isError) return <Alert type="error" showIcon title={serverMessageOr(history.error, 'No se pudo cargar el historial.')} />;
  const changes = history.data.filter((e) => e.previousStatus !== null);
  return (
    <>
      <Timeline
        className="order-history"
        items={[
          { color: 'gray', content: <HistoryItem title="Pedido creado" when={order.createdAt} /> },
          ...changes.map((e) => ({
            color: e.status === 'cancelled' ? 'red' : 'blue',
            content: (
              <HistoryItem
                title={`${e.previousStatus ? ORDER_STATUS_LABELS[e.previousStatus] : ''} → ${ORDER_STATUS_LABELS[e.status]}`}
                when={e.createdAt}
                notes={e.notes}
                by={e.createdBy}
              />
            ),
          })),
          {
            color: 'green',
            content: (
              <div>
                <strong>Estado actual: </strong>
                <StatusTag status={order.status} />
              </div>
            ),
          },
        ]}
      />
      {order.notes && <Alert type="info" title="Notas del pedido" description={order.notes} />}
    </>
  );
}

function HistoryItem({ title, when, notes, by }: { title: string; when: string; notes?: string | null; by?: string }) {
  return (
    <div className="order-history__item">
      <strong>{title}</strong>
      <div className="order-history__meta">
        {formatDateTime(when)}
        {by ? ` · ${by}` : ''}
      </div>
      {notes && <div className="order-history__note">{notes}</div>}
    </div>
  );
}
