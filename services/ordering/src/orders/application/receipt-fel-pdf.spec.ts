import { type FelInvoiceView, felReceiptBlock, type OrderView } from '@tiendita/contracts';
import { writeFileSync } from 'node:fs';
import { receiptPdf } from './receipt';

/** The text a receipt PDF shows: pdfkit (uncompressed) writes each run as hex of WinAnsi bytes (0x97 is the em dash). */
function pdfText(pdf: Buffer): string {
  const body = pdf.toString('latin1');
  return [...body.matchAll(/\[((?:<[0-9a-fA-F]*>\s*-?[\d.]*\s*)+)\]\s*TJ/g)]
    .map((m) => [...m[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => Buffer.from(h[1], 'hex').toString('latin1').replace(/\x97/g, '—')).join(''))
    .join('\n')
    .replace(/\s*\n\s*/g, ' ');
}

const order: OrderView = {
  id: '7b0f3c4e-58a4-4a39-8d0b-2f0d4b1f9a11',
  storeId: 's1',
  code: 'PED-0042',
  customerName: 'Juan Pérez',
  customerPhone: null,
  customerAddress: null,
  customerEmail: null,
  customerNit: 'CF',
  subtotal: 52.38,
  tax: 6.29,
  total: 58.67,
  status: 'completed',
  orderType: 'pos',
  paymentMethod: 'cash',
  paymentStatus: 'paid',
  notes: null,
  whatsappMessage: null,
  items: [{ productId: 'p1', productName: 'Café molido 400 g', sku: null, quantity: 3, price: 19.56, lineTotal: 58.67 } as OrderView['items'][number]],
  cashReceived: 60,
  change: 1.33,
  payments: [],
  refunds: [],
  amountPaid: 58.67,
  balanceDue: 0,
  createdAt: '2026-11-28T15:00:00.000Z',
  updatedAt: '2026-11-28T15:00:00.000Z',
};

const pending: FelInvoiceView = {
  orderId: order.id,
  orderCode: order.code,
  status: 'pending',
  documentType: 'FPEQ',
  series: null,
  number: null,
  authorization: null,
  certifiedAt: null,
  certifier: null,
  issuer: { nit: '12521337', name: 'Tienda, S.A.', commercialName: 'Tienda' },
  receiver: { id: 'CF', name: 'Consumidor Final' },
  total: 58.67,
  vat: 0,
  error: null,
  phrases: [{ type: 3, scenario: 1, text: 'No genera derecho a crédito fiscal' }],
  test: false,
  issuedAt: '2026-11-28T15:00:00.000Z',
  annulment: null,
  verificationUrl: null,
  contingency: null,
  creditNotes: [],
};

const certified: FelInvoiceView = {
  ...pending,
  status: 'certified',
  documentType: 'FACT',
  vat: 6.29,
  series: 'DBB51AE2',
  number: '979518519',
  authorization: 'DBB51AE2-3A62-4437-B8E9-42ECFB761156',
  certifiedAt: '2026-11-28T15:00:02.000Z',
  certifier: { nit: '12345679', name: 'CERTIFICADOR DE PRUEBAS TIENDITA' },
  phrases: [{ type: 1, scenario: 1, text: 'Sujeto a pagos trimestrales ISR' }],
  test: true,
  verificationUrl: 'https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf?tipo=autorizacion&numero=DBB51AE2-3A62-4437-B8E9-42ECFB761156&emisor=12521337&receptor=CF&monto=58.67',
  contingency: { accessNumber: 482913507, deadline: '2026-12-05T05:59:59.999Z', late: false },
};

/** Filled squares the page draws (the QR's modules; the receipt draws no other filled rectangle). */
const filledSquares = (pdf: Buffer) => (pdf.toString('latin1').match(/ re\n/g) ?? []).length;

describe('bloque FEL del recibo PDF', () => {
  it('una factura certificada de prueba: tipo en palabras, serie, número, autorización, fecha, acceso, certificador, receptor, frase, aviso de prueba y el QR de la SAT', async () => {
    const pdf = await receiptPdf(order, null, null, felReceiptBlock(certified));
    if (process.env.FEL_SAMPLES_DIR) writeFileSync(`${process.env.FEL_SAMPLES_DIR}/recibo-certificado.pdf`, pdf);
    const text = pdfText(pdf);
    for (const expected of [
      'FACTURA',
      'DOCUMENTO DE PRUEBA — sin validez fiscal',
      'Serie',
      'DBB51AE2',
      '979518519',
      'DBB51AE2-3A62-4437-B8E9-42ECFB761156',
      'Certificación',
      '28/11/2026',
      'Número de acceso',
      '482913507',
      'Receptor',
      'CF — Consumidor Final',
      'Sujeto a pagos trimestrales ISR',
      'Certificador: CERTIFICADOR DE PRUEBAS TIENDITA, NIT 12345679',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('Factura en proceso de certificación');
    expect(filledSquares(pdf)).toBeGreaterThan(300);
  });

  it('una factura pendiente dice que está en proceso de certificación, sin serie ni QR; sin factura, sin bloque', async () => {
    const pdf = await receiptPdf(order, null, null, felReceiptBlock(pending));
    if (process.env.FEL_SAMPLES_DIR) writeFileSync(`${process.env.FEL_SAMPLES_DIR}/recibo-pendiente.pdf`, pdf);
    const text = pdfText(pdf);
    expect(text).toContain('FACTURA PEQUEÑO CONTRIBUYENTE');
    expect(text).toContain('Factura en proceso de certificación');
    expect(text).toContain('No genera derecho a crédito fiscal');
    expect(text).not.toContain('Serie');
    expect(text).not.toContain('DOCUMENTO DE PRUEBA');
    expect(filledSquares(pdf)).toBe(0);
    const none = pdfText(await receiptPdf(order, null, null, null));
    expect(none).not.toContain('FACTURA');
    expect(none).toContain('PED-0042');
  });
});
