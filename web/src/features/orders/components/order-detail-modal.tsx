import { Button, Descriptions, Modal, Space, Table } from 'antd';
import { PrinterOutlined, SwapOutlined, WhatsAppOutlined } from '@ant-design/icons';
import { allowedNextStatuses, paymentMethodLabel } from '@tiendita/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { OrderItemView, OrderView } from '../api/types';
import { shortId } from '../lib/order-status';
import { customerWhatsappUrl } from '../lib/whatsapp';
import { NextStepButton } from './next-step-button';
import { OrderHistory } from './order-history';
import { OrderPayments } from './order-payments';
import { StatusTag, TypeTag } from './order-tags';
import { OfflineOrderNotice } from '../../pos/components/offline-order-tags';

interface Props {
  order: OrderView | null;
  storeName?: string;
  /** A phone: the dialog takes the whole screen. */
  fullScreen?: boolean;
  onClose: () => void;
  onChangeStatus: (order: OrderView) => void;
  onReceipt: (order: OrderView) => void;
  onRecordPayment: (order: OrderView) => void;
  onRefund: (order: OrderView) => void;
}

/** One order: customer, lines, amounts, its payments and refunds, its history, and its actions. */
export function OrderDetailModal({ order, storeName, fullScreen = false, onClose, onChangeStatus, onReceipt, onRecordPayment, onRefund }: Props) {
  const whatsapp = order ? customerWhatsappUrl(order, order.status, storeName) : null;
  return (
    <Modal
      open={order !== null}
      onCancel={onClose}
      title={order ? `Pedido ${order.code}` : 'Pedido'}
      footer={null}
      width={fullScreen ? '100%' : 720}
      className={fullScreen ? 'order-detail order-detail--full' : 'order-detail'}
      destroyOnHidden
    >
      {order && (
        <>
          <OfflineOrderNotice order={order} />
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
              {order.paymentMethod && order.orderType === 'pos' ? paymentMethodLabel(order.paymentMethod) : null}
            </Descriptions.Item>
            <Descriptions.Item label="Fecha">{formatDateTime(order.createdAt)}</Descriptions.Item>
          </Descriptions>
          <Space wrap className="order-detail__actions">
            <NextStepButton order={order} />
            <Button icon={<SwapOutlined />} disabled={allowedNextStatuses(order.status).length === 0} onClick={() => onChangeStatus(order)}>
              Cambiar estado
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
          <h3 className="order-detail__heading">Productos</h3>
          <Table<OrderItemView>
            className="order-detail__items"
            size="small"
            rowKey={(item) => item.productId}
            pagination={false}
            dataSource={order.items}
            columns={[
              { title: 'Producto', dataIndex: 'productName' },
              { title: 'Cant.', dataIndex: 'quantity', align: 'right' },
              { title: 'Precio', dataIndex: 'price', align: 'right', responsive: ['sm'], render: (v: number, item) => (item.listPrice === undefined ? formatMoney(v) : <>{formatMoney(v)} <s title="Precio de catálogo">{formatMoney(item.listPrice)}</s></>) },
              { title: 'Total', key: 'line', align: 'right', render: (_: unknown, item) => formatMoney(item.lineTotal) },
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
          </dl>
          <h3 className="order-detail__heading">Pagos</h3>
          <OrderPayments order={order} onRecordPayment={onRecordPayment} onRefund={onRefund} />
          <h3 className="order-detail__heading">Historial</h3>
          <OrderHistory order={order} />
        </>
      )}
    </Modal>
  );
}
