import { useEffect, useState } from 'react';
import { Alert, Button, Input, InputNumber, Modal, Space } from 'antd';
import type { PaymentRecordMethod } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { formatMoney } from '../../../lib/format';
import { toast } from '../../../components/toast/toast-store';
import { useRefundPayment } from '../api/refund-payment';
import type { OrderView } from '../api/types';
import { PaymentMethodPicker } from './payment-method-picker';

/** 'Reembolsar': money given back by a method, at most what the shop still holds of the order, with an optional reason. */
export function RefundModal({ order, onClose }: { order: OrderView | null; onClose: () => void }) {
  const [method, setMethod] = useState<PaymentRecordMethod>('cash');
  const [amount, setAmount] = useState<number | null>(null);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const refund = useRefundPayment();

  useEffect(() => {
    setMethod(order?.payments[0]?.method ?? 'cash');
    setAmount(order ? order.amountPaid : null);
    setReason('');
    setError(null);
  }, [order]);

  const submit = () => {
    if (!order || amount === null) return;
    setError(null);
    refund.mutate(
      { orderId: order.id, body: { method, amount, reason: reason.trim() || undefined } },
      {
        onSuccess: () => {
          toast({ title: 'Reembolso registrado', description: `${order.code}: ${formatMoney(amount)}` });
          onClose();
        },
        onError: (e) => setError(serverMessageOr(e, 'No se pudo registrar el reembolso.')),
      },
    );
  };

  return (
    <Modal
      open={order !== null}
      onCancel={onClose}
      title={order ? `Reembolsar · ${order.code}` : 'Reembolsar'}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="primary" danger loading={refund.isPending} disabled={amount === null || amount <= 0} onClick={submit}>
            Registrar reembolso
          </Button>
        </Space>
      }
    >
      {order && (
        <div className="payment-form">
          <p>
            Pagado <strong>{formatMoney(order.amountPaid)}</strong> de {formatMoney(order.total)}
          </p>
          <PaymentMethodPicker label="Método del reembolso" value={method} onChange={setMethod} />
          <label className="payment-form__field">
            Monto
            <InputNumber prefix="Q" min={0} step={0.01} precision={2} inputMode="decimal" value={amount} onChange={(v) => setAmount(typeof v === 'number' ? v : null)} style={{ width: '100%' }} />
          </label>
          <label className="payment-form__field">
            Motivo (opcional)
            <Input.TextArea value={reason} maxLength={500} rows={2} onChange={(e) => setReason(e.target.value)} />
          </label>
          {error && <Alert type="error" showIcon title={error} />}
        </div>
      )}
    </Modal>
  );
}
