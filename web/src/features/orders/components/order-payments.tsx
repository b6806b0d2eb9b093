import { Button, Empty, Space } from 'antd';
import { DollarOutlined, RollbackOutlined } from '@ant-design/icons';
import { paymentMethodLabel } from '@tiendita/contracts';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { OrderView } from '../api/types';
import { canRecordPayment } from '../lib/order-payments';
import { MarkPaidButton } from './mark-paid-button';
import { PaymentTag } from './order-tags';

interface Props {
  order: OrderView;
  onRecordPayment: (order: OrderView) => void;
  onRefund: (order: OrderView) => void;
}

/** The money of an order: paid and due, each payment and refund with its method, author and time, and the payment actions. */
export function OrderPayments({ order, onRecordPayment, onRefund }: Props) {
  const moves = order.payments.length + order.refunds.length;
  const payable = canRecordPayment(order);
  const refundable = order.amountPaid > 0;
  return (
    <section className="order-payments" aria-label="Pagos">
      <div className="order-payments__summary">
        <PaymentTag status={order.paymentStatus} />
        <span>
          Recibido <strong>{formatMoney(order.amountPaid)}</strong>
        </span>
        {/* A cancelled order owes nothing. */}
        {order.status !== 'cancelled' && (
          <span>
            Saldo pendiente <strong className={order.balanceDue > 0 ? 'order-payments__due' : undefined}>{formatMoney(order.balanceDue)}</strong>
          </span>
        )}
      </div>
      {moves === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="Sin pagos registrados" />
      ) : (
        <ul className="order-payments__list">
          {order.payments.map((p) => (
            <li key={p.id} className="order-payment">
              <div className="order-payment__head">
                <strong>{paymentMethodLabel(p.method)}</strong>
                <strong>{formatMoney(p.amount)}</strong>
              </div>
              <div className="order-payment__meta">
                {formatDateTime(p.recordedAt)} · {p.recordedBy}
              </div>
              {p.reference && <div className="order-payment__meta">Referencia: {p.reference}</div>}
              {p.cashReceived !== null && (
                <div className="order-payment__meta">
                  Recibido {formatMoney(p.cashReceived)} · Cambio {formatMoney(p.change ?? 0)}
                </div>
              )}
            </li>
          ))}
          {order.refunds.map((r) => (
            <li key={r.id} className="order-payment order-payment--refund">
              <div className="order-payment__head">
                <strong>Reembolso · {paymentMethodLabel(r.method)}</strong>
                <strong>−{formatMoney(r.amount)}</strong>
              </div>
              <div className="order-payment__meta">
                {formatDateTime(r.refundedAt)} · {r.refundedBy}
              </div>
              {r.reason && <div className="order-payment__meta">Motivo: {r.reason}</div>}
            </li>
          ))}
        </ul>
      )}
      {(payable || refundable) && (
        <Space wrap>
          {payable && (
            <>
              <MarkPaidButton order={order} />
              <Button icon={<DollarOutlined />} onClick={() => onRecordPayment(order)}>
                Registrar pago
              </Button>
            </>
          )}
          {refundable && (
            <Button icon={<RollbackOutlined />} onClick={() => onRefund(order)}>
              Reembolsar
            </Button>
          )}
        </Space>
      )}
    </section>
  );
}
