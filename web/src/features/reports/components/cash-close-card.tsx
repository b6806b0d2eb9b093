import { Alert, Button, Card, DatePicker, Form, Input, InputNumber, Skeleton, Table, Tag } from 'antd';
import { toast } from '../../../components/toast/toast-store';
import { PrinterOutlined } from '@ant-design/icons';
import { type CashCloseResponse, formatDay, formatGtDateTime, PAYMENT_METHOD_LABELS } from '@tiendita/contracts';
import dayjs from 'dayjs';
import { useState } from 'react';
import { serverMessageOr } from '../../../lib/api-error';
import { formatMoney } from '../../../lib/format';
import { useCashClose, useRecordCashCount } from '../api/reports-api';
import { CHANNEL_LABELS, ordersText, paymentsText } from '../report-labels';

function todayInGuatemala(): string {
  return new Date(Date.now() - 6 * 3600 * 1000).toISOString().slice(0, 10);
}

/** The printable ticket: money by method (received, refunded), the totals and the cash the drawer should hold. */
function Ticket({ close }: { close: CashCloseResponse }) {
  return (
    <div className="ticket" data-testid="cash-close">
      <p><strong>Corte del {formatDay(close.date)}</strong></p>
      {close.paymentsByMethod.length === 0 ? <p>Sin pagos registrados este día.</p> : null}
      {close.paymentsByMethod.map((m) => (
        <div key={m.paymentMethod} className="ticket__method">
          <p className="ticket__row"><span>{PAYMENT_METHOD_LABELS[m.paymentMethod]} ({paymentsText(m.payments)})</span><span>{formatMoney(m.received)}</span></p>
          {m.refunds > 0 ? <p className="ticket__row neg"><span>  Reembolsos ({m.refunds})</span><span>−{formatMoney(m.refunded)}</span></p> : null}
        </div>
      ))}
      <p className="ticket__row ticket__rule"><span>Total cobrado</span><span>{formatMoney(close.totalReceived)}</span></p>
      {close.totalRefunded > 0 ? <p className="ticket__row neg"><span>Total reembolsado</span><span>−{formatMoney(close.totalRefunded)}</span></p> : null}
      <p className="ticket__row"><strong>Efectivo esperado en caja</strong><strong>{formatMoney(close.expectedCash)}</strong></p>
      <p className="ticket__row"><span>Ventas del día</span><span>{formatMoney(close.totalSales)} en {ordersText(close.orderCount)}</span></p>
      {close.countedCash !== null ? (
        <>
          <p className="ticket__row ticket__rule"><span>Efectivo contado</span><span>{formatMoney(close.countedCash)}</span></p>
          <p className={`ticket__row${close.difference! < 0 ? ' neg' : ''}`}><span>Diferencia</span><span>{formatMoney(close.difference!)}</span></p>
          {close.note ? <p>Nota: {close.note}</p> : null}
        </>
      ) : null}
    </div>
  );
}

/** The day's payments and refunds, whatever the channel (a WhatsApp order paid in cash on delivery is here). */
function Movements({ close }: { close: CashCloseResponse }) {
  if (close.movements.length === 0) return null;
  return (
    <div className="no-print">
      <Table
        title={() => (close.movementCount > close.movements.length ? `Los ${close.movements.length} movimientos más recientes de ${close.movementCount}` : `Movimientos del día (${close.movementCount})`)}
        className="cash-close__movements"
        size="small"
        rowKey={(m) => `${m.kind}-${m.at}-${m.orderId}-${m.amount}`}
        pagination={close.movements.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
        dataSource={close.movements}
        columns={[
          { title: 'Hora', dataIndex: 'at', render: (v: string) => formatGtDateTime(v).slice(11) },
          { title: 'Pedido', dataIndex: 'orderCode', render: (v: string | null, m) => <>{v ?? '—'}{m.orderType ? <span className="cash-close__channel"> · {CHANNEL_LABELS[m.orderType]}</span> : null}</> },
          // On a phone: the hour, the order, the method and the amount (a refund's is negative).
          { title: 'Movimiento', dataIndex: 'kind', responsive: ['sm'], render: (k: 'payment' | 'refund') => (k === 'refund' ? <Tag color="purple">Reembolso</Tag> : <Tag color="green">Pago</Tag>) },
          { title: 'Método', dataIndex: 'paymentMethod', render: (m: keyof typeof PAYMENT_METHOD_LABELS) => PAYMENT_METHOD_LABELS[m] },
          { title: 'Registró', dataIndex: 'author', responsive: ['md'] },
          { title: 'Monto', dataIndex: 'amount', align: 'right', render: (v: number, m) => (m.kind === 'refund' ? `−${formatMoney(v)}` : formatMoney(v)) },
        ]}
      />
    </div>
  );
}

/** The daily cash close: pick a day, see the money of that day by method, record the counted cash. */
export function CashCloseCard() {
  const [date, setDate] = useState(todayInGuatemala());
  const close = useCashClose(date);
  const record = useRecordCashCount();
  const [form] = Form.useForm<{ countedCash: number; note?: string }>();
  return (
    <Card title="Corte de caja" extra={<Button icon={<PrinterOutlined />} onClick={() => window.print()}>Imprimir</Button>} className="cash-close">
      <DatePicker
        aria-label="Fecha del corte"
        format="DD/MM/YYYY"
        allowClear={false}
        value={dayjs(date)}
        disabledDate={(d) => d.format('YYYY-MM-DD') > todayInGuatemala()}
        onChange={(d) => d && setDate(d.format('YYYY-MM-DD'))}
        style={{ marginBottom: 12 }}
      />
      {close.isPending ? <Skeleton active /> : close.isError ? <Alert type="error" title="No se pudo cargar el corte de caja" /> : (
        <div className="cash-close__body">
          <Ticket close={close.data} />
          <Movements close={close.data} />
        </div>
      )}
      <Form
        form={form}
        layout="inline"
        className="no-print"
        style={{ marginTop: 12 }}
        onFinish={(v) =>
          record.mutate(
            { date, countedCash: v.countedCash, note: v.note?.trim() || null },
            { onSuccess: () => toast({ title: 'Corte de caja registrado' }), onError: (e) => toast({ title: `Error: ${serverMessageOr(e, 'No se pudo registrar el corte de caja.')}`, variant: 'destructive' }) },
          )
        }
      >
        <Form.Item name="countedCash" rules={[{ required: true, message: 'Ingresa el efectivo contado' }]}>
          <InputNumber min={0} step={0.01} precision={2} prefix="Q" placeholder="Efectivo contado" aria-label="Efectivo contado" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="note"><Input placeholder="Nota (opcional)" aria-label="Nota" maxLength={500} /></Form.Item>
        <Button htmlType="submit" type="primary" loading={record.isPending}>Registrar conteo</Button>
      </Form>
    </Card>
  );
}
