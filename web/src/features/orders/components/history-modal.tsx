import { Alert, Empty, Modal, Skeleton, Timeline } from 'antd';
import { formatDateTime } from '../../../lib/format';
import { serverMessageOr } from '../../../lib/api-error';
import { useOrderHistory } from '../api/get-order-history';
import type { OrderView } from '../api/types';
import { STATUS_LABELS } from '../lib/order-status';
import { StatusTag } from './order-tags';

/** The order's timeline: created, each change with its time and note, the current state, and the order notes. */
export function HistoryModal({ order, onClose }: { order: OrderView | null; onClose: () => void }) {
  const history = useOrderHistory(order?.id ?? null);
  const entries = history.data ?? [];
  return (
    <Modal open={order !== null} onCancel={onClose} title={order ? `Historial del pedido ${order.code}` : 'Historial'} footer={null} destroyOnHidden>
      {order && history.isPending && <Skeleton active />}
      {order && history.isError && <Alert type="error" showIcon title={serverMessageOr(history.error, 'No se pudo cargar el historial.')} />}
      {order && history.isSuccess && (
        <>
          <Timeline
            className="order-history"
            items={[
              { color: 'gray', content: <HistoryItem title="Pedido creado" when={order.createdAt} /> },
              ...entries
                .filter((e) => e.previousStatus !== null)
                .map((e) => ({
                  color: e.status === 'cancelled' ? 'red' : 'blue',
                  content: (
                    <HistoryItem
                      title={`${e.previousStatus ? STATUS_LABELS[e.previousStatus] : ''} → ${STATUS_LABELS[e.status]}`}
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
          {entries.length === 0 && <Empty description="Sin cambios de estado todavía" image={Empty.PRESENTED_IMAGE_SIMPLE} />}
          {order.notes && (
            <Alert type="info" title="Notas del pedido" description={order.notes} />
          )}
        </>
      )}
    </Modal>
  );
}

function HistoryItem({ title, when, notes, by }: { title: string; when: string; notes?: string | null; by?: string }) {
  return (
    <div className="order-history__item">
      <strong>{title}</strong>
      <div className="order-history__meta">
        {formatDateTime(when)}
        {by ? ` · ${by === 'system' ? 'Sistema' : by}` : ''}
      </div>
      {notes && <div className="order-history__note">{notes}</div>}
    </div>
  );
}
