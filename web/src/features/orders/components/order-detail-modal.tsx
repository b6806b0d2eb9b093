import { Button, Descriptions, Modal, Space, Table } from 'antd';
import { HistoryOutlined, PrinterOutlined, SwapOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { OrderItemView, OrderView } from '../api/types';
import { allowedNextStatuses, PAYMENT_METHOD_LABELS, shortId } from '../lib/order-status';
import { customerWhatsappUrl } from '../lib/whatsapp';
import { PaymentTag, StatusTag, TypeTag } from './order-tags';

interface Props {
  order: OrderView | null;
  storeName?: string;
  onClose: () => void;
  onChangeStatus: (order: OrderView) => void;
  onHistory: (order: OrderView) => void;
  onReceipt: (order: OrderView) => void;
}

/** One order: customer, lines, amounts, payment, notes, and its actions. */
export function OrderDetailModal({ order, storeName, onClose, onChangeStatus, onHistory, onReceipt }: Props) {
  const whatsapp = order ? customerWhatsappUrl(order, order.status, storeName) : null;
  return (
    <Modal open={order !== null} onCancel={onClose} title={order ? `Pedido ${order.code}` : 'Pedido'} footer={null} width={720} destroyOnHidden>
      {order && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
            <Descriptions.Item label="ID">{shortId(order.id)}</Descriptions.Item>
            <Descriptions.Item label="Código">{order.code}</Descriptions.Item>
            <Descriptions.Item label="Cliente">{order.customerName || 'Sin nombre'}</Descriptions.Item>
            <Descriptions.Item label="Teléfono">{order.customerPhone || 'Sin teléfono'}</Descriptions.Item>
            <Descriptions.Item label="Dirección">{order.customerAddress || '—'}</Descriptions.Item>
            <Descriptions.Item label="NIT">{order.customerNit || 'CF'}</Descriptions.Item>
            <Descriptions.Item label="Estado">
              <StatusTag status={order.status} />
            </Descriptions.Item>
            <Descriptions.Item label="Tipo">
              <TypeTag type={order.orderType} />
            </Descriptions.Item>
            <Descriptions.Item label="Pago">
              <PaymentTag status={order.paymentStatus} /> {order.paymentMethod ? PAYMENT_METHOD_LABELS[order.paymentMethod] : ''}
            </Descriptions.Item>
            <Descriptions.Item label="Fecha">{formatDateTime(order.createdAt)}</Descriptions.Item>
            {order.notes && (
              <Descriptions.Item label="Notas" span={2}>
                {order.notes}
              </Descriptions.Item>
            )}
          </Descriptions>
          <Table<OrderItemView>
            className="order-detail__items"
            size="small"
            rowKey={(item) => item.productId}
            pagination={false}
            dataSource={order.items}
            scroll={{ x: true }}
            columns={[
              { title: 'Producto', dataIndex: 'productName' },
              { title: 'Cant.', dataIndex: 'quantity', align: 'right' },
              { title: 'Precio', dataIndex: 'price', align: 'right', render: (v: number) => formatMoney(v) },
              { title: 'Total', key: 'line', align: 'right', render: (_: unknown, item) => formatMoney(Math.round(item.price * 100 * item.quantity) / 100) },
            ]}
          />
          <dl className="order-detail__totals">
            <dt>Subtotal</dt>
            <dd>{formatMoney(order.subtotal)}</dd>
            <dt>IVA</dt>
            <dd>{formatMoney(order.tax)}</dd>
            <dt>Total</dt>
            <dd>
              <strong>{formatMoney(order.total)}</strong>
            </dd>
            {order.cashReceived !== null && order.cashReceived !== undefined && (
              <>
                <dt>Efectivo recibido</dt>
                <dd>{formatMoney(order.cashReceived)}</dd>
                <dt>Cambio</dt>
                <dd>{formatMoney(order.change ?? 0)}</dd>
              </>
            )}
          </dl>
          <Space wrap>
            <Button type="primary" icon={<SwapOutlined />} disabled={allowedNextStatuses(order.status).length === 0} onClick={() => onChangeStatus(order)}>
              Cambiar estado
            </Button>
            <Button icon={<HistoryOutlined />} onClick={() => onHistory(order)}>
              Historial
            </Button>
            <Button icon={<PrinterOutlined />} onClick={() => onReceipt(order)}>
              Recibo
            </Button>
            {whatsapp && (
              <Button icon={<WhatsAppOutlined />} href={whatsapp} target="_blank" rel="noopener noreferrer">
                WhatsApp al cliente
              </Button>
            )}
          </Space>
        </>
      )}
    </Modal>
  );
}
