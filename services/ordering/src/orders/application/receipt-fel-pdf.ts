import type { FelReceiptBlock } from '@tiendita/contracts';
// The QR encoder antd's QRCode draws the web receipt's code with (Nayuki's qrcodegen): the same code in both.
import { Ecc, QrCode } from '@rc-component/qrcode/lib/libs/qrcodegen';

type Doc = PDFKit.PDFDocument;

const LINE = 11;
const QR_BOX = 110;

/** Lines a text takes at 8 pt in the receipt's width (about 38 characters a line). */
const lines = (value: string) => Math.max(1, Math.ceil(value.length / 38));

/** Height the FEL block takes on the page (points), for the page's size. */
export function felBlockHeight(block: FelReceiptBlock | null): number {
  if (!block) return 0;
  const rows = block.rows.reduce((n, r) => n + (r.long ? 1 + lines(r.value) : 1), 0);
  const texts = [...block.notices, ...block.phrases, block.pending ?? '', block.certifier ?? ''].filter(Boolean).reduce((n, t) => n + lines(t) + 0.3, 0);
  return 16 + 3 * LINE + (rows + texts + block.creditNotes.length) * LINE + (block.qr ? QR_BOX + 12 : 0);
}

/** SAT's verification QR as dark squares, `size` points wide, at (x, y). */
function drawQr(doc: Doc, value: string, x: number, y: number, size: number): void {
  const qr = QrCode.encodeText(value, Ecc.MEDIUM);
  const quiet = 2;
  const cell = size / (qr.size + 2 * quiet);
  for (let r = 0; r < qr.size; r++) {
    for (let c = 0; c < qr.size; c++) if (qr.getModule(c, r)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell + 0.05, cell + 0.05);
  }
  doc.fill('#000000');
}

export interface ReceiptGeometry {
  margin: number;
  inner: number;
  width: number;
  centered: (value: string) => void;
  rule: () => void;
}

/** A label and its value, the value wider than the receipt's other rows (receivers and dates are long). */
function felRow(doc: Doc, g: ReceiptGeometry, label: string, value: string): void {
  const y = doc.y;
  doc.text(label, g.margin, y, { width: g.inner * 0.36 });
  const after = doc.y;
  doc.text(value, g.margin + g.inner * 0.36, y, { width: g.inner * 0.64, align: 'right' });
  doc.y = Math.max(after, doc.y);
}

/**
 * The FEL block of the PDF receipt, from contracts' felReceiptBlock (the web print view draws the
 * same): document type in words, test and annulment notices, 'Factura en proceso de certificación'
 * while pending, series, number, authorisation, certification date, access number (contingency),
 * issuer and receiver, phrases, certifier, credit notes and SAT's QR.
 */
export function drawFelBlock(doc: Doc, block: FelReceiptBlock, g: ReceiptGeometry): void {
  g.rule();
  doc.font('Helvetica-Bold').fontSize(9);
  g.centered(block.title);
  doc.font('Helvetica').fontSize(7);
  g.centered(block.subtitle);
  doc.fontSize(8);
  for (const notice of block.notices) {
    doc.moveDown(0.3);
    const top = doc.y;
    doc.y += 3;
    doc.font('Helvetica-Bold');
    g.centered(notice);
    doc.rect(g.margin, top, g.inner, doc.y - top + 1).dash(1.5, { space: 1.5 }).stroke().undash();
    doc.y += 5;
  }
  doc.font('Helvetica');
  if (block.pending) {
    doc.moveDown(0.2);
    doc.font('Helvetica-Oblique');
    g.centered(block.pending);
    doc.font('Helvetica');
  }
  for (const row of block.rows) {
    if (row.long) {
      doc.text(`${row.label}:`, g.margin, doc.y, { width: g.inner });
      doc.font('Courier').fontSize(7.5).text(row.value, g.margin, doc.y, { width: g.inner, align: 'center' });
      doc.font('Helvetica').fontSize(8);
    } else {
      felRow(doc, g, row.label, row.value);
    }
  }
  doc.font('Helvetica-Bold');
  for (const phrase of block.phrases) g.centered(phrase);
  doc.font('Helvetica');
  if (block.certifier) g.centered(block.certifier);
  for (const note of block.creditNotes) felRow(doc, g, note.label, note.value);
  if (block.qr) {
    doc.moveDown(0.4);
    const y = doc.y;
    drawQr(doc, block.qr, (g.width - QR_BOX) / 2, y, QR_BOX);
    doc.y = y + QR_BOX + 4;
  }
}
