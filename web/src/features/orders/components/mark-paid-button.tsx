import { useRef } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { CheckCircleOutlined, DownOutlined } from '@ant-design/icons';
import { isCardPendingConfirmation, PAYMENT_RECORD_METHODS, paymentMethodLabel, type PaymentRecordMethod } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { formatMoney } from '../../../lib/format';
import { randomUuid } from '../../../lib/uuid';
import { toast } from '../../../components/toast/toast-store';
import { useRecordPayment } from '../api/record-payment';
import type { OrderView } from '../api/types';

/**
 * 'Marcar como pagado': one tap records the whole balance due in cash; the arrow beside it records it
 * by another method. One idempotency key per order and balance, so a double tap records one payment.
 */
export function MarkPaidButton({ order, block = false }: { order: OrderView; block?: boolean }) {
  const record = useRecordPayment();
  const key = useRef({ for: '', value: '' });
  const attemptKey = () => {
    const current = `${order.id}:${order.balanceDue}`;
    if (key.current.for !== current) key.current = { for: current, value: randomUuid() };
    return key.current.value;
  };
  // The promise, not mutate's callbacks: once paid, the list drops this button before they would run.
  const pay = (method: PaymentRecordMethod) =>
    record.mutateAsync({ orderId: order.id, body: { method, amount: order.balanceDue }, idempotencyKey: attemptKey() }).then(
      () => toast({ title: 'Pago registrado', description: `${order.code}: ${formatMoney(order.balanceDue)} · ${paymentMethodLabel(method)}` }),
      (error: unknown) => toast({ title: 'Error', description: serverMessageOr(error, 'No se pudo registrar el pago.'), variant: 'destructive' }),
    );
  return (
    <Space.Compact block={block}>
      {/* A card sale made offline is confirmed as card (issue 28). */}
      {isCardPendingConfirmation(order) ? (
        <Button type="primary" icon={<CheckCircleOutlined />} loading={record.isPending} onClick={() => pay('card')} aria-label={`Confirmar el pago con tarjeta del pedido ${order.code}`} block={block}>
          Confirmar pago con tarjeta
        </Button>
      ) : (
        <Button type="primary" icon={<CheckCircleOutlined />} loading={record.isPending} onClick={() => pay('cash')} aria-label={`Marcar como pagado el pedido ${order.code}`} block={block}>
          Marcar como pagado
        </Button>
      )}
      <Dropdown
        trigger={['click']}
        disabled={record.isPending}
        menu={{
          items: [{ type: 'group', key: 'with', label: 'Pagado con', children: PAYMENT_RECORD_METHODS.map((m) => ({ key: m, label: paymentMethodLabel(m) })) }],
          onClick: ({ key: method }) => pay(method as PaymentRecordMethod),
        }}
      >
        <Button type="primary" icon={<DownOutlined />} aria-label={`Otro método de pago para el pedido ${order.code}`} />
      </Dropdown>
    </Space.Compact>
  );
}
