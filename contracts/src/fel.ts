import { z } from 'zod';
import { DEFAULT_TAX_RATE, vatContained } from './vat';

// FEL (Factura Electrónica en Línea, SAT Guatemala): the rules the POS, the FEL service and the
// receipt share. The documents themselves are built by services/fel.

export const FelMessages = {
  nit: 'NIT inválido',
  cui: 'CUI inválido',
  issuerNit: 'El NIT del emisor no es válido (revisa el dígito verificador).',
  legalName: 'Escribe la razón social o el nombre del emisor tal como está inscrito en la SAT.',
  commercialName: 'Escribe el nombre comercial del establecimiento.',
  establishment: 'El código de establecimiento debe ser un número entero entre 1 y 9999.',
  certifier: "El certificador debe ser 'infile' o 'pruebas'.",
  environment: "El ambiente debe ser 'pruebas' o 'produccion'.",
  month: 'Mes inválido: usa el formato AAAA-MM.',
  reason: 'Escribe el motivo de la anulación (hasta 255 caracteres).',
  notFound: 'Esta venta no tiene factura electrónica.',
  notRetriable: 'Solo se puede reintentar una factura rechazada o pendiente.',
  notCorrectable: 'Solo se puede corregir el NIT de una factura rechazada.',
  incomplete: 'Para activar FEL completa el NIT del emisor, la razón social, el nombre comercial y el establecimiento.',
} as const;

/** Normalises what a cashier types as a NIT or CUI: no dashes or spaces, upper case ('1234567-k' → '1234567K'). */
export function normalizeTaxId(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

/** A NIT with its módulo-11 check digit (the last character, 0-9 or K). Expects a normalised value. */
export function isValidNit(nit: string): boolean {
  if (!/^[1-9]\d{0,11}[0-9K]$/.test(nit)) return false;
  const body = nit.slice(0, -1);
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[i]) * (body.length + 1 - i);
  const check = (11 - (sum % 11)) % 11;
  return nit.slice(-1) === (check === 10 ? 'K' : String(check));
}

/** Municipalities of each of the 22 departments, in RENAP's order (a CUI ends with department and municipality). */
const MUNICIPALITIES_PER_DEPARTMENT = [17, 8, 16, 16, 13, 14, 19, 8, 24, 21, 9, 30, 32, 21, 8, 17, 14, 5, 11, 11, 7, 17];

/**
 * A CUI (DPI) of 13 digits: 8 digits, a check digit (Σ digit × (position + 2) mod 11 over the first
 * eight), then an existing department (2 digits) and municipality (2 digits).
 */
export function isValidCui(cui: string): boolean {
  if (!/^\d{13}$/.test(cui)) return false;
  const department = Number(cui.slice(9, 11));
  const municipality = Number(cui.slice(11, 13));
  if (department < 1 || department > MUNICIPALITIES_PER_DEPARTMENT.length) return false;
  if (municipality < 1 || municipality > MUNICIPALITIES_PER_DEPARTMENT[department - 1]) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(cui[i]) * (i + 2);
  return sum % 11 === Number(cui[8]);
}

/** Whether a typed value means Consumidor Final: empty, 'CF' or 'C/F'. */
export function isConsumidorFinal(value: string | null | undefined): boolean {
  const v = (value ?? '').replace(/[\s/.-]/g, '').toUpperCase();
  return v === '' || v === 'CF';
}

export type FelReceiverKind = 'CF' | 'NIT' | 'CUI';
export interface FelReceiver {
  kind: FelReceiverKind;
  id: string;
  name: string;
}

/** The receiver a DTE names for an order's customer NIT (or CUI) and name; no check of the digits. */
export function felReceiver(taxId: string | null | undefined, customerName: string | null | undefined): FelReceiver {
  if (isConsumidorFinal(taxId)) return { kind: 'CF', id: 'CF', name: 'Consumidor Final' };
  const id = normalizeTaxId(taxId ?? '');
  const name = (customerName ?? '').trim() || 'Consumidor Final';
  return { kind: /^\d{13}$/.test(id) ? 'CUI' : 'NIT', id, name };
}

/**
 * Checks a receiver NIT or CUI as typed at the POS: null when it is fine (CF included), else the
 * Spanish message ('NIT inválido' / 'CUI inválido'). Thirteen digits are read as a CUI.
 */
export function receiverIdError(value: string | null | undefined): string | null {
  if (isConsumidorFinal(value)) return null;
  const id = normalizeTaxId(value ?? '');
  if (/^\d{13}$/.test(id)) return isValidCui(id) ? null : FelMessages.cui;
  return isValidNit(id) ? null : FelMessages.nit;
}

/** A receiver NIT, CUI or CF (a body field). */
export const ReceiverTaxId = z.string().superRefine((value, ctx) => {
  const error = receiverIdError(value);
  if (error) ctx.addIssue({ code: 'custom', message: error });
});

export const FelDocumentType = z.enum(['FACT', 'FPEQ']);
export type FelDocumentType = z.infer<typeof FelDocumentType>;

/** The document type in words, as the receipt prints it. */
export const FEL_DOCUMENT_TYPE_LABELS: Record<FelDocumentType, string> = { FACT: 'FACTURA', FPEQ: 'FACTURA PEQUEÑO CONTRIBUYENTE' };

export const FelStatus = z.enum(['pending', 'certified', 'failed', 'annulled']);
export type FelStatus = z.infer<typeof FelStatus>;
export const FEL_STATUS_LABELS: Record<FelStatus, string> = { pending: 'Pendiente', certified: 'Certificada', failed: 'Rechazada', annulled: 'Anulada' };

/** A sentence of SAT's catalogue of phrases (TipoFrase, CodigoEscenario) with its text. */
export interface FelPhrase {
  type: number;
  scenario: number;
  text: string;
}

/** ISR regime of a general-regime issuer: quarterly payments (phrase 1-1) or final withholding (phrase 1-2). */
export const IsrRegime = z.enum(['trimestral', 'retencion']);
export type IsrRegime = z.infer<typeof IsrRegime>;

/** The phrases SAT requires of each regime (catalogue of Frases): GEN names its ISR regime; PEQ says it gives no tax credit. */
export function felPhrases(documentType: FelDocumentType, isr: IsrRegime): FelPhrase[] {
  if (documentType === 'FPEQ') return [{ type: 3, scenario: 1, text: 'No genera derecho a crédito fiscal' }];
  return isr === 'retencion' ? [{ type: 1, scenario: 2, text: 'Sujeto a retención definitiva ISR' }] : [{ type: 1, scenario: 1, text: 'Sujeto a pagos trimestrales ISR' }];
}

/** IVA's rate in a FACT: Guatemala's IVA, contracts' one rate. */
export const FEL_VAT_RATE = DEFAULT_TAX_RATE;

/**
 * Each line's IVA for a FACT, in centavos: the order's IVA (rounded once on its total, as the sale
 * charged it) shared among the lines by their exact share, the leftover centavos going to the lines
 * with the largest remainders. So the sum of the lines' IVA is the order's IVA and no line differs
 * from its exact share by a centavo or more.
 */
export function distributeVat(lineTotals: readonly number[], rate: number = FEL_VAT_RATE): number[] {
  const total = lineTotals.reduce((s, t) => s + t, 0);
  const vat = vatContained(total, rate);
  const exact = lineTotals.map((t) => (total === 0 ? 0 : (vat * t) / total));
  const out = exact.map((x) => Math.floor(x));
  let left = vat - out.reduce((s, x) => s + x, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; left > 0 && k < order.length; k++, left--) out[order[k].i] += 1;
  return out;
}

/** SAT's public verification page for a certified DTE: what the receipt's QR code holds. */
export function felVerificationUrl(input: { authorization: string; issuerNit: string; receiverId: string; total: number }): string {
  const q = new URLSearchParams({ tipo: 'autorizacion', numero: input.authorization, emisor: input.issuerNit, receptor: input.receiverId, monto: input.total.toFixed(2) });
  return `https://felpub.c.sat.gob.gt/verificador-web/publico/vistas/verificacionDte.jsf?${q.toString()}`;
}

export const FelCertifier = z.enum(['infile', 'pruebas'], { error: FelMessages.certifier });
export type FelCertifier = z.infer<typeof FelCertifier>;
export const FelEnvironment = z.enum(['pruebas', 'produccion'], { error: FelMessages.environment });
export type FelEnvironment = z.infer<typeof FelEnvironment>;
/** The certifier's credentials (INFILE: user and key of the API, user and key of the signature). */
export const FEL_CREDENTIAL_FIELDS = ['apiUser', 'apiKey', 'signUser', 'signKey'] as const;
export type FelCredentialField = (typeof FEL_CREDENTIAL_FIELDS)[number];

/** GET /api/fel/settings: never the credentials, only whether each is set. */
export interface FelSettingsView {
  enabled: boolean;
  issuerNit: string | null;
  legalName: string | null;
  commercialName: string | null;
  establishmentCode: number;
  address: string;
  municipality: string;
  department: string;
  postalCode: string;
  email: string | null;
  ivaAffiliation: 'GEN' | 'PEQ';
  isrRegime: IsrRegime;
  certifier: FelCertifier;
  environment: FelEnvironment;
  credentials: Record<FelCredentialField, boolean>;
}

const text = (max: number, message: string) => z.string({ error: message }).trim().min(1, message).max(max, message);

/** PUT /api/fel/settings: any subset; a credential sent as '' or null is cleared, one left out is kept. */
export const UpdateFelSettingsRequest = z
  .object({
    enabled: z.boolean(),
    issuerNit: z.string().transform(normalizeTaxId).refine(isValidNit, FelMessages.issuerNit),
    legalName: text(255, FelMessages.legalName),
    commercialName: text(255, FelMessages.commercialName),
    establishmentCode: z.coerce.number({ error: FelMessages.establishment }).int(FelMessages.establishment).min(1, FelMessages.establishment).max(9999, FelMessages.establishment),
    address: text(200, 'La dirección del establecimiento es obligatoria (hasta 200 caracteres).'),
    municipality: text(100, 'El municipio es obligatorio (hasta 100 caracteres).'),
    department: text(100, 'El departamento es obligatorio (hasta 100 caracteres).'),
    postalCode: z.string().trim().regex(/^\d{1,10}$/, 'El código postal debe ser numérico.'),
    email: z.string().trim().email('Correo del emisor inválido').max(100).nullable(),
    isrRegime: IsrRegime,
    certifier: FelCertifier,
    environment: FelEnvironment,
    credentials: z.object(Object.fromEntries(FEL_CREDENTIAL_FIELDS.map((f) => [f, z.string().max(200).nullable().optional()])) as Record<FelCredentialField, z.ZodOptional<z.ZodNullable<z.ZodString>>>).partial(),
  })
  .partial()
  .strict();
export type UpdateFelSettingsRequest = z.infer<typeof UpdateFelSettingsRequest>;
/** What a client sends to PUT /api/fel/settings (before the server's normalising). */
export type UpdateFelSettingsBody = z.input<typeof UpdateFelSettingsRequest>;

/** GET /api/orders/{id}/invoice (amounts in quetzales). */
export interface FelInvoiceView {
  orderId: string;
  orderCode: string;
  status: FelStatus;
  documentType: FelDocumentType;
  series: string | null;
  number: string | null;
  authorization: string | null;
  certifiedAt: string | null;
  certifier: { nit: string; name: string } | null;
  issuer: { nit: string; name: string; commercialName: string };
  receiver: { id: string; name: string };
  total: number;
  vat: number;
  error: string | null;
  phrases: FelPhrase[];
  /** The sandbox's documents carry no fiscal value (the receipt says so). */
  test: boolean;
  issuedAt: string;
  annulment: { reason: string; annulledAt: string | null } | null;
  verificationUrl: string | null;
  /** A sale made offline (issue 28): its access number and the end of SAT's window to certify it; `late` once past it uncertified. */
  contingency: { accessNumber: number; deadline: string; late: boolean } | null;
  /** Credit notes (NCRE) issued for the sale's partial refunds, oldest first. */
  creditNotes: FelCreditNoteView[];
}

/** A credit note (NCRE, with SAT's ReferenciasNota complement) for a refund of a certified sale (amounts in quetzales). */
export interface FelCreditNoteView {
  refundId: string;
  status: Exclude<FelStatus, 'annulled'>;
  series: string | null;
  number: string | null;
  authorization: string | null;
  certifiedAt: string | null;
  issuedAt: string;
  total: number;
  vat: number;
  reason: string;
  error: string | null;
}

/** GET /api/fel/documents: the 'Facturas' list. */
export interface FelDocumentsPage {
  documents: FelInvoiceView[];
  total: number;
  page: number;
  totalPages: number;
}

/** PUT /api/orders/{id}/invoice/receiver: corrects a refused receiver and certifies again. */
export const CorrectReceiverRequest = z.object({ taxId: ReceiverTaxId, name: z.string().trim().max(255).optional() });
export type CorrectReceiverRequest = z.infer<typeof CorrectReceiverRequest>;

export const FelMonth = z.string({ error: FelMessages.month }).regex(/^\d{4}-(0[1-9]|1[0-2])$/, FelMessages.month);
