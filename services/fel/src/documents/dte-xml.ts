import { distributeVat, type FelDocumentType, type FelPhrase, type FelReceiver } from '@tiendita/contracts';

/** Namespaces of SAT's DTE (GT_Documento-0.2.1.xsd) and annulment (GT_AnulacionDocumento-0.1.0.xsd). */
export const DTE_NAMESPACE = 'http://www.sat.gob.gt/dte/fel/0.2.0';
export const ANNULMENT_NAMESPACE = 'http://www.sat.gob.gt/dte/fel/0.1.0';
const DS = 'http://www.w3.org/2000/09/xmldsig#';

/** What a DTE says about its issuer (the store's FEL settings). */
export interface DteIssuer {
  nit: string;
  legalName: string;
  commercialName: string;
  establishmentCode: number;
  email: string | null;
  address: string;
  postalCode: string;
  municipality: string;
  department: string;
}

/** One line of the sale, centavos (unit price with IVA and discount included). */
export interface DteLine {
  description: string;
  quantity: number;
  unitPrice: number;
  lineTotal: number;
}

export interface DteInput {
  documentType: FelDocumentType | 'NCRE';
  /** A credit note's regime (GEN carries IVA, PEQ does not); a FACT/FPEQ's follows its type. */
  affiliation?: 'GEN' | 'PEQ';
  issuedAt: Date;
  /** A document issued in contingency (an offline sale): SAT's NumeroAcceso the device gave it. */
  accessNumber?: number | null;
  /** The Complementos element, as built (a credit note's ReferenciasNota). */
  complements?: string;
  issuer: DteIssuer;
  receiver: FelReceiver;
  phrases: FelPhrase[];
  lines: DteLine[];
}

/** A built DTE: its XML (unsigned, as sent to the certifier) and its totals in centavos. */
export interface BuiltDte {
  xml: string;
  total: number;
  vat: number;
}

/** Escapes text for an XML attribute or element. */
export function xmlText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** A collapsed, non-empty text of at most `max` characters (SAT's strings collapse whitespace). */
function clean(value: string, max: number, fallback: string): string {
  const v = value.replace(/\s+/g, ' ').trim().slice(0, max);
  return v || fallback;
}

const gtParts = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Guatemala',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** An instant as SAT writes it: Guatemalan wall time with milliseconds and -06:00. */
export function satDateTime(at: Date): string {
  const p = Object.fromEntries(gtParts.formatToParts(at).map((x) => [x.type, x.value]));
  const ms = String(at.getUTCMilliseconds()).padStart(3, '0');
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}.${ms}-06:00`;
}

const money = (centavos: number) => (centavos / 100).toFixed(2);

/**
 * The DTE for a sale: FACT (régimen general) with IVA per item, or FPEQ (Pequeño Contribuyente)
 * without tax lines. Each item's Total is its Precio (no Descuento: the sale's prices already carry
 * any discount); in a FACT MontoGravable + MontoImpuesto = Total and the items' IVA add up to the
 * order's IVA rounded once (distributeVat), so TotalMontoImpuesto and GranTotal are plain sums.
 */
export function buildDte(input: DteInput): BuiltDte {
  const { documentType, issuer, receiver } = input;
  const fact = (input.affiliation ?? (documentType === 'FPEQ' ? 'PEQ' : 'GEN')) === 'GEN';
  const vats = fact ? distributeVat(input.lines.map((l) => l.lineTotal)) : input.lines.map(() => 0);
  const items = input.lines
    .map((line, i) => {
      const taxes = fact
        ? `<dte:Impuestos><dte:Impuesto><dte:NombreCorto>IVA</dte:NombreCorto><dte:CodigoUnidadGravable>1</dte:CodigoUnidadGravable>` +
          `<dte:MontoGravable>${money(line.lineTotal - vats[i])}</dte:MontoGravable><dte:MontoImpuesto>${money(vats[i])}</dte:MontoImpuesto></dte:Impuesto></dte:Impuestos>`
        : '';
      return (
        `<dte:Item BienOServicio="B" NumeroLinea="${i + 1}"><dte:Cantidad>${line.quantity}</dte:Cantidad><dte:UnidadMedida>UNI</dte:UnidadMedida>` +
        `<dte:Descripcion>${xmlText(clean(line.description, 10000, 'Producto'))}</dte:Descripcion><dte:PrecioUnitario>${money(line.unitPrice)}</dte:PrecioUnitario>` +
        `<dte:Precio>${money(line.lineTotal)}</dte:Precio><dte:Descuento>0.00</dte:Descuento>${taxes}<dte:Total>${money(line.lineTotal)}</dte:Total></dte:Item>`
      );
    })
    .join('');
  const total = input.lines.reduce((s, l) => s + l.lineTotal, 0);
  const vat = vats.reduce((s, v) => s + v, 0);
  const access = input.accessNumber ? ` NumeroAcceso="${input.accessNumber}"` : '';
  const special = receiver.kind === 'CUI' ? ' TipoEspecial="CUI"' : '';
  const email = issuer.email ? ` CorreoEmisor="${xmlText(issuer.email)}"` : '';
  const phrases = input.phrases.length
    ? `<dte:Frases>${input.phrases.map((p) => `<dte:Frase CodigoEscenario="${p.scenario}" TipoFrase="${p.type}"/>`).join('')}</dte:Frases>`
    : '';
  const totals = fact
    ? `<dte:TotalImpuestos><dte:TotalImpuesto NombreCorto="IVA" TotalMontoImpuesto="${money(vat)}"/></dte:TotalImpuestos><dte:GranTotal>${money(total)}</dte:GranTotal>`
    : `<dte:GranTotal>${money(total)}</dte:GranTotal>`;
  const xml =
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<dte:GTDocumento xmlns:ds="${DS}" xmlns:dte="${DTE_NAMESPACE}" Version="0.1">` +
    `<dte:SAT ClaseDocumento="dte"><dte:DTE ID="DatosCertificados"><dte:DatosEmision ID="DatosEmision">` +
    `<dte:DatosGenerales CodigoMoneda="GTQ" FechaHoraEmision="${satDateTime(input.issuedAt)}"${access} Tipo="${documentType}"/>` +
    `<dte:Emisor AfiliacionIVA="${fact ? 'GEN' : 'PEQ'}" CodigoEstablecimiento="${issuer.establishmentCode}"${email} NITEmisor="${xmlText(issuer.nit)}" ` +
    `NombreComercial="${xmlText(clean(issuer.commercialName, 255, issuer.legalName))}" NombreEmisor="${xmlText(clean(issuer.legalName, 255, issuer.nit))}">` +
    `<dte:DireccionEmisor><dte:Direccion>${xmlText(clean(issuer.address, 200, 'Ciudad'))}</dte:Direccion><dte:CodigoPostal>${xmlText(issuer.postalCode)}</dte:CodigoPostal>` +
    `<dte:Municipio>${xmlText(clean(issuer.municipality, 100, 'Guatemala'))}</dte:Municipio><dte:Departamento>${xmlText(clean(issuer.department, 100, 'Guatemala'))}</dte:Departamento><dte:Pais>GT</dte:Pais></dte:DireccionEmisor></dte:Emisor>` +
    `<dte:Receptor IDReceptor="${xmlText(receiver.id)}" NombreReceptor="${xmlText(clean(receiver.name, 255, 'Consumidor Final'))}"${special}/>` +
    `${phrases}<dte:Items>${items}</dte:Items><dte:Totales>${totals}</dte:Totales>${input.complements ?? ''}` +
    `</dte:DatosEmision></dte:DTE></dte:SAT></dte:GTDocumento>\n`;
  return { xml, total, vat };
}

/** The namespace of SAT's complement a credit or debit note carries (GT_Complemento_Referencia_Nota-0.1.0.xsd). */
export const NOTE_REFERENCE_NAMESPACE = 'http://www.sat.gob.gt/face2/ComplementoReferenciaNota/0.1.0';

const gtDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit', day: '2-digit' });

export interface CreditNoteInput {
  affiliation: 'GEN' | 'PEQ';
  issuedAt: Date;
  issuer: DteIssuer;
  receiver: FelReceiver;
  /** What is given back, centavos (IVA included for GEN). */
  amount: number;
  description: string;
  reason: string;
  /** The certified document the note corrects. */
  origin: { authorization: string; issuedAt: Date };
}

/**
 * A credit note (NCRE) for money given back on a certified sale: one item for the amount (its IVA
 * contained, as the sale's was, for a GEN issuer), and the ReferenciasNota complement naming the
 * original's authorisation, its date of issue (Guatemala) and the reason. No phrases: SAT's phrases
 * of the ISR regime describe invoices.
 */
export function buildCreditNote(input: CreditNoteInput): BuiltDte {
  const reason = clean(input.reason, 200, 'Devolución parcial');
  const complement =
    `<dte:Complementos><dte:Complemento IDComplemento="ReferenciasNota" NombreComplemento="ReferenciasNota" URIComplemento="${NOTE_REFERENCE_NAMESPACE}">` +
    `<cno:ReferenciasNota xmlns:cno="${NOTE_REFERENCE_NAMESPACE}" FechaEmisionDocumentoOrigen="${gtDay.format(input.origin.issuedAt)}" MotivoAjuste="${xmlText(reason)}" ` +
    `NumeroAutorizacionDocumentoOrigen="${input.origin.authorization.toUpperCase()}" Version="0.1"/></dte:Complemento></dte:Complementos>`;
  return buildDte({
    documentType: 'NCRE',
    affiliation: input.affiliation,
    issuedAt: input.issuedAt,
    issuer: input.issuer,
    receiver: input.receiver,
    phrases: [],
    lines: [{ description: input.description, quantity: 1, unitPrice: input.amount, lineTotal: input.amount }],
    complements: complement,
  });
}

export interface AnnulmentInput {
  authorization: string;
  issuerNit: string;
  receiverId: string;
  issuedAt: Date;
  annulledAt: Date;
  reason: string;
}

/** The annulment of a certified DTE (GTAnulacionDocumento), unsigned, as sent to the certifier. */
export function buildAnnulment(input: AnnulmentInput): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<dte:GTAnulacionDocumento xmlns:ds="${DS}" xmlns:dte="${ANNULMENT_NAMESPACE}" Version="0.1">` +
    `<dte:SAT><dte:AnulacionDTE ID="DatosCertificados"><dte:DatosGenerales FechaEmisionDocumentoAnular="${satDateTime(input.issuedAt)}" ` +
    `FechaHoraAnulacion="${satDateTime(input.annulledAt)}" ID="DatosAnulacion" IDReceptor="${xmlText(input.receiverId)}" ` +
    `MotivoAnulacion="${xmlText(clean(input.reason, 255, 'Venta cancelada'))}" NITEmisor="${xmlText(input.issuerNit)}" NumeroDocumentoAAnular="${input.authorization}"/>` +
    `</dte:AnulacionDTE></dte:SAT></dte:GTAnulacionDocumento>\n`
  );
}

/** What a certified XML says about its certification (NITCertificador, NombreCertificador, FechaHoraCertificacion). */
export function certificationOf(xml: string): { nit: string; name: string; certifiedAt: string } | null {
  const nit = /<dte:NITCertificador>([^<]+)</.exec(xml)?.[1];
  const name = /<dte:NombreCertificador>([^<]+)</.exec(xml)?.[1];
  const at = /<dte:FechaHoraCertificacion>([^<]+)</.exec(xml)?.[1];
  if (!nit || !name || !at) return null;
  return { nit, name: unescapeXml(name), certifiedAt: new Date(at).toISOString() };
}

export function unescapeXml(value: string): string {
  return value.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}
