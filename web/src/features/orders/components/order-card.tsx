import { formatDateTime, formatMoney } from '../../../lib/format';
import type { OrderView } from '../api/types';
import { canRecordPayment } from '../lib/order-payments';
import { MarkPaidButton } from './mark-paid-button';
import { NextStepButton } from './next-step-button';
import { PaymentTag, StatusTag, TypeTag } from './order-tags';
import { OfflineOrderTags } from '../../pos/components/offline-order-tags';

/** One order on a phone: code, customer, total, status and payment chips, the next step and 'Marcar como pagado'. */
export function OrderCard({ order, onOpen }: { order: OrderView; onOpen: (order: OrderView) => void }) {
  const payable = canRecordPayment(order);
  return (
    <article className="order-card" aria-label={`Pedido ${order.code}`}>
      <button type="button" className="order-card__main" onClick={() => onOpen(order)} aria-label={`Ver pedido ${order.code}`}>
        <div className="order-card__row">
          <strong className="order-card__code">{order.code}</strong>
          <strong className="order-card__total">{formatMoney(order.total)}</strong>
        </div>
        <div className="order-card__row">
          <span className="order-card__customer">{order.customerName || 'Sin nombre'}</span>
          <span className="order-card__date">{formatDateTime(order.createdAt)}</span>
        </div>
        <div className="order-card__chips">
          <StatusTag status={order.status} />
          <PaymentTag status={order.paymentStatus} prefix="Pago: " />
          <TypeTag type={order.orderType} />
          <OfflineOrderTags order={order} />
          {payable && order.amountPaid > 0 && <span className="order-card__due">Debe {formatMoney(order.balanceDue)}</span>}
        </div>
      </button>
      <div className="order-card__actions">
        <NextStepButton order={order} />
        {payable && <MarkPaidButton order={order} block />}
      </div>
    </article>
  );
}
