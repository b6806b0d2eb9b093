import { formatQuetzales, type ReportResponse } from '@tiendita/contracts';
import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';

const PERIOD: Record<string, string> = { today: 'Hoy', week: 'Última semana', month: 'Último mes', year: 'Último año' };
const STATUS: Record<string, string> = {
  pending: 'Pendiente', confirmed: 'Confirmado', preparing: 'Preparando', ready: 'Listo', out_for_delivery: 'En camino', delivered: 'Entregado', completed: 'Completado', cancelled: 'Cancelado',
};
const CHANNEL: Record<string, string> = { whatsapp: 'WhatsApp', pos: 'Punto de venta' };
const Q_FORMAT = '"Q"#,##0.00';
const money = formatQuetzales;
const gtTime = (iso: string) => new Date(new Date(iso).getTime() - 6 * 3600 * 1000).toISOString().slice(0, 16).replace('T', ' ');

export interface ExportInput {
  storeName: string;
  report: ReportResponse;
  orders: ReportResponse['recentOrders'];
}

/** The period's report as an Excel workbook: Resumen (summary and channel split) and Pedidos (every order). */
export async function reportXlsx({ report, orders, storeName }: ExportInput): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Tiendita';
  const summary = wb.addWorksheet('Resumen');
  summary.columns = [{ width: 32 }, { width: 18 }, { width: 14 }];
  summary.addRow([`Reporte de ventas — ${storeName}`]).font = { bold: true, size: 14 };
  summary.addRow(['Periodo', `${PERIOD[report.period]} (${report.from} a ${report.to})`]);
  summary.addRow([]);
  const moneyRow = (label: string, value: number) => {
    const row = summary.addRow([label, value]);
    row.getCell(2).numFmt = Q_FORMAT;
  };
  moneyRow('Ventas totales', report.totalSales);
  summary.addRow(['Pedidos', report.orderCount]);
  moneyRow('Ticket promedio', report.averageTicket);
  summary.addRow(['Pedidos WhatsApp', report.whatsappOrders, `${report.whatsappPercentage.toFixed(1)} %`]);
  summary.addRow(['Pedidos punto de venta', report.posOrders, `${report.posPercentage.toFixed(1)} %`]);
  summary.addRow(['Productos activos', report.activeProducts]);
  summary.addRow(['Productos con stock bajo', report.lowStockProducts]);
  summary.addRow(['Categorías activas', report.activeCategories]);
  summary.addRow([]);
  summary.addRow(['Canal', 'Ventas', 'Pedidos']).font = { bold: true };
  for (const c of report.salesByChannel) {
    const row = summary.addRow([CHANNEL[c.channel], c.amount, c.orders]);
    row.getCell(2).numFmt = Q_FORMAT;
  }
  const sheet = wb.addWorksheet('Pedidos');
  sheet.columns = [
    { header: 'Código', key: 'code', width: 14 },
    { header: 'Fecha', key: 'date', width: 18 },
    { header: 'Cliente', key: 'customer', width: 28 },
    { header: 'Canal', key: 'channel', width: 16 },
    { header: 'Estado', key: 'status', width: 14 },
    { header: 'Método de pago', key: 'method', width: 16 },
    { header: 'Total', key: 'total', width: 14, style: { numFmt: Q_FORMAT } },
  ];
  sheet.getRow(1).font = { bold: true };
  for (const o of orders) {
    sheet.addRow({ code: o.code, date: gtTime(o.createdAt), customer: o.customerName, channel: CHANNEL[o.orderType], status: STATUS[o.status] ?? o.status, method: o.paymentMethod ?? '', total: o.total });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The period's report as a PDF: the totals, the channel split and the orders. */
export function reportPdf({ report, orders, storeName }: ExportInput): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: 40, info: { Title: `Reporte de ventas — ${storeName}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.fontSize(16).text(`Reporte de ventas — ${storeName}`);
    doc.fontSize(10).text(`Periodo: ${PERIOD[report.period]} (${report.from} a ${report.to})`).moveDown();
    doc.fontSize(12).text(`Ventas totales: ${money(report.totalSales)}`);
    doc.text(`Pedidos: ${report.orderCount}`);
    doc.text(`Ticket promedio: ${money(report.averageTicket)}`);
    doc.text(`WhatsApp: ${report.whatsappOrders} (${report.whatsappPercentage.toFixed(1)} %)  ·  Punto de venta: ${report.posOrders} (${report.posPercentage.toFixed(1)} %)`);
    doc.text(`Productos activos: ${report.activeProducts}  ·  Stock bajo: ${report.lowStockProducts}  ·  Categorías activas: ${report.activeCategories}`).moveDown();
    doc.fontSize(12).text('Ventas por canal');
    for (const c of report.salesByChannel) doc.fontSize(10).text(`${CHANNEL[c.channel]}: ${money(c.amount)} en ${c.orders} ${c.orders === 1 ? 'pedido' : 'pedidos'} (${c.percentage.toFixed(1)} %)`);
    doc.moveDown().fontSize(12).text(`Pedidos (${orders.length})`);
    doc.fontSize(9);
    for (const o of orders) {
      doc.text(`${gtTime(o.createdAt)}  ${o.code}  ${o.customerName}  ${CHANNEL[o.orderType]}  ${STATUS[o.status] ?? o.status}  ${money(o.total)}`);
    }
    doc.end();
  });
}
