import { Alert, App, Button, Card, Empty, Form, Input, InputNumber, List, Segmented, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { FileExcelOutlined, FilePdfOutlined, PrinterOutlined } from '@ant-design/icons';
import { ORDER_STATUS_COLORS, ORDER_STATUS_LABELS, PAYMENT_METHOD_LABELS, type OrderStatus, type ReportPeriod, type ReportResponse } from '@tiendita/contracts';
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { serverMessageOr } from '../../lib/api-error';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useMediaQuery } from '../shell/use-media-query';
import { exportUrl, useCashClose, useRecordCashCount, useReport } from './api/reports-api';
import './reports.css';

const PERIODS: { label: string; short: string; value: ReportPeriod }[] = [
  { label: 'Hoy', short: 'Hoy', value: 'today' },
  { label: 'Última semana', short: '7 días', value: 'week' },
  { label: 'Último mes', short: '1 mes', value: 'month' },
  { label: 'Último año', short: '1 año', value: 'year' },
];
/** A payment method's Spanish name (contracts' one list); 'none' is a sale without one. */
const methodLabel = (method: string) => (PAYMENT_METHOD_LABELS as Record<string, string>)[method] ?? (method === 'none' ? 'Sin método' : method);
const CHANNEL_COLORS = ['#16a34a', '#0ea5e9'];

/** '1 pedido', '3 pedidos'. */
const orders = (n: number) => `${n} ${n === 1 ? 'pedido' : 'pedidos'}`;

function todayInGuatemala(): string {
  return new Date(Date.now() - 6 * 3600 * 1000).toISOString().slice(0, 10);
}

function Charts({ report }: { report: ReportResponse }) {
  const channel = report.salesByChannel.map((c) => ({ name: c.channel === 'pos' ? 'Punto de venta' : 'WhatsApp', value: c.orders, amount: c.amount }));
  const series = report.series.map((p) => ({ ...p, label: report.granularity === 'day' ? p.label.slice(5) : p.label }));
  return (
    <div className="reports__charts">
      <Card title={report.granularity === 'hour' ? 'Ventas por hora' : 'Ventas por día'}>
        <div className="reports__chart" data-testid="sales-chart">
          <ResponsiveContainer width="100%" height={260}>
            <BarChart data={series}>
              <CartesianGrid strokeDasharray="3 3" vertical={false} />
              <XAxis dataKey="label" fontSize={11} />
              <YAxis fontSize={11} tickFormatter={(v: number) => `Q${v}`} width={60} />
              <Tooltip formatter={(v) => formatMoney(Number(v))} labelFormatter={(l) => String(l)} />
              <Bar dataKey="amount" name="Ventas" fill="#0ea5e9" radius={[4, 4, 0, 0]} />
            </BarChart>
          </ResponsiveContainer>
        </div>
      </Card>
      <Card title="Ventas por canal">
        <ResponsiveContainer width="100%" height={200}>
          <PieChart>
            <Pie data={channel} dataKey="value" nameKey="name" innerRadius={45} outerRadius={80} isAnimationActive={false}>
              {channel.map((c, i) => <Cell key={c.name} fill={CHANNEL_COLORS[i]} />)}
            </Pie>
            <Tooltip />
          </PieChart>
        </ResponsiveContainer>
        <List
          size="small"
          dataSource={report.salesByChannel}
          renderItem={(c, i) => (
            <List.Item>
              <span>
                <span className="reports__swatch" style={{ background: CHANNEL_COLORS[i] }} aria-hidden="true" />
                {c.channel === 'pos' ? 'Punto de venta' : 'WhatsApp'}: {orders(c.orders)} ({c.percentage.toFixed(1)}%)
              </span>
              <strong>{formatMoney(c.amount)}</strong>
            </List.Item>
          )}
        />
      </Card>
    </div>
  );
}

function CashClose() {
  const [date, setDate] = useState(todayInGuatemala());
  const close = useCashClose(date);
  const record = useRecordCashCount();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ countedCash: number; note?: string }>();
  return (
    <Card title="Corte de caja" extra={<Button icon={<PrinterOutlined />} onClick={() => window.print()}>Imprimir</Button>} className="cash-close">
      <Space wrap style={{ marginBottom: 12 }}>
        <Input type="date" value={date} max={todayInGuatemala()} onChange={(e) => e.target.value && setDate(e.target.value)} aria-label="Fecha del corte" />
      </Space>
      {close.isPending ? <Skeleton active /> : close.isError ? <Alert type="error" title="No se pudo cargar el corte de caja" /> : (
        <div className="ticket" data-testid="cash-close">
          <p><strong>Corte del {close.data.date}</strong></p>
          {close.data.salesByPaymentMethod.map((m) => <p key={m.paymentMethod}>{methodLabel(m.paymentMethod)} ({m.orders}): {formatMoney(m.amount)}</p>)}
          <p>Total vendido: {formatMoney(close.data.totalSales)} en {orders(close.data.orderCount)}</p>
          <p><strong>Efectivo esperado en caja: {formatMoney(close.data.expectedCash)}</strong></p>
          {close.data.countedCash !== null ? (
            <>
              <p>Efectivo contado: {formatMoney(close.data.countedCash)}</p>
              <p className={close.data.difference! < 0 ? 'neg' : ''}>Diferencia: {formatMoney(close.data.difference!)}</p>
              {close.data.note ? <p>Nota: {close.data.note}</p> : null}
            </>
          ) : null}
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
            { onSuccess: () => void message.success('Corte de caja registrado'), onError: (e) => void message.error(`Error: ${serverMessageOr(e, 'No se pudo registrar el corte de caja.')}`) },
          )
        }
      >
        <Form.Item name="countedCash" rules={[{ required: true, message: 'Ingresa el efectivo contado' }]}>
          <InputNumber min={0} step={0.01} precision={2} prefix="Q" placeholder="Efectivo contado" style={{ width: 180 }} />
        </Form.Item>
        <Form.Item name="note"><Input placeholder="Nota (opcional)" maxLength={500} /></Form.Item>
        <Button htmlType="submit" type="primary" loading={record.isPending}>Registrar conteo</Button>
      </Form>
    </Card>
  );
}

/** /reports (spec 001 §2): period selector, summary cards, charts, period summary, recent activity, exports and the cash close. */
export function ReportsPage() {
  const [period, setPeriod] = useState<ReportPeriod>('today');
  const report = useReport(period);
  // The four periods fit a 375 px phone only with their short names.
  const narrow = useMediaQuery('(max-width: 480px)');
  const { message } = App.useApp();
  const download = (kind: 'xlsx' | 'pdf') => {
    void message.info(kind === 'xlsx' ? 'Descargando Excel…' : 'Descargando PDF…');
    window.location.assign(exportUrl(kind, period));
  };
  return (
    <div className="reports">
      <div className="reports__head">
        <Typography.Title level={2} style={{ margin: 0 }}>Reportes</Typography.Title>
        <Space wrap>
          <Segmented
            aria-label="Periodo"
            options={PERIODS.map((p) => ({ value: p.value, label: narrow ? p.short : p.label, title: p.label }))}
            value={period}
            onChange={(v) => setPeriod(v as ReportPeriod)}
          />
          <Button icon={<FileExcelOutlined />} onClick={() => download('xlsx')}>Excel</Button>
          <Button icon={<FilePdfOutlined />} onClick={() => download('pdf')}>PDF</Button>
        </Space>
      </div>
      {report.isPending ? <Skeleton active /> : report.isError ? (
        <Alert type="error" showIcon title="No se pudo cargar el reporte" description={serverMessageOr(report.error, 'Inténtalo de nuevo en unos momentos.')} action={<Button onClick={() => void report.refetch()}>Reintentar</Button>} />
      ) : (
        <>
          <div className="reports__cards">
            <Card><Statistic title="Ventas totales" value={formatMoney(report.data.totalSales)} /></Card>
            <Card><Statistic title="Pedidos" value={report.data.orderCount} /></Card>
            <Card><Statistic title="Ticket promedio" value={formatMoney(report.data.averageTicket)} /></Card>
            <Card><Statistic title="Pedidos WhatsApp" value={report.data.whatsappOrders} suffix={<small>({report.data.whatsappPercentage.toFixed(1)}%)</small>} /></Card>
            <Card><Statistic title="Pedidos POS" value={report.data.posOrders} suffix={<small>({report.data.posPercentage.toFixed(1)}%)</small>} /></Card>
          </div>
          {report.data.orderCount === 0 ? <Card><Empty description="No hay datos de ventas" /></Card> : <Charts report={report.data} />}
          <div className="reports__row">
            <Card title="Resumen del periodo">
              <List size="small">
                <List.Item>Periodo: {report.data.from} a {report.data.to}</List.Item>
                <List.Item>Productos activos: {report.data.activeProducts}</List.Item>
                <List.Item>Productos con stock bajo: {report.data.lowStockProducts}</List.Item>
                <List.Item>Categorías activas: {report.data.activeCategories}</List.Item>
                {report.data.salesByPaymentMethod.length > 0 ? <List.Item className="reports__subhead">Por método de pago</List.Item> : null}
                {report.data.salesByPaymentMethod.map((m) => <List.Item key={m.paymentMethod}>{methodLabel(m.paymentMethod)}: {formatMoney(m.amount)} en {orders(m.orders)}</List.Item>)}
                {report.data.topProductsByAmount.length > 0 ? <List.Item className="reports__subhead">Productos que más vendieron</List.Item> : null}
                {report.data.topProductsByAmount.slice(0, 3).map((p) => <List.Item key={p.productId}>{p.name}: {p.units} u. · {formatMoney(p.amount)}</List.Item>)}
              </List>
            </Card>
            <Card title="Actividad reciente">
              {report.data.recentOrders.length === 0 ? <Empty description="No se encontraron pedidos" /> : (
                <Table
                  size="small"
                  rowKey="id"
                  pagination={false}
                  dataSource={report.data.recentOrders}
                  columns={[
                    { title: 'Pedido', dataIndex: 'code' },
                    { title: 'Cliente', dataIndex: 'customerName' },
                    // No sideways scroll: on a phone the order, customer, status and total fit; the date is in the order.
                    { title: 'Fecha', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), responsive: ['sm'] },
                    { title: 'Estado', dataIndex: 'status', render: (s: OrderStatus) => <Tag color={ORDER_STATUS_COLORS[s]}>{ORDER_STATUS_LABELS[s] ?? s}</Tag> },
                    { title: 'Total', dataIndex: 'total', align: 'right', render: (v: number) => formatMoney(v) },
                  ]}
                />
              )}
            </Card>
          </div>
        </>
      )}
      <CashClose />
    </div>
  );
}
