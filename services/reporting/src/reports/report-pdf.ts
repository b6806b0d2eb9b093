import { formatGtDateTime, formatQuetzales as money, ORDER_STATUS_LABELS, PAYMENT_METHOD_LABELS, PAYMENT_STATUS_LABELS, REPORT_CHANNEL_LABELS as CHANNEL_LABELS, type ReportOrder } from '@tiendita/contracts';
import PDFDocument from 'pdfkit';
import { type ExportInput, methodsLabel, periodLabel, splitOrders } from './exports';

const MARGIN = 40;
const WIDTH = 595.28 - 2 * MARGIN; // A4
const BOTTOM = 841.89 - MARGIN - 24; // room for the footer
const INK = '#0f172a';
const MUTED = '#64748b';
const LINE = '#e2e8f0';
const DEFAULT_COLOR = '#16a34a';

interface Column<T> {
  title: string;
  width: number;
  align?: 'left' | 'right';
  value: (row: T) => string;
}

type Doc = InstanceType<typeof PDFDocument>;

/** A table with a coloured header row (repeated on each new page), amounts aligned right, and an optional bold totals row. */
function table<T>(doc: Doc, color: string, columns: Column<T>[], rows: T[], totals: string[] | null): void {
  const rowHeight = 18;
  const header = () => {
    const y = doc.y;
    doc.rect(MARGIN, y, WIDTH, rowHeight).fill(color);
    let x = MARGIN;
    doc.font('Helvetica-Bold').fontSize(8).fillColor('#ffffff');
    for (const c of columns) {
      doc.text(c.title, x + 4, y + 5, { width: c.width - 8, align: c.align ?? 'left', lineBreak: false });
      x += c.width;
    }
    doc.y = y + rowHeight;
  };
  const line = (cells: string[], bold: boolean, shade: boolean) => {
    if (doc.y + rowHeight > BOTTOM) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    if (shade) doc.rect(MARGIN, y, WIDTH, rowHeight).fill('#f8fafc');
    doc.moveTo(MARGIN, y + rowHeight).lineTo(MARGIN + WIDTH, y + rowHeight).lineWidth(0.5).strokeColor(LINE).stroke();
    let x = MARGIN;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(8).fillColor(INK);
    columns.forEach((c, i) => {
      // One line per cell: a longer text ends in '…' rather than running into the next row.
      doc.text(cells[i] ?? '', x + 4, y + 5, { width: c.width - 8, height: 10, align: c.align ?? 'left', ellipsis: true });
      x += c.width;
    });
    doc.y = y + rowHeight;
  };
  if (doc.y + rowHeight * 2 > BOTTOM) doc.addPage();
  header();
  rows.forEach((r, i) => line(columns.map((c) => c.value(r)), false, i % 2 === 1));
  if (totals) line(totals, true, false);
  doc.x = MARGIN;
}

function heading(doc: Doc, text: string): void {
  if (doc.y + 60 > BOTTOM) doc.addPage();
  doc.moveDown(1.2).font('Helvetica-Bold').fontSize(12).fillColor(INK).text(text, MARGIN, doc.y);
  doc.moveDown(0.4);
}

/** A row of boxes with a small label and a large figure. */
function boxes(doc: Doc, color: string, items: { label: string; value: string; note?: string }[]): void {
  const gap = 10;
  const w = (WIDTH - gap * (items.length - 1)) / items.length;
  const h = 54;
  const y = doc.y;
  items.forEach((item, i) => {
    const x = MARGIN + i * (w + gap);
    doc.roundedRect(x, y, w, h, 6).lineWidth(1).strokeColor(LINE).stroke();
    doc.rect(x, y + 6, 3, h - 12).fill(color);
    doc.font('Helvetica').fontSize(8).fillColor(MUTED).text(item.label, x + 10, y + 8, { width: w - 16, lineBreak: false });
    doc.font('Helvetica-Bold').fontSize(14).fillColor(INK).text(item.value, x + 10, y + 21, { width: w - 16, lineBreak: false });
    if (item.note) doc.font('Helvetica').fontSize(7.5).fillColor(MUTED).text(item.note, x + 10, y + 39, { width: w - 16, lineBreak: false });
  });
  doc.y = y + h + 10;
  doc.x = MARGIN;
}

/** The store's logo, or its initials in a circle of its colour. */
function logo(doc: Doc, input: ExportInput, color: string): void {
  if (input.logo) {
    try {
      doc.image(input.logo, MARGIN, MARGIN, { fit: [48, 48] });
      return;
    } catch {
      // not an image PDF can show: the initials instead
    }
  }
  const initials = input.storeName.split(/\s+/).filter(Boolean).slice(0, 2).map((w) => w[0].toUpperCase()).join('') || 'T';
  doc.circle(MARGIN + 24, MARGIN + 24, 24).fill(color);
  doc.font('Helvetica-Bold').fontSize(16).fillColor('#ffffff').text(initials, MARGIN, MARGIN + 16, { width: 48, align: 'center' });
}

const orderColumns: Column<ReportOrder>[] = [
  { title: 'Fecha', width: 72, value: (o) => formatGtDateTime(o.createdAt) },
  { title: 'Pedido', width: 52, value: (o) => o.code },
  { title: 'Cliente', width: 98, value: (o) => o.customerName },
  { title: 'Canal', width: 62, value: (o) => CHANNEL_LABELS[o.orderType] },
  { title: 'Estado', width: 60, value: (o) => ORDER_STATUS_LABELS[o.status] },
  { title: 'Pago', width: 100, value: (o) => methodsLabel(o) || PAYMENT_STATUS_LABELS[o.paymentStatus] },
  { title: 'Total', width: WIDTH - 444, align: 'right', value: (o) => money(o.total) },
];

/**
 * The period's report as a PDF: the store's name and logo, the period, summary boxes, payments by
 * method, the sales in a table with aligned amounts and totals, and the cancelled orders apart (not
 * in the sales figures). Every count and total in it comes from the same list of orders.
 */
export function reportPdf(input: ExportInput, options: { compress?: boolean } = {}): Promise<Buffer> {
  const { report, orders, storeName } = input;
  const color = /^#[0-9a-f]{6}$/i.test(input.color ?? '') ? input.color! : DEFAULT_COLOR;
  const { sales, cancelled, salesTotal, cancelledTotal } = splitOrders(orders);
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A4', margin: MARGIN, bufferPages: true, compress: options.compress ?? true, info: { Title: `Reporte de ventas — ${storeName}` } });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);

    logo(doc, input, color);
    doc.font('Helvetica-Bold').fontSize(18).fillColor(INK).text(storeName, MARGIN + 60, MARGIN + 4, { width: WIDTH - 60 });
    doc.font('Helvetica').fontSize(10).fillColor(MUTED).text(`Reporte de ventas · ${periodLabel(report)}`, MARGIN + 60, doc.y + 2, { width: WIDTH - 60 });
    doc.y = MARGIN + 64;
    doc.moveTo(MARGIN, doc.y).lineTo(MARGIN + WIDTH, doc.y).lineWidth(1).strokeColor(color).stroke();
    doc.y += 14;

    const average = sales.length ? Math.round((salesTotal * 100) / sales.length) / 100 : 0;
    boxes(doc, color, [
      { label: 'Ventas totales', value: money(salesTotal) },
      { label: 'Pedidos', value: String(sales.length) },
      { label: 'Ticket promedio', value: money(average) },
      { label: 'Cobrado (neto)', value: money(report.amountReceived) },
    ]);
    boxes(doc, color, [
      { label: 'WhatsApp', value: String(report.whatsappOrders), note: `${report.whatsappPercentage.toFixed(1)} % de los pedidos` },
      { label: 'Punto de venta', value: String(report.posOrders), note: `${report.posPercentage.toFixed(1)} % de los pedidos` },
      { label: 'Cancelados', value: String(cancelled.length), note: `${money(cancelledTotal)} (no son ventas)` },
      { label: 'Productos activos', value: String(report.activeProducts), note: `${report.lowStockProducts} con stock bajo` },
    ]);

    heading(doc, 'Cobros por método de pago');
    if (report.salesByPaymentMethod.length === 0) doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('No se registraron pagos en el periodo.');
    else {
      const m = report.salesByPaymentMethod;
      const sum = (pick: (x: (typeof m)[number]) => number) => Math.round(m.reduce((s, x) => s + Math.round(pick(x) * 100), 0)) / 100;
      table(
        doc,
        color,
        [
          { title: 'Método', width: 155, value: (x) => PAYMENT_METHOD_LABELS[x.paymentMethod] },
          { title: 'Pagos', width: 70, align: 'right', value: (x) => String(x.payments) },
          { title: 'Recibido', width: 100, align: 'right', value: (x) => money(x.received) },
          { title: 'Reembolsado', width: 100, align: 'right', value: (x) => money(x.refunded) },
          { title: 'Neto', width: WIDTH - 425, align: 'right', value: (x) => money(x.amount) },
        ],
        m,
        ['Total', String(m.reduce((s, x) => s + x.payments, 0)), money(sum((x) => x.received)), money(sum((x) => x.refunded)), money(sum((x) => x.amount))],
      );
    }

    heading(doc, `Pedidos (${sales.length})`);
    if (sales.length === 0) doc.font('Helvetica').fontSize(9).fillColor(MUTED).text('No hay ventas en el periodo.');
    else table(doc, color, orderColumns, sales, ['', '', '', '', '', 'Total', money(salesTotal)]);

    if (cancelled.length > 0) {
      heading(doc, `Pedidos cancelados (${cancelled.length})`);
      doc.font('Helvetica').fontSize(8.5).fillColor(MUTED).text('No cuentan en las ventas ni en el total de pedidos.').moveDown(0.3);
      table(doc, '#94a3b8', orderColumns, cancelled, ['', '', '', '', '', 'Total', money(cancelledTotal)]);
    }

    const range = doc.bufferedPageRange();
    for (let i = 0; i < range.count; i++) {
      doc.switchToPage(range.start + i);
      doc.page.margins.bottom = 0; // the footer sits in the bottom margin: no page break for it
      const footer = `${storeName} · Generado el ${formatGtDateTime(input.generatedAt)} · Página ${i + 1} de ${range.count}`;
      doc.font('Helvetica').fontSize(7.5).fillColor(MUTED).text(footer, MARGIN, 841.89 - MARGIN - 6, { width: WIDTH, align: 'center', lineBreak: false });
    }
    doc.end();
  });
}
