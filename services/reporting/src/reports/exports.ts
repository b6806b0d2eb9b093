import {
  formatDay,
  formatGtDateTime,
  ORDER_STATUS_LABELS,
  PAYMENT_METHOD_LABELS,
  PAYMENT_STATUS_LABELS,
  REPORT_CHANNEL_LABELS as CHANNEL_LABELS,
  type ReportOrder,
  type ReportResponse,
} from '@tiendita/contracts';
import ExcelJS from 'exceljs';

export const PERIOD_LABELS: Record<string, string> = { today: 'Hoy', week: 'Última semana', month: 'Último mes', year: 'Último año' };
const Q_FORMAT = '"Q"#,##0.00';

/** The methods an order was paid with, in Spanish ('Efectivo, Tarjeta'); '' when unpaid. */
export const methodsLabel = (o: ReportOrder) => o.paymentMethods.map((m) => PAYMENT_METHOD_LABELS[m]).join(', ');
/** 'Último mes (16/02/2026 a 15/03/2026)'; one day alone: 'Hoy (15/03/2026)'. */
export const periodLabel = (r: ReportResponse) => `${PERIOD_LABELS[r.period]} (${r.from === r.to ? formatDay(r.from) : `${formatDay(r.from)} a ${formatDay(r.to)}`})`;

export interface ExportInput {
  storeName: string;
  report: ReportResponse;
  /** Every order placed in the period, every status, newest first. */
  orders: ReportOrder[];
  /** When the export was made (its footer). */
  generatedAt: string;
  /** The store's logo (PNG or JPEG), if it has one the PDF can show. */
  logo?: Buffer | null;
  /** The store's main colour (#rrggbb), for the PDF's accents. */
  color?: string | null;
}

/** The sales of the period (not cancelled) and the cancelled orders, apart; their count and total agree with the summary. */
export function splitOrders(orders: ReportOrder[]) {
  const sales = orders.filter((o) => o.status !== 'cancelled');
  const cancelled = orders.filter((o) => o.status === 'cancelled');
  const sum = (list: ReportOrder[]) => Math.round(list.reduce((s, o) => s + Math.round(o.total * 100), 0)) / 100;
  return { sales, cancelled, salesTotal: sum(sales), cancelledTotal: sum(cancelled) };
}

function orderSheet(wb: ExcelJS.Workbook, name: string, orders: ReportOrder[], total: number) {
  const sheet = wb.addWorksheet(name);
  sheet.columns = [
    { header: 'Código', key: 'code', width: 14 },
    { header: 'Fecha', key: 'date', width: 18 },
    { header: 'Cliente', key: 'customer', width: 28 },
    { header: 'Canal', key: 'channel', width: 16 },
    { header: 'Estado', key: 'status', width: 16 },
    { header: 'Método de pago', key: 'method', width: 22 },
    { header: 'Estado de pago', key: 'paymentStatus', width: 16 },
    { header: 'Pagado', key: 'paid', width: 14, style: { numFmt: Q_FORMAT } },
    { header: 'Total', key: 'total', width: 14, style: { numFmt: Q_FORMAT } },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const o of orders) {
    sheet.addRow({
      code: o.code,
      date: formatGtDateTime(o.createdAt),
      customer: o.customerName,
      channel: CHANNEL_LABELS[o.orderType],
      status: ORDER_STATUS_LABELS[o.status],
      method: methodsLabel(o),
      paymentStatus: PAYMENT_STATUS_LABELS[o.paymentStatus],
      paid: o.amountPaid,
      total: o.total,
    });
  }
  const totals = sheet.addRow({ code: `Total (${orders.length})`, total });
  totals.font = { bold: true };
}

/** The period's report as an Excel workbook: Resumen (summary, channels, payments by method), Pedidos (the sales) and Cancelados. */
export async function reportXlsx({ report, orders, storeName, generatedAt }: ExportInput): Promise<Buffer> {
  const { sales, cancelled, salesTotal, cancelledTotal } = splitOrders(orders);
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Tiendita';
  const summary = wb.addWorksheet('Resumen');
  summary.columns = [{ width: 32 }, { width: 18 }, { width: 16 }, { width: 16 }, { width: 16 }];
  summary.addRow([`Reporte de ventas — ${storeName}`]).font = { bold: true, size: 14 };
  summary.addRow(['Periodo', periodLabel(report)]);
  summary.addRow(['Generado', formatGtDateTime(generatedAt)]);
  summary.addRow([]);
  const moneyRow = (label: string, value: number, extra?: string | number) => {
    const row = summary.addRow(extra === undefined ? [label, value] : [label, value, extra]);
    row.getCell(2).numFmt = Q_FORMAT;
  };
  moneyRow('Ventas totales', salesTotal);
  summary.addRow(['Pedidos', sales.length]);
  moneyRow('Ticket promedio', sales.length ? Math.round((salesTotal * 100) / sales.length) / 100 : 0);
  moneyRow('Cobrado (neto)', report.amountReceived);
  summary.addRow(['Pedidos WhatsApp', report.whatsappOrders, `${report.whatsappPercentage.toFixed(1)} %`]);
  summary.addRow(['Pedidos punto de venta', report.posOrders, `${report.posPercentage.toFixed(1)} %`]);
  moneyRow('Pedidos cancelados (no son ventas)', cancelledTotal, cancelled.length);
  summary.addRow(['Productos activos', report.activeProducts]);
  summary.addRow(['Productos con stock bajo', report.lowStockProducts]);
  summary.addRow(['Categorías activas', report.activeCategories]);
  summary.addRow([]);
  summary.addRow(['Canal', 'Ventas', 'Pedidos']).font = { bold: true };
  for (const c of report.salesByChannel) {
    const row = summary.addRow([CHANNEL_LABELS[c.channel], c.amount, c.orders]);
    row.getCell(2).numFmt = Q_FORMAT;
  }
  summary.addRow([]);
  summary.addRow(['Método de pago', 'Neto', 'Pagos', 'Recibido', 'Reembolsado']).font = { bold: true };
  for (const m of report.salesByPaymentMethod) {
    const row = summary.addRow([PAYMENT_METHOD_LABELS[m.paymentMethod], m.amount, m.payments, m.received, m.refunded]);
    for (const cell of [2, 4, 5]) row.getCell(cell).numFmt = Q_FORMAT;
  }
  orderSheet(wb, 'Pedidos', sales, salesTotal);
  orderSheet(wb, 'Cancelados', cancelled, cancelledTotal);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
