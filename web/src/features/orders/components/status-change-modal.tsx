import { useEffect, useState } from 'react';
import { Alert, Button, Input, Modal, Radio, Space } from 'antd';
import { WhatsAppOutlined } from '@ant-design/icons';
import { allowedNextStatuses, ORDER_STATUS_LABELS, type PaymentRecordMethod } from '@tiendita/contracts';
import { serverMessageOr } from '../../../lib/api';
import { formatMoney } from '../../../lib/format';
import { toast } from '../../../components/toast/toast-store';
import { useUpdateOrderStatus } from '../api/update-order-status';
import type { OrderStatus, OrderView } from '../api/types';
import { OrderMessages } from '../lib/order-messages';
import { customerWhatsappUrl } from '../lib/whatsapp';
import { StatusTag } from './order-tags';
import { PaymentMethodPicker } from './payment-method-picker';

/**
 * Pick the new state (only the next forward step, and cancel where allowed), an optional note, confirm.
 * After the change, one tap opens WhatsApp to the customer with a message for the new state.
 */
export function StatusChangeModal({ order, storeName, onClose }: { order: OrderView | null; storeName?: string; onClose: () => void }) {
  const options = order ? allowedNextStatuses(order.status) : [];
  const [status, setStatus] = useState<OrderStatus | null>(null);
  const [notes, setNotes] = useState('');
  const [refundMethod, setRefundMethod] = useState<PaymentRecordMethod>('cash');
  const [done, setDone] = useState<OrderStatus | null>(null);
  const update = useUpdateOrderStatus();
  // Cancelling an order that was paid gives the money back: the owner says how.
  const refund = order && status === 'cancelled' && order.amountPaid > 0 ? order.amountPaid : 0;

  useEffect(() => {
    setStatus(order ? (allowedNextStatuses(order.status)[0] ?? null) : null);
    setNotes('');
    setRefundMethod(order?.payments[0]?.method ?? 'cash');
    setDone(null);
  }, [order]);

  const confirm = () => {
    if (!order || !status) return;
    update.mutate(
      { id: order.id, status, notes, refundMethod: refund > 0 ? refundMethod : undefined },
      {
        onSuccess: () => {
          toast({ title: OrderMessages.statusUpdated, description: `${order.code}: ${ORDER_STATUS_LABELS[status]}` });
          setDone(status);
        },
        onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, OrderMessages.statusFailed), variant: 'destructive' }),
      },
    );
  };

  const whatsapp = order && done ? customerWhatsappUrl(order, done, storeName) : null;
  return (
    <Modal
      open={order !== null}
      onCancel={onClose}
      title="Cambiar estado del pedido"
      destroyOnHidden
      footer={
        done ? (
          <Space wrap>
            {whatsapp && (
              <Button type="primary" icon={<WhatsAppOutlined />} href={whatsapp} target="_blank" rel="noopener noreferrer">
                Avisar al cliente por WhatsApp
              </Button>
            )}
            <Button onClick={onClose}>Cerrar</Button>
          </Space>
        ) : (
          <Space>
            <Button onClick={onClose}>Cancelar</Button>
            <Button type="primary" loading={update.isPending} disabled={!status} onClick={confirm}>
              Confirmar
            </Button>
          </Space>
        )
      }
    >
      {order && !done && (
        <Space orientation="vertical" style={{ width: '100%' }}>
          <p>
            Pedido <strong>{order.code}</strong>, estado actual <StatusTag status={order.status} />
          </p>
          {options.length === 0 ? (
            <Alert type="info" showIcon title="Este pedido ya no puede cambiar de estado." />
          ) : (
            <Radio.Group value={status} onChange={(e) => setStatus(e.target.value as OrderStatus)} aria-label="Nuevo estado">
              <Space orientation="vertical">
                {options.map((s) => (
                  <Radio key={s} value={s}>
                    {s === 'cancelled' ? 'Cancelar pedido' : ORDER_STATUS_LABELS[s]}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          )}
          {refund > 0 && (
            <div className="payment-form__field">
              <span>
                Se reembolsarán <strong>{formatMoney(refund)}</strong> pagados. ¿Cómo se devuelve el dinero?
              </span>
              <PaymentMethodPicker label="Método del reembolso" value={refundMethod} onChange={setRefundMethod} />
            </div>
          )}
          <Input.TextArea aria-label="Nota (opcional)" placeholder="Nota (opcional)" maxLength={1000} rows={3} value={notes} onChange={(e) => setNotes(e.target.value)} />
        </Space>
      )}
      {order && done && (
        <Alert
          type="success"
          showIcon
          title={`${OrderMessages.statusUpdated}: ${ORDER_STATUS_LABELS[done]}`}
          description={whatsapp ? 'Avísale al cliente con un toque: el mensaje ya va escrito.' : 'El pedido no tiene teléfono para avisar por WhatsApp.'}
        />
      )}
    </Modal>
  );
}
