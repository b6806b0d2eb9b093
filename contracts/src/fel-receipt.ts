import { FEL_DOCUMENT_TYPE_LABELS, type FelInvoiceView } from './fel';
import { formatQuetzales } from './money';

// What a receipt prints of an order's DTE, in one place: the web print view draws it with React and
// ordering's PDF with pdfkit, from this same block (issue 25).

/** One line of the block: a label and its value; `long` values (the authorisation) go on a line of their own. */
export interface FelReceiptRow {
  label: string;
  value: string;
  long?: boolean;
}

export interface FelReceiptBlock {
  /** The document type in words: 'FACTURA' / 'FACTURA PEQUEÑO CONTRIBUYENTE'. */
  title: string;
  subtitle: string;
  /** Boxed notices: the sandbox's 'DOCUMENTO DE PRUEBA — sin validez fiscal', 'DOCUMENTO ANULADO'. */
  notices: string[];
  /** 'Factura en proceso de certificación' while the certifier has not certified it. */
  pending: string | null;
  rows: FelReceiptRow[];
  /** SAT's phrases of the issuer's regime. */
  phrases: string[];
  /** 'Certificador: NAME, NIT n' once certified. */
  certifier: string | null;
  /** What the QR code holds (SAT's verification of the authorisation), once certified. */
  qr: string | null;
  /** Credit notes (NCRE) issued for refunds of this sale. */
  creditNotes: FelReceiptRow[];
}

export const FEL_PENDING_TEXT = 'Factura en proceso de certificación';
export const FEL_TEST_TEXT = 'DOCUMENTO DE PRUEBA — sin validez fiscal';
export const FEL_ANNULLED_TEXT = 'DOCUMENTO ANULADO';

const dateTime = new Intl.DateTimeFormat('es-GT', { timeZone: 'America/Guatemala', day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** The FEL block of a receipt for an order's invoice. */
export function felReceiptBlock(invoice: FelInvoiceView): FelReceiptBlock {
  const certified = invoice.authorization !== null && (invoice.status === 'certified' || invoice.status === 'annulled');
  const notices: string[] = [];
  if (invoice.test) notices.push(FEL_TEST_TEXT);
  if (invoice.status === 'annulled') notices.push(FEL_ANNULLED_TEXT);
  const rows: FelReceiptRow[] = [];
  if (certified) {
    rows.push({ label: 'Serie', value: invoice.series ?? '—' }, { label: 'Número', value: invoice.number ?? '—' }, { label: 'Autorización', value: invoice.authorization ?? '—', long: true });
    if (invoice.certifiedAt) rows.push({ label: 'Certificación', value: dateTime.format(new Date(invoice.certifiedAt)) });
  }
  if (invoice.contingency) rows.push({ label: 'Número de acceso', value: String(invoice.contingency.accessNumber) });
  rows.push({ label: 'Emisor NIT', value: invoice.issuer.nit }, { label: 'Receptor', value: `${invoice.receiver.id} — ${invoice.receiver.name}` });
  return {
    title: FEL_DOCUMENT_TYPE_LABELS[invoice.documentType],
    subtitle: 'Documento Tributario Electrónico (FEL)',
    notices,
    pending: !certified && invoice.status !== 'annulled' ? FEL_PENDING_TEXT : null,
    rows,
    phrases: invoice.phrases.map((p) => p.text),
    certifier: certified && invoice.certifier ? `Certificador: ${invoice.certifier.name}, NIT ${invoice.certifier.nit}` : null,
    qr: certified ? invoice.verificationUrl : null,
    creditNotes: invoice.creditNotes.map((n) => ({
      label: n.authorization ? `Nota de crédito ${n.series ?? ''}-${n.number ?? ''}` : 'Nota de crédito (en proceso de certificación)',
      value: `-${formatQuetzales(n.total)}`,
    })),
  };
}
