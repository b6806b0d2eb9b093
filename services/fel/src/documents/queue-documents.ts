import { felContingencyDeadline, felPhrases, felReceiver, type FelDocumentType, type FelPhrase } from '@tiendita/contracts';
import type { PoolClient } from 'pg';
import type { StoreFel } from '../settings/fel-settings.service';
import type { SaleSnapshot } from './documents.service';
import { buildDte } from './dte-xml';

/** A document as queueDocuments writes it (a row of fel.documents, pending). */
export interface QueuedDocument {
  order_id: string;
  store_id: string;
  order_code: string;
  document_type: FelDocumentType;
  issued_at: string;
  issuer_nit: string;
  issuer_name: string;
  commercial_name: string;
  receiver_id: string;
  receiver_name: string;
  total: number;
  vat: number;
  phrases: FelPhrase[];
  certifier: 'infile' | 'pruebas';
  xml_sent: string;
  access_number: number | null;
  contingency_deadline: string | null;
}

/** The DTE of a sale paid in full, built for the outbox (null: FEL is off for its store). */
export function documentOf(sale: SaleSnapshot, fel: StoreFel, paidAt: Date, receiverOverride?: { taxId: string; name?: string }): QueuedDocument | null {
  if (!fel.enabled || !fel.issuer) return null;
  // A sale made offline is issued in contingency: dated when it was sold, with the device's access number.
  const issuedAt = sale.offline ? new Date(sale.offline.soldAt) : paidAt;
  const accessNumber = sale.offline?.accessNumber ?? null;
  const documentType: FelDocumentType = fel.regime === 'PEQ' ? 'FPEQ' : 'FACT';
  const receiver = receiverOverride ? felReceiver(receiverOverride.taxId, receiverOverride.name ?? sale.customerName) : felReceiver(sale.customerNit, sale.customerName);
  const phrases = felPhrases(documentType, fel.isrRegime);
  const built = buildDte({
    documentType,
    issuedAt,
    issuer: fel.issuer,
    receiver,
    phrases,
    accessNumber,
    lines: sale.items.map((i) => ({ description: i.productName, quantity: i.quantity, unitPrice: i.unitPrice, lineTotal: i.lineTotal })),
  });
  return {
    order_id: sale.orderId,
    store_id: sale.storeId,
    order_code: sale.code,
    document_type: documentType,
    issued_at: issuedAt.toISOString(),
    issuer_nit: fel.issuer.nit,
    issuer_name: fel.issuer.legalName,
    commercial_name: fel.issuer.commercialName,
    receiver_id: receiver.id,
    receiver_name: receiver.name,
    total: built.total,
    vat: built.vat,
    phrases,
    certifier: fel.certifier,
    xml_sent: built.xml,
    access_number: accessNumber,
    contingency_deadline: accessNumber === null ? null : felContingencyDeadline(issuedAt).toISOString(),
  };
}

/**
 * Queues documents in the outbox in one statement, once per order (its id is the key: a redelivery
 * or a replay inserts nothing; within the list the first of an order wins). Answers how many are new.
 */
export async function queueDocuments(tx: PoolClient, documents: QueuedDocument[]): Promise<number> {
  const seen = new Set<string>();
  const rows = documents.filter((d) => !seen.has(d.order_id) && seen.add(d.order_id));
  if (rows.length === 0) return 0;
  const r = await tx.query(
    `INSERT INTO fel.documents (order_id, store_id, order_code, document_type, status, issued_at, issuer_nit, issuer_name, commercial_name,
       receiver_id, receiver_name, total, vat, phrases, certifier, xml_sent, access_number, contingency_deadline)
     SELECT d.order_id, d.store_id, d.order_code, d.document_type, 'pending', d.issued_at, d.issuer_nit, d.issuer_name, d.commercial_name,
            d.receiver_id, d.receiver_name, d.total, d.vat, d.phrases, d.certifier, d.xml_sent, d.access_number, d.contingency_deadline
       FROM jsonb_to_recordset($1::jsonb) AS d(order_id uuid, store_id uuid, order_code text, document_type text, issued_at timestamptz, issuer_nit text,
            issuer_name text, commercial_name text, receiver_id text, receiver_name text, total bigint, vat bigint, phrases jsonb, certifier text, xml_sent text,
            access_number integer, contingency_deadline timestamptz)
     ON CONFLICT (order_id) DO NOTHING`,
    [JSON.stringify(rows)],
  );
  return r.rowCount ?? 0;
}
