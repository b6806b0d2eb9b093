import { Modal } from 'antd';
import type { OrderView } from '../api/types';
import { OrderHistory } from './order-history';

/** The order's history in its own dialog (the list's 'Historial' button). */
export function HistoryModal({ order, onClose }: { order: OrderView | null; onClose: () => void }) {
  return (
    <Modal open={order !== null} onCancel={onClose} title={order ? `Historial del pedido ${order.code}` : 'Historial'} footer={null} destroyOnHidden>
      {order && <OrderHistory order={order} />}
    </Modal>
  );
}
