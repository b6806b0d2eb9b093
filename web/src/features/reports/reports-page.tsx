import { Alert, Button, Card, Empty, Segmented, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import { toast } from '../../components/toast/toast-store';
import { FileExcelOutlined, FilePdfOutlined } from '@ant-design/icons';
import {
  formatDay,
  ORDER_STATUS_COLORS,
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_COLORS,
  PAYMENT_STATUS_LABELS,
  type OrderStatus,
  type PaymentStatus,
  type ReportPeriod,
  type ReportResponse,
} from '@tiendita/contracts';
import { lazy, Suspense, useEffect, useState } from 'react';
import { serverMessageOr } from '../../lib/api-error';
import { formatDateTime, formatMoney } from '../../lib/format';
import { useMediaQuery } from '../shell/use-media-query';
import { exportUrl, useReport } from './api/reports-api';
import { CashCloseCard } from './components/cash-close-card';
import { ordersText, paymentsText } from './report-labels';
import './reports.css';

// The charts (recharts and d3, ~100 KB gzipped) are their own chunk, fetched with the report's data.
const loadReportCharts = () => import('./components/report-charts');
const ReportCharts = lazy(() => loadReportCharts().then((m) => ({ default: m.ReportCharts })));

const PERIODS: { label: string; short: string; value: ReportPeriod }[] = [
  { label: 'Hoy', short: 'Hoy', value: 'today' },
  { label: 'Última semana', short: '7 días', value: 'week' },
  { label: 'Último mes', short: '1 mes', value: 'month' },
  { label: 'Último año', short: '1 año', value: 'year' },
];

/** 'Del 16/02/2026 al 15/03/2026', or one day: '15/03/2026'. */
const periodText = (r: ReportResponse) => (r.from === r.to ? formatDay(r.from) : `Del ${formatDay(r.from)} al ${formatDay(r.to)}`);

function Summary({ report }: { report: ReportResponse }) {
  return (
    <Card title="Resumen del periodo">
      {/* Plain lists: antd's List puts its items in a div, which screen readers do not read as a list. */}
      <ul className="reports__facts">
        <li>Periodo: {periodText(report)}</li>
        <li>Productos activos: {report.activeProducts}</li>
        <li>Productos con stock bajo: {report.lowStockProducts}</li>
        <li>Categorías activas: {report.activeCategories}</li>
        {report.cancelledOrders > 0 ? <li>Cancelados (no son ventas): {ordersText(report.cancelledOrders)} · {formatMoney(report.cancelledAmount)}</li> : null}
      </ul>
      <h2 className="reports__subhead">Cobros por método de pago</h2>
      <ul className="reports__facts">
        {report.salesByPaymentMethod.length === 0 ? <li>Sin pagos registrados en el periodo</li> : null}
        {report.salesByPaymentMethod.map((m) => (
          <li key={m.paymentMethod}>
            <span>{PAYMENT_METHOD_LABELS[m.paymentMethod]}: {paymentsText(m.payments)}{m.refunds > 0 ? ` · reembolsado ${formatMoney(m.refunded)}` : ''}</span>
            <strong>{formatMoney(m.amount)}</strong>
          </li>
        ))}
      </ul>
      {report.topProductsByAmount.length > 0 ? (
        <>
          <h2 className="reports__subhead">Productos que más vendieron</h2>
          <ul className="reports__facts">
            {report.topProductsByAmount.slice(0, 3).map((p) => <li key={p.productId}>{p.name}: {p.units} u. · {formatMoney(p.amount)}</li>)}
          </ul>
        </>
      ) : null}
    </Card>
  );
}

function RecentActivity({ report }: { report: ReportResponse }) {
  return (
    <Card title="Actividad reciente">
      {report.recentOrders.length === 0 ? <Empty description="No se encontraron pedidos" /> : (
        <Table
          size="small"
          rowKey="id"
          pagination={false}
          dataSource={report.recentOrders}
          columns={[
            { title: 'Pedido', dataIndex: 'code' },
            { title: 'Cliente', dataIndex: 'customerName' },
            // No sideways scroll: on a phone the order, customer, status and total fit; the date is in the order.
            { title: 'Fecha', dataIndex: 'createdAt', render: (v: string) => formatDateTime(v), responsive: ['sm'] },
            { title: 'Estado', dataIndex: 'status', render: (s: OrderStatus) => <Tag color={ORDER_STATUS_COLORS[s]}>{ORDER_STATUS_LABELS[s]}</Tag> },
            { title: 'Pago', dataIndex: 'paymentStatus', responsive: ['md'], render: (s: PaymentStatus) => <Tag color={PAYMENT_STATUS_COLORS[s]}>{PAYMENT_STATUS_LABELS[s]}</Tag> },
            { title: 'Total', dataIndex: 'total', align: 'right', render: (v: number) => formatMoney(v) },
          ]}
        />
      )}
    </Card>
  );
}

/** /reports (spec 001 §2): period selector, summary cards, charts, period summary, recent activity, exports and the cash close. */
export function ReportsPage() {
  const [period, setPeriod] = useState<ReportPeriod>('today');
  const report = useReport(period);
  // Asked for at once, beside the report itself, not after it arrives.
  useEffect(() => void loadReportCharts().catch(() => undefined), []);
  // The four periods fit a 375 px phone only with their short names.
  const narrow = useMediaQuery('(max-width: 480px)');
  const download = (kind: 'xlsx' | 'pdf') => {
    toast({ title: kind === 'xlsx' ? 'Descargando Excel…' : 'Descargando PDF…' });
    window.location.assign(exportUrl(kind, period));
  };
  return (
    <div className="reports">
      <div className="reports__head">
        <div>
          <Typography.Title level={1} style={{ margin: 0, fontSize: 24 }}>Reportes</Typography.Title>
          {report.data ? <Typography.Text type="secondary" data-testid="report-period">{periodText(report.data)}</Typography.Text> : null}
        </div>
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
            <Card><Statistic title="Pedidos" value={report.data.orderCount} suffix={report.data.cancelledOrders > 0 ? <small>+ {report.data.cancelledOrders} cancelados</small> : null} /></Card>
            <Card><Statistic title="Ticket promedio" value={formatMoney(report.data.averageTicket)} /></Card>
            <Card><Statistic title="Cobrado (neto)" value={formatMoney(report.data.amountReceived)} /></Card>
            <Card><Statistic title="Pedidos WhatsApp" value={report.data.whatsappOrders} suffix={<small>({report.data.whatsappPercentage.toFixed(1)}%)</small>} /></Card>
            <Card><Statistic title="Pedidos POS" value={report.data.posOrders} suffix={<small>({report.data.posPercentage.toFixed(1)}%)</small>} /></Card>
          </div>
          {report.data.orderCount === 0 ? <Card><Empty description="No hay datos de ventas" /></Card> : <Suspense fallback={<Card><Skeleton active /></Card>}><ReportCharts report={report.data} /></Suspense>}
          <div className="reports__row">
            <Summary report={report.data} />
            <RecentActivity report={report.data} />
          </div>
        </>
      )}
      <CashCloseCard />
    </div>
  );
}
