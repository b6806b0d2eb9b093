import { type FelCreditNoteView, felReceiver, type PaymentRefunded } from '@tiendita/contracts';
import type { Pool, PoolClient } from 'pg';
import type { StoreFel } from '../settings/fel-settings.service';
import type { DocumentRow } from './documents.service';
import { buildCreditNote } from './dte-xml';

/** A row of fel.credit_notes: the NCRE of one refund (its id is the certifier's Identificador). */
export interface CreditNoteRow {
  refund_id: string;
  order_id: string;
  store_id: string;
  status: 'pending' | 'certified' | 'failed';
  issued_at: Date;
  amount: string;
  vat: string | null;
  reason: string;
  certifier: 'infile' | 'pruebas';
  xml_sent: string | null;
  xml_certified: string | null;
  authorization_uuid: string | null;
  series: string | null;
  number: string | null;
  certified_at: Date | null;
  error: string | null;
  attempts: number;
}

const q = (centavos: string | number | null) => Math.round(Number(centavos ?? 0)) / 100;

export function creditNoteView(row: CreditNoteRow): FelCreditNoteView {
  return {
    refundId: row.refund_id,
    status: row.status,
    series: row.series,
    number: row.number,
    authorization: row.authorization_uuid,
    certifiedAt: row.certified_at?.toISOString() ?? null,
    issuedAt: row.issued_at.toISOString(),
    total: q(row.amount),
    vat: q(row.vat),
    reason: row.reason,
    error: row.error,
  };
}

/** The credit notes of some orders, oldest first, by order. */
export async function creditNotesOf(db: Pool | PoolClient, orderIds: string[]): Promise<Map<string, FelCreditNoteView[]>> {
  const out = new Map<string, FelCreditNoteView[]>();
  if (orderIds.length === 0) return out;
  const r = await db.query<CreditNoteRow>('SELECT * FROM fel.credit_notes WHERE order_id = ANY($1::uuid[]) ORDER BY issued_at, refund_id', [orderIds]);
  for (const row of r.rows) {
    const list = out.get(row.order_id) ?? [];
    list.push(creditNoteView(row));
    out.set(row.order_id, list);
  }
  return out;
}

/**
 * A refund of a sale with a DTE that is not its cancellation (a cancellation annuls the DTE): one
 * NCRE for the amount given back, queued once per refund. Its XML is built when it is sent, once
 * the original is certified (the note names the original's authorisation).
 */
export async function queueCreditNote(tx: PoolClient, refund: PaymentRefunded): Promise<boolean> {
  const r = await tx.query(
    `INSERT INTO fel.credit_notes (refund_id, order_id, store_id, status, issued_at, amount, reason, certifier)
     SELECT $1, d.order_id, d.store_id, 'pending', $3, $4, $5, d.certifier FROM fel.documents d
      WHERE d.order_id = $2 AND d.cancel_reason IS NULL AND d.status IN ('pending', 'certified', 'failed')
     ON CONFLICT (refund_id) DO NOTHING`,
    [refund.refundId, refund.orderId, refund.refundedAt, refund.amount, (refund.reason?.trim() || 'Devolución parcial').slice(0, 200)],
  );
  return (r.rowCount ?? 0) > 0;
}

/** The NCRE's XML for a refund of a certified document (as the store's settings stand now for the issuer). */
export function creditNoteXml(note: CreditNoteRow, origin: DocumentRow, fel: StoreFel): { xml: string; vat: number } | null {
  if (!fel.issuer || !origin.authorization_uuid) return null;
  const built = buildCreditNote({
    affiliation: origin.document_type === 'FPEQ' ? 'PEQ' : 'GEN',
    issuedAt: note.issued_at,
    issuer: fel.issuer,
    receiver: felReceiver(origin.receiver_id, origin.receiver_name),
    amount: Number(note.amount),
    description: `Devolución parcial del pedido ${origin.order_code}`,
    reason: note.reason,
    origin: { authorization: origin.authorization_uuid, issuedAt: origin.issued_at },
  });
  return { xml: built.xml, vat: built.vat };
}
