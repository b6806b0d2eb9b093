import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Input, InputNumber, Modal, Radio, Result, Space, Tag } from 'antd';
import { serverMessageOr } from '../../../lib/api-error';
import { formatMoney } from '../../../lib/format';
import { toast } from '../../../components/toast/toast-store';
import { useCreatePosOrder } from '../../orders/api/create-pos-order';
import type { OrderView } from '../../orders/api/types';
import { OrderMessages } from '../../orders/lib/order-messages';
import { cartTotal, changeDue, newIdempotencyKey, QUICK_CASH, type PosLine } from '../lib/pos-cart';
import { OfflineCardMessages, receiverIdError, type OfflineCardPayments } from '@tiendita/contracts';
import { isNetworkFailure, queueOfflineSale } from '../offline/offline-pos';
import { OfflineReceipt } from '../offline/offline-receipt';
import type { QueuedSale } from '../offline/sale-queue';

type Method = 'cash' | 'card';

interface Props {
  open: boolean;
  lines: PosLine[];
  onClose: () => void;
  onSold: () => void;
  /** Offline: the owner's choice for card sales (refused, or queued as card pending confirmation). */
  cardOffline?: OfflineCardPayments;
  /** The POS knows it is offline (the browser says so). */
  offline?: boolean;
}

/**
 * Checkout of a POS sale: payment method (cash or card; kash and zigi coming soon), cash received with
 * quick amounts and the change to give back, and the customer's name (default 'Cliente en tienda'),
 * phone and NIT (default 'CF'). One idempotency key per attempt, reused when the same sale is retried.
 */
export function CheckoutModal({ open, lines, onClose, onSold, cardOffline = 'refuse', offline = false }: Props) {
  const total = cartTotal(lines);
  const [method, setMethod] = useState<Method>('cash');
  const [cash, setCash] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [nit, setNit] = useState('CF');
  const [error, setError] = useState<string | null>(null);
  const [sold, setSold] = useState<OrderView | null>(null);
  const [queued, setQueued] = useState<QueuedSale | null>(null);
  const key = useRef<string>(newIdempotencyKey());
  const create = useCreatePosOrder();
  // A changed cart is another sale: it gets its own key.
  const cartSignature = lines.map((l) => `${l.productId}:${l.quantity}`).join(',');
  useEffect(() => {
    key.current = newIdempotencyKey();
  }, [cartSignature]);

  useEffect(() => {
    if (open) {
      setError(null);
      setSold(null);
      setQueued(null);
    }
  }, [open]);

  const reset = () => {
    setMethod('cash');
    setCash(null);
    setName('');
    setPhone('');
    setNit('CF');
    key.current = newIdempotencyKey();
  };

  const submit = () => {
    setError(null);
    if (lines.length === 0) {
      toast({ title: OrderMessages.emptyCart, description: 'Agrega productos antes de cobrar.', variant: 'destructive' });
      return;
    }
    if (method === 'cash' && (cash === null || Math.round(cash * 100) < Math.round(total * 100))) {
      const text = `${OrderMessages.insufficientPayment}: ${OrderMessages.insufficientPaymentDetail}`;
      setError(text);
      toast({ title: OrderMessages.insufficientPayment, description: OrderMessages.insufficientPaymentDetail, variant: 'destructive' });
      return;
    }
    // Offline (issue 28): the sale goes to the device's queue under the same key; a card sale only
    // when the owner chose 'pago con tarjeta pendiente de confirmar', refused otherwise.
    const queue = async () => {
      const sale = await queueOfflineSale({
        deviceSaleId: key.current,
        lines: lines.map((l) => ({ productId: l.productId, name: l.name, quantity: l.quantity, price: l.price })),
        paymentMethod: method,
        cashReceived: method === 'cash' ? cash : null,
        customer: { customerName: name.trim() || OrderMessages.walkInCustomer, customerPhone: phone.trim() || undefined, customerNit: nit.trim() || OrderMessages.defaultNit },
      });
      setQueued(sale);
      reset();
      onSold();
    };
    const offlineAttempt = () => {
      if (method === 'card' && cardOffline !== 'pending') {
        setError(OfflineCardMessages.refused);
        toast({ title: OrderMessages.saleFailed, description: OfflineCardMessages.refused, variant: 'destructive' });
        return;
      }
      // The server refuses a NIT or CUI SAT would refuse: checked here, so the queued sale does not fail later.
      const nitError = receiverIdError(nit.trim() || OrderMessages.defaultNit);
      if (nitError) {
        setError(nitError);
        return;
      }
      queue().catch(() => setError('No se pudo guardar la venta en este dispositivo.'));
    };
    if (!navigator.onLine) {
      offlineAttempt();
      return;
    }
    create.mutate(
      {
        idempotencyKey: key.current,
        body: {
          customerName: name.trim() || OrderMessages.walkInCustomer,
          customerPhone: phone.trim(),
          customerNit: nit.trim() || OrderMessages.defaultNit,
          paymentMethod: method,
          cashReceived: method === 'cash' && cash !== null ? cash : undefined,
          // Prices and totals are the server's: the lines carry only product and quantity.
          items: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })),
        },
      },
      {
        onSuccess: (order) => {
          toast({ title: OrderMessages.saleRegistered, description: `${order.code} · ${formatMoney(order.total)}` });
          setSold(order);
          reset();
          onSold();
        },
        onError: (e) => {
          if (isNetworkFailure(e)) {
            offlineAttempt();
            return;
          }
          const message = serverMessageOr(e, OrderMessages.saleFailed);
          setError(message);
          toast({ title: OrderMessages.saleFailed, description: message === OrderMessages.saleFailed ? undefined : message, variant: 'destructive' });
        },
      },
    );
  };

  if (queued) {
    return (
      <Modal open={open} onCancel={onClose} footer={null} title="Venta" destroyOnHidden>
        <OfflineReceipt sale={queued} onClose={onClose} />
      </Modal>
    );
  }

  if (sold) {
    return (
      <Modal open={open} onCancel={onClose} footer={null} title="Venta" destroyOnHidden>
        <Result
          status="success"
          title={OrderMessages.saleRegistered}
          subTitle={
            <>
              Pedido {sold.code} · Total {formatMoney(sold.total)}
              {sold.change !== null && sold.change !== undefined && (
                <>
                  <br />
                  <strong className="pos-change">Cambio: {formatMoney(sold.change)}</strong>
                </>
              )}
            </>
          }
          extra={[
            <Link key="receipt" to={`/orders/${sold.id}/receipt`}>
              <Button type="primary">Ver recibo</Button>
            </Link>,
            <Button key="new" onClick={onClose}>
              Nueva venta
            </Button>,
          ]}
        />
      </Modal>
    );
  }

  const received = cash ?? 0;
  const change = changeDue(total, received);
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title="Cobrar"
      destroyOnHidden={false}
      footer={
        <Space>
          <Button onClick={onClose}>Cancelar</Button>
          <Button type="primary" loading={create.isPending} onClick={submit}>
            Confirmar venta
          </Button>
        </Space>
      }
    >
      <div className="pos-checkout">
        <div className="pos-checkout__total">
          <span>Total a cobrar</span>
          <strong>{formatMoney(total)}</strong>
        </div>
        <fieldset className="pos-checkout__methods">
          <legend>Método de pago</legend>
          <Radio.Group value={method} onChange={(e) => setMethod(e.target.value as Method)} optionType="button" buttonStyle="solid">
            <Radio.Button value="cash">Efectivo</Radio.Button>
            <Radio.Button value="card">Tarjeta</Radio.Button>
            <Radio.Button value="kash" disabled>
              Kash <Tag>{OrderMessages.comingSoon}</Tag>
            </Radio.Button>
            <Radio.Button value="zigi" disabled>
              Zigi <Tag>{OrderMessages.comingSoon}</Tag>
            </Radio.Button>
          </Radio.Group>
        </fieldset>
        {method === 'card' && offline && (
          <Alert
            type={cardOffline === 'pending' ? 'warning' : 'error'}
            showIcon
            title={cardOffline === 'pending' ? `Sin conexión: la venta quedará como «${OfflineCardMessages.pendingLabel.toLowerCase()}».` : OfflineCardMessages.refused}
          />
        )}
        {method === 'cash' && (
          <div className="pos-checkout__cash">
            <label htmlFor="pos-cash">Efectivo recibido</label>
            <InputNumber
              id="pos-cash"
              prefix="Q"
              min={0}
              step={0.01}
              precision={2}
              inputMode="decimal"
              value={cash}
              onChange={(v) => setCash(typeof v === 'number' ? v : null)}
              style={{ width: '100%' }}
              size="large"
            />
            <div className="pos-checkout__quick">
              {QUICK_CASH.map((q) => (
                <Button key={q} onClick={() => setCash(q)}>
                  Q{q}
                </Button>
              ))}
              <Button onClick={() => setCash(total)}>Exacto</Button>
            </div>
            <div className="pos-checkout__change" aria-live="polite">
              <span>Cambio</span>
              <strong>{formatMoney(change)}</strong>
            </div>
          </div>
        )}
        <div className="pos-checkout__customer">
          <label>
            Nombre del cliente
            <Input value={name} placeholder={OrderMessages.walkInCustomer} maxLength={255} onChange={(e) => setName(e.target.value)} />
          </label>
          <label>
            Teléfono
            <Input value={phone} placeholder="Opcional" inputMode="tel" maxLength={20} onChange={(e) => setPhone(e.target.value)} />
          </label>
          <label>
            NIT
            <Input value={nit} placeholder="CF" maxLength={20} onChange={(e) => setNit(e.target.value)} />
          </label>
        </div>
        {error && <Alert type="error" showIcon title={error} />}
      </div>
    </Modal>
  );
}
