import { ORDER_STATUS_LABELS, PAYMENT_STATUS_LABELS, paymentMethodLabel, receiptTax } from '@tiendita/contracts';
import type { FelReceiptBlock, OrderView } from '@tiendita/contracts';
import type { StoreRow } from './store-reader';
import { DEFAULT_TAX_RATE, quetzalesText } from './pricing';
import { drawFelBlock, felBlockHeight } from './receipt-fel-pdf';

const q = (quetzales: number) => quetzalesText(Math.round(quetzales * 100));

const WIDTH = 227; // 80 mm in points
const MARGIN = 12;
const INNER = WIDTH - 2 * MARGIN;
const LOGO_BOX = 56;

/** Lines a free text takes at 8 pt in the receipt's width (about 40 characters a line), for the page height. */
function textLines(value: string | null | undefined): number {
  if (!value) return 0;
  return value.split('\n').reduce((n, line) => n + Math.max(1, Math.ceil(line.length / 38)), 0);
}

/**
 * The receipt of an order as a PDF sized for an 80 mm thermal printer (es-GT, America/Guatemala):
 * the store's logo (PNG or JPEG), name, address and phone, the owner's receipt header, the order,
 * its lines, subtotal, tax with the store's regime line, total, payment, the electronic invoice's
 * FEL block when the order has one (issue 25), and the receipt footer.
 * Uncompressed: a receipt is a few KB, and its text stays searchable by anything that reads it.
 */
export async function receiptPdf(order: OrderView, store: StoreRow | null, logo: Buffer | null = null, fel: FelReceiptBlock | null = null): Promise<Buffer> {
  // Loaded on the first receipt, not at start: a restarted ordering answers sooner (issue 26).
  const { default: PDFDocument } = await import('pdfkit');
  const tax = receiptTax(order, Number(store?.tax_rate ?? DEFAULT_TAX_RATE));
  const footer = store?.receipt_footer?.trim() || '¡Gracias por su compra!';
  const header = store?.receipt_header?.trim() || null;
  const itemLines = order.items.reduce((n, item) => n + 1 + textLines(item.productName), 0);
  const height = 330 + (logo ? LOGO_BOX + 6 : 0) + (textLines(header) + textLines(footer) + textLines(tax.note) + textLines(store?.address)) * 11 + itemLines * 11 + (order.payments.length * 2 + order.refunds.length) * 11 + felBlockHeight(fel);
  const doc = new PDFDocument({ size: [WIDTH, height], margin: MARGIN, compress: false, info: { Title: `Recibo ${order.code}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const row = (left: string, right: string, bold = false) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica');
    const y = doc.y;
    doc.text(left, MARGIN, y, { width: INNER * 0.6 });
    const after = doc.y;
    doc.text(right, MARGIN + INNER * 0.6, y, { width: INNER * 0.4, align: 'right' });
    doc.y = Math.max(after, doc.y);
  };
  const centered = (value: string) => doc.text(value, MARGIN, doc.y, { align: 'center', width: INNER });
  const rule = () => {
    doc.moveDown(0.3);
    doc.moveTo(MARGIN, doc.y).lineTo(WIDTH - MARGIN, doc.y).dash(2, { space: 2 }).stroke().undash();
    doc.moveDown(0.3);
  };
  const when = new Date(order.createdAt).toLocaleString('es-GT', { timeZone: 'America/Guatemala', dateStyle: 'short', timeStyle: 'short' });

  if (logo) {
    try {
      doc.image(logo, (WIDTH - LOGO_BOX) / 2, doc.y, { fit: [LOGO_BOX, LOGO_BOX], align: 'center', valign: 'center' });
      doc.y += LOGO_BOX + 6;
    } catch {
      // A file pdfkit cannot read (a damaged image) leaves the receipt without a logo, not without a receipt.
    }
  }
  doc.font('Helvetica-Bold').fontSize(11);
  centered(store?.name ?? 'Tienda');
  doc.font('Helvetica').fontSize(8);
  if (store?.address) centered(store.address);
  if (store?.phone) centered(`Tel. ${store.phone}`);
  if (header) {
    doc.moveDown(0.3);
    centered(header);
  }
  rule();
  row('Pedido', order.code, true);
  row('Fecha', when);
  row('Cliente', order.customerName ?? 'Cliente en tienda');
  row('NIT', order.customerNit ?? 'CF');
  row('Estado', ORDER_STATUS_LABELS[order.status]);
  rule();
  for (const item of order.items) {
    doc.font('Helvetica').text(item.productName, MARGIN, doc.y, { width: INNER });
    row(`  ${item.quantity} x ${q(item.price)}`, q(item.lineTotal));
  }
  rule();
  row('Subtotal', q(order.subtotal));
  row(tax.label, q(order.tax));
  row('Total', q(order.total), true);
  doc.font('Helvetica').fontSize(7);
  doc.moveDown(0.2);
  centered(tax.note);
  doc.fontSize(8);
  rule();
  // The payments themselves, by their Spanish method names; an order without any names its method.
  if (order.payments.length === 0) row('Método de pago', paymentMethodLabel(order.paymentMethod) || '—');
  for (const p of order.payments) {
    row(`Pago: ${paymentMethodLabel(p.method)}`, q(p.amount));
    if (p.cashReceived !== null) row('  Efectivo recibido', q(p.cashReceived));
    if (p.change !== null) row('  Cambio', q(p.change));
  }
  for (const r of order.refunds) row(`Reembolso: ${paymentMethodLabel(r.method)}`, `-${q(r.amount)}`);
  row('Estado del pago', PAYMENT_STATUS_LABELS[order.paymentStatus]);
  if (order.balanceDue > 0) row('Saldo pendiente', q(order.balanceDue));
  if (fel) drawFelBlock(doc, fel, { margin: MARGIN, inner: INNER, width: WIDTH, centered, rule });
  doc.moveDown(0.8);
  doc.font('Helvetica');
  centered(footer);
  doc.end();
  return done;
}
