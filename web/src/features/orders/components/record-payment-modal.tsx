import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Input, InputNumber, Modal, Space } from 'antd';
import type { PaymentRecordMethod } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { formatMoney } from '../../../lib/format';
import { randomUuid } from '../../../lib/uuid';
import { toast } from '../../../components/toast/toast-store';
import { changeDue } from '../../pos/lib/pos-cart';
import { useRecordPayment } from '../api/record-payment';
import type { OrderView } from '../api/types';
import { PaymentMethodPicker } from './payment-method-picker';

/**
 * 'Registrar pago': the method, the amount (the balance due to start with; less is a partial payment),
 * the bank reference of a transfer, and for cash what the customer handed over and the change.
 */
export function RecordPaymentModal({ order, onClose }: { order: OrderView | null; onClose: () => void }) {
  const [method, setMethod] = useState<PaymentRecordMethod>('cash');
  const [amount, setAmount] = useState<number | null>(null);
  const [reference, setReference] = useState('');
  const [received, setReceived] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = useRef('');
  const record = useRecordPayment();

  useEffect(() => {
    setMethod('cash');
    setAmount(order?.balanceDue ?? null);
    setReference('');
    setReceived(null);
    setError(null);
    key.current = randomUuid();
  }, [order]);

  const submit = () => {
    if (!order || amount === null) return;
    setError(null);
    const body = {
      method,
      amount,
      reference: method === 'transfer' ? reference.trim() || undefined : undefined,
      cashReceived: method === 'cash' && received !== null ? received : undefined,
    };
    record.mutate(
      { orderId: order.id, body, idempotencyKey: key.current },
      {
        onSuccess: (updated) => {
          toast({ title: 'Pago registrado', description: `${order.code}: ${formatMoney(amount)} · saldo pendiente ${formatMoney(updated.balanceDue)}` });
          onClose();
        },
        onError: (e) => setError(serverMessageOr(e, 'No se pudo registrar el pago.')),
      },
    );
  };

  return (
    <Modal
      open={order !== null}
      onCancel={onClose}
      title={order ? `Registrar pago · ${order.code}` : 'Registrar pago'}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="primary" loading={record.isPending} disabled={amount === null || amount <= 0} onClick={submit}>
            Registrar pago
          </Button>
        </Space>
      }
    >
      {order && (
        <div className="payment-form">
          <p>
            Total {formatMoney(order.total)} · Saldo pendiente <strong>{formatMoney(order.balanceDue)}</strong>
          </p>
          <PaymentMethodPicker label="Método de pago" value={method} onChange={setMethod} />
          <label className="payment-form__field">
            Monto
            <InputNumber prefix="Q" min={0} step={0.01} precision={2} inputMode="decimal" value={amount} onChange={(v) => setAmount(typeof v === 'number' ? v : null)} style={{ width: '100%' }} />
          </label>
          {method === 'transfer' && (
            <label className="payment-form__field">
              Referencia de la transferencia (opcional)
              <Input value={reference} maxLength={100} placeholder="Número de boleta o de autorización" onChange={(e) => setReference(e.target.value)} />
            </label>
          )}
          {method === 'cash' && (
            <>
              <label className="payment-form__field">
                Efectivo recibido (opcional)
                <InputNumber prefix="Q" min={0} step={0.01} precision={2} inputMode="decimal" value={received} onChange={(v) => setReceived(typeof v === 'number' ? v : null)} style={{ width: '100%' }} />
              </label>
              {received !== null && amount !== null && (
                <div className="payment-form__change" aria-live="polite">
                  <span>Cambio</span>
                  <strong>{formatMoney(changeDue(amount, received))}</strong>
                </div>
              )}
            </>
          )}
          {error && <Alert type="error" showIcon title={error} />}
        </div>
      )}
    </Modal>
  );
}
