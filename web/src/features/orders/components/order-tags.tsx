import { Tag } from 'antd';
import { ORDER_STATUS_COLORS, ORDER_STATUS_LABELS, ORDER_TYPE_LABELS, PAYMENT_STATUS_COLORS, PAYMENT_STATUS_LABELS, type OrderStatus, type OrderType, type PaymentStatus } from '@tiendita/contracts';

export function StatusTag({ status }: { status: OrderStatus }) {
  return <Tag color={ORDER_STATUS_COLORS[status]}>{ORDER_STATUS_LABELS[status]}</Tag>;
}

/** The payment status chip; `prefix` ('Pago: ') tells it apart from the order's status where no column header does. */
export function PaymentTag({ status, prefix = '' }: { status: PaymentStatus; prefix?: string }) {
  return (
    <Tag color={PAYMENT_STATUS_COLORS[status]}>
      {prefix}
      {PAYMENT_STATUS_LABELS[status]}
    </Tag>
  );
}

export function TypeTag({ type }: { type: OrderType }) {
  return <Tag color={type === 'pos' ? 'default' : 'green'}>{ORDER_TYPE_LABELS[type]}</Tag>;
}
