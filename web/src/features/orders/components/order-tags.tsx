import { Tag } from 'antd';
import type { OrderStatus, OrderType, PaymentStatus } from '../api/types';
import { ORDER_TYPE_LABELS, PAYMENT_STATUS_COLORS, PAYMENT_STATUS_LABELS, STATUS_COLORS, STATUS_LABELS } from '../lib/order-status';

export function StatusTag({ status }: { status: OrderStatus }) {
  return <Tag color={STATUS_COLORS[status]}>{STATUS_LABELS[status]}</Tag>;
}

export function PaymentTag({ status }: { status: PaymentStatus }) {
  return <Tag color={PAYMENT_STATUS_COLORS[status]}>{PAYMENT_STATUS_LABELS[status]}</Tag>;
}

export function TypeTag({ type }: { type: OrderType }) {
  return <Tag color={type === 'pos' ? 'default' : 'green'}>{ORDER_TYPE_LABELS[type]}</Tag>;
}
