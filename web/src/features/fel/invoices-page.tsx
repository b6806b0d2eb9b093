import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button, Card, DatePicker, Select, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { FEL_DOCUMENT_TYPE_LABELS, FEL_STATUS_LABELS, type FelInvoiceView, type FelStatus } from '@tiendita/contracts';
import { toast } from '../../components/toast/toast-store';
import { serverMessageOr } from '../../lib/api';
import { formatDateTime, formatMoney } from '../../lib/format';
import { type FelDocumentsFilter, monthlyBookUrl, useFelDocuments } from './api/fel-documents';
import { useFelSettings } from './api/fel-settings';
import { annulmentXmlUrl, creditNoteXmlUrl, invoiceXmlUrl, useRetryInvoice } from './api/order-invoice';
import { CorrectReceiverModal } from './components/correct-receiver-modal';
import './fel.css';

const STATUS_COLORS: Record<FelStatus, string> = { pending: 'gold', certified: 'green', failed: 'red', annulled: 'default' };

/** /invoices: 'Facturas', every DTE of the store with its state; retry, correct a refused NIT, the monthly book. */
export function InvoicesPage() {
  const [filter, setFilter] = useState<FelDocumentsFilter>({ page: 1 });
  const [month, setMonth] = useState<Dayjs>(dayjs());
  const [correcting, setCorrecting] = useState<FelInvoiceView | null>(null);
  const settings = useFelSettings();
  const documents = useFelDocuments(filter);
  const retry = useRetryInvoice();

  const doRetry = async (invoice: FelInvoiceView) => {
    try {
      await retry.mutateAsync(invoice.orderId);
      toast({ title: 'Factura enviada de nuevo', description: `El pedido ${invoice.orderCode} se vuelve a certificar.` });
    } catch (error) {
      toast({ title: 'No se pudo reintentar', description: serverMessageOr(error, 'Inténtalo de nuevo en unos momentos.'), variant: 'destructive' });
    }
  };

  const columns: ColumnsType<FelInvoiceView> = [
    { title: 'Fecha', dataIndex: 'issuedAt', render: (v: string) => formatDateTime(v), width: 150 },
    { title: 'Pedido', dataIndex: 'orderCode', width: 100 },
    { title: 'Tipo', dataIndex: 'documentType', render: (t: FelInvoiceView['documentType']) => FEL_DOCUMENT_TYPE_LABELS[t], width: 140 },
    { title: 'Serie / número', render: (_, d) => (d.series ? `${d.series} · ${d.number}` : '—'), width: 170 },
    {
      title: 'Receptor',
      render: (_, d) => (
        <>
          <div>{d.receiver.id}</div>
          <Typography.Text type="secondary">{d.receiver.name}</Typography.Text>
        </>
      ),
    },
    { title: 'Total', dataIndex: 'total', render: (v: number) => formatMoney(v), align: 'right', width: 100 },
    { title: 'IVA', dataIndex: 'vat', render: (v: number) => formatMoney(v), align: 'right', width: 90 },
    {
      title: 'Estado',
      render: (_, d) => (
        <>
          <Tag color={STATUS_COLORS[d.status]}>{FEL_STATUS_LABELS[d.status]}</Tag>
          {d.test && <Tag>Prueba</Tag>}
          {d.contingency && (
            <Tag color={d.contingency.late ? 'red' : 'gold'} title={`Plazo de la SAT: ${formatDateTime(d.contingency.deadline)}`}>
              Contingencia · acceso {d.contingency.accessNumber}
            </Tag>
          )}
          {d.error && d.status !== 'certified' && <div className="fel-error">{d.error}</div>}
          {d.contingency?.late && <div className="fel-error">Venció el plazo de contingencia de la SAT (5 días hábiles) sin certificar.</div>}
          {d.creditNotes.map((n) => (
            <div key={n.refundId} className="fel-note">
              Nota de crédito {n.series ? `${n.series} · ${n.number}` : ''} −{formatMoney(n.total)}: {FEL_STATUS_LABELS[n.status]}
              {n.error && n.status !== 'certified' && <div className="fel-error">{n.error}</div>}
            </div>
          ))}
        </>
      ),
      width: 220,
    },
    {
      title: 'Acciones',
      render: (_, d) => (
        <Space wrap size="small">
          {(d.status === 'failed' || d.status === 'pending') && (
            <Button size="small" icon={<ReloadOutlined />} onClick={() => void doRetry(d)} loading={retry.isPending && retry.variables === d.orderId}>
              Reintentar
            </Button>
          )}
          {d.status === 'failed' && (
            <Button size="small" onClick={() => setCorrecting(d)}>
              Corregir NIT
            </Button>
          )}
          <a href={invoiceXmlUrl(d.orderId)} target="_blank" rel="noreferrer">
            XML
          </a>
          {d.creditNotes
            .filter((n) => n.status === 'certified')
            .map((n, i) => (
              <a key={n.refundId} href={creditNoteXmlUrl(d.orderId, n.refundId)} target="_blank" rel="noreferrer">
                Nota de crédito{d.creditNotes.length > 1 ? ` ${i + 1}` : ''}
              </a>
            ))}
          {d.annulment && (
            <a href={annulmentXmlUrl(d.orderId)} target="_blank" rel="noreferrer">
              Anulación
            </a>
          )}
          <Link to={`/orders/${d.orderId}/receipt`}>Recibo</Link>
        </Space>
      ),
      width: 200,
    },
  ];

  const monthText = month.format('YYYY-MM');
  return (
    <>
      <header className="page-header">
        <h1>Facturas</h1>
        <p>Las facturas electrónicas (FEL) de tus ventas: certificadas, pendientes, rechazadas y anuladas.</p>
      </header>
      {settings.data && !settings.data.enabled && (
        <Alert
          type="info"
          showIcon
          className="fel-alert"
          title="La facturación electrónica está apagada"
          description={
            <span>
              Actívala en <Link to="/settings#fel">Configuración › Facturación (FEL)</Link> para que cada venta pagada reciba su factura.
            </span>
          }
        />
      )}
      <Card className="fel-card">
        <Space wrap className="fel-filters">
          <Select<FelStatus | 'all'>
            aria-label="Estado"
            value={filter.status ?? 'all'}
            style={{ minWidth: 160 }}
            onChange={(v) => setFilter((f) => ({ ...f, status: v === 'all' ? undefined : v, page: 1 }))}
            options={[{ value: 'all', label: 'Todos los estados' }, ...(Object.keys(FEL_STATUS_LABELS) as FelStatus[]).map((s) => ({ value: s, label: FEL_STATUS_LABELS[s] }))]}
          />
          <DatePicker.RangePicker
            aria-label="Fechas"
            format="DD/MM/YYYY"
            onChange={(range) => setFilter((f) => ({ ...f, from: range?.[0]?.format('YYYY-MM-DD'), to: range?.[1]?.format('YYYY-MM-DD'), page: 1 }))}
          />
        </Space>
        {documents.isError ? (
          <Alert type="error" showIcon title="No se pudieron cargar las facturas" description={serverMessageOr(documents.error, 'Inténtalo de nuevo en unos momentos.')} />
        ) : (
          <Table<FelInvoiceView>
            rowKey="orderId"
            size="small"
            loading={documents.isPending}
            columns={columns}
            dataSource={documents.data?.documents ?? []}
            scroll={{ x: 1100 }}
            locale={{ emptyText: 'No hay facturas con estos filtros.' }}
            pagination={{ current: filter.page, pageSize: 20, total: documents.data?.total ?? 0, showSizeChanger: false, onChange: (page) => setFilter((f) => ({ ...f, page })) }}
          />
        )}
      </Card>
      <Card className="fel-card" title="Libro de ventas del mes">
        <p>Para tu contador: fecha, tipo, serie, número, autorización, NIT y nombre del receptor, total, IVA y estado de cada factura del mes.</p>
        <Space wrap>
          <DatePicker picker="month" value={month} allowClear={false} format="MM/YYYY" onChange={(m) => m && setMonth(m)} aria-label="Mes" />
          <Button icon={<DownloadOutlined />} href={monthlyBookUrl(monthText, 'xlsx')}>
            Descargar Excel
          </Button>
          <Button icon={<DownloadOutlined />} href={monthlyBookUrl(monthText, 'csv')}>
            Descargar CSV
          </Button>
        </Space>
      </Card>
      <CorrectReceiverModal invoice={correcting} onClose={() => setCorrecting(null)} />
    </>
  );
}
