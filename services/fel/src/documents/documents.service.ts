import { Inject, Injectable } from '@nestjs/common';
import {
  type CorrectReceiverRequest,
  felReceiver,
  felVerificationUrl,
  FelMessages,
  type FelCreditNoteView,
  type FelDocumentType,
  type FelDocumentsPage,
  type FelInvoiceView,
  type FelPhrase,
  FelStatus,
  type OrderLine,
} from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { FelSettingsService } from '../settings/fel-settings.service';
import { type CreditNoteRow, creditNotesOf } from './credit-notes';
import { buildDte } from './dte-xml';

/** A row of fel.documents. */
export interface DocumentRow {
  order_id: string;
  store_id: string;
  order_code: string;
  document_type: FelDocumentType;
  status: FelStatus;
  issued_at: Date;
  issuer_nit: string;
  issuer_name: string;
  commercial_name: string;
  receiver_id: string;
  receiver_name: string;
  total: string;
  vat: string;
  phrases: FelPhrase[];
  certifier: 'infile' | 'pruebas';
  xml_sent: string;
  xml_certified: string | null;
  authorization_uuid: string | null;
  series: string | null;
  number: string | null;
  certified_at: Date | null;
  certifier_nit: string | null;
  certifier_name: string | null;
  error: string | null;
  attempts: number;
  cancel_reason: string | null;
  annulment_xml: string | null;
  annulled_at: Date | null;
  access_number: number | null;
  contingency_deadline: Date | null;
}

/** The sale a document is issued for (what the reaction kept of its OrderPlaced). */
export interface SaleSnapshot {
  orderId: string;
  storeId: string;
  code: string;
  customerName: string;
  customerNit: string | null;
  items: OrderLine[];
  /** Sold offline (issue 28): issued in contingency, on the day of the sale, with the device's access number. */
  offline?: { soldAt: string; accessNumber: number } | null;
}

const q = (centavos: string | number) => Math.round(Number(centavos)) / 100;

/** The invoice as GET /api/orders/{id}/invoice answers it, with the sale's credit notes. */
export function invoiceView(row: DocumentRow, creditNotes: FelCreditNoteView[] = [], now = new Date()): FelInvoiceView {
  const deadline = row.contingency_deadline;
  return {
    orderId: row.order_id,
    orderCode: row.order_code,
    status: row.status,
    documentType: row.document_type,
    series: row.series,
    number: row.number,
    authorization: row.authorization_uuid,
    certifiedAt: row.certified_at?.toISOString() ?? null,
    certifier: row.certifier_nit && row.certifier_name ? { nit: row.certifier_nit, name: row.certifier_name } : null,
    issuer: { nit: row.issuer_nit, name: row.issuer_name, commercialName: row.commercial_name },
    receiver: { id: row.receiver_id, name: row.receiver_name },
    total: q(row.total),
    vat: q(row.vat),
    error: row.error,
    phrases: row.phrases,
    test: row.certifier === 'pruebas',
    issuedAt: row.issued_at.toISOString(),
    annulment: row.cancel_reason !== null && row.status === 'annulled' ? { reason: row.cancel_reason, annulledAt: row.annulled_at?.toISOString() ?? null } : null,
    verificationUrl: row.authorization_uuid ? felVerificationUrl({ authorization: row.authorization_uuid, issuerNit: row.issuer_nit, receiverId: row.receiver_id, total: q(row.total) }) : null,
    contingency:
      row.access_number !== null && deadline
        ? { accessNumber: row.access_number, deadline: deadline.toISOString(), late: row.status !== 'certified' && row.status !== 'annulled' && now > deadline }
        : null,
    creditNotes,
  };
}

const ListQuery = {
  status: (v: unknown) => (v === undefined || v === '' ? null : FelStatus.safeParse(v).success ? (v as FelStatus) : 'bad'),
  day: (v: unknown) => (v === undefined || v === '' ? null : typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : 'bad'),
};

/** The owner's reads and corrections of documents. */
@Injectable()
export class DocumentsService {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly settings: FelSettingsService,
  ) {}

  async row(storeId: string, orderId: string): Promise<DocumentRow> {
    if (!/^[0-9a-f-]{36}$/i.test(orderId)) throw new NotFoundError(FelMessages.notFound);
    const r = await this.pool.query<DocumentRow>('SELECT * FROM fel.documents WHERE order_id = $1 AND store_id = $2', [orderId, storeId]);
    if (!r.rows[0]) throw new NotFoundError(FelMessages.notFound);
    return r.rows[0];
  }

  /** A credit note of one of the store's orders, once its XML exists. */
  async creditNote(storeId: string, orderId: string, refundId: string): Promise<CreditNoteRow> {
    const ok = /^[0-9a-f-]{36}$/i;
    const r = ok.test(orderId) && ok.test(refundId)
      ? await this.pool.query<CreditNoteRow>('SELECT * FROM fel.credit_notes WHERE refund_id = $1 AND order_id = $2 AND store_id = $3 AND xml_sent IS NOT NULL', [refundId, orderId, storeId])
      : { rows: [] };
    if (!r.rows[0]) throw new NotFoundError('Esta devolución no tiene nota de crédito electrónica.');
    return r.rows[0];
  }

  async invoice(storeId: string, orderId: string): Promise<FelInvoiceView> {
    const row = await this.row(storeId, orderId);
    return invoiceView(row, (await creditNotesOf(this.pool, [orderId])).get(orderId));
  }

  /** Puts a failed (or pending) document back in the outbox, due now. */
  async retry(storeId: string, orderId: string): Promise<FelInvoiceView> {
    const row = await this.row(storeId, orderId);
    if (row.status !== 'failed' && row.status !== 'pending') throw new IllegalStateError(FelMessages.notRetriable);
    const r = await this.pool.query<DocumentRow>(
      `UPDATE fel.documents SET status = 'pending', attempts = 0, next_attempt_at = now() WHERE order_id = $1 AND store_id = $2 AND status IN ('failed', 'pending') RETURNING *`,
      [orderId, storeId],
    );
    return this.invoice(storeId, (r.rows[0] ?? row).order_id);
  }

  /** Corrects the receiver of a refused document: the DTE is built again with it (same date and lines) and queued. */
  async correctReceiver(storeId: string, orderId: string, body: CorrectReceiverRequest): Promise<FelInvoiceView> {
    const row = await this.row(storeId, orderId);
    if (row.status !== 'failed') throw new IllegalStateError(FelMessages.notCorrectable);
    const sale = await this.pool.query<{ customer_name: string; items: OrderLine[] }>('SELECT customer_name, items FROM fel.orders WHERE order_id = $1', [orderId]);
    const fel = await this.settings.forIssuing(storeId);
    if (!sale.rows[0] || !fel.issuer) throw new IllegalStateError(FelMessages.notCorrectable);
    const receiver = felReceiver(body.taxId, body.name || sale.rows[0].customer_name);
    const built = buildDte({
      documentType: row.document_type,
      issuedAt: row.issued_at,
      issuer: fel.issuer,
      receiver,
      phrases: row.phrases,
      accessNumber: row.access_number,
      lines: sale.rows[0].items.map((i) => ({ description: i.productName, quantity: i.quantity, unitPrice: i.unitPrice, lineTotal: i.lineTotal })),
    });
    const r = await this.pool.query<DocumentRow>(
      `UPDATE fel.documents SET status = 'pending', attempts = 0, next_attempt_at = now(), error = NULL, receiver_id = $3, receiver_name = $4, xml_sent = $5
       WHERE order_id = $1 AND store_id = $2 AND status = 'failed' RETURNING *`,
      [orderId, storeId, receiver.id, receiver.name, built.xml],
    );
    if (!r.rows[0]) throw new IllegalStateError(FelMessages.notCorrectable);
    return this.invoice(storeId, orderId);
  }

  /** The 'Facturas' list: newest first, by status and by day of issue (Guatemala) from/to. */
  async list(storeId: string, query: Record<string, unknown>): Promise<FelDocumentsPage> {
    const status = ListQuery.status(query.status);
    const from = ListQuery.day(query.from);
    const to = ListQuery.day(query.to);
    if (status === 'bad') throw new ValidationError('Estado inválido: usa pending, certified, failed o annulled.');
    if (from === 'bad' || to === 'bad') throw new ValidationError('Fecha inválida: usa el formato AAAA-MM-DD.');
    const page = Math.max(1, Math.floor(Number(query.page) || 1));
    const limit = Math.min(100, Math.max(1, Math.floor(Number(query.limit) || 20)));
    const where = ['store_id = $1'];
    const args: unknown[] = [storeId];
    if (status) where.push(`status = $${args.push(status)}`);
    if (from) where.push(`issued_at >= ($${args.push(from)}::date)::timestamp AT TIME ZONE 'America/Guatemala'`);
    if (to) where.push(`issued_at < ($${args.push(to)}::date + 1)::timestamp AT TIME ZONE 'America/Guatemala'`);
    const text = where.join(' AND ');
    const [rows, count] = await Promise.all([
      this.pool.query<DocumentRow>(`SELECT * FROM fel.documents WHERE ${text} ORDER BY issued_at DESC, order_id LIMIT ${limit} OFFSET ${(page - 1) * limit}`, args),
      this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM fel.documents WHERE ${text}`, args),
    ]);
    const total = Number(count.rows[0].n);
    const notes = await creditNotesOf(this.pool, rows.rows.map((d) => d.order_id));
    return { documents: rows.rows.map((d) => invoiceView(d, notes.get(d.order_id))), total, page, totalPages: Math.max(1, Math.ceil(total / limit)) };
  }

  /** How many documents wait or were refused (the dashboard's notice). */
  async summary(storeId: string): Promise<{ pending: number; failed: number }> {
    const r = await this.pool.query<{ status: string; n: string }>(`SELECT status, count(*) AS n FROM fel.documents WHERE store_id = $1 AND status IN ('pending', 'failed') GROUP BY status`, [storeId]);
    const by = Object.fromEntries(r.rows.map((x) => [x.status, Number(x.n)]));
    return { pending: by.pending ?? 0, failed: by.failed ?? 0 };
  }

  /** Every document issued in a month (Guatemala), oldest first: the accountant's book. */
  async month(storeId: string, month: string): Promise<DocumentRow[]> {
    const r = await this.pool.query<DocumentRow>(
      `SELECT * FROM fel.documents WHERE store_id = $1
         AND issued_at >= ($2 || '-01')::timestamp AT TIME ZONE 'America/Guatemala'
         AND issued_at < (($2 || '-01')::date + interval '1 month')::timestamp AT TIME ZONE 'America/Guatemala'
       ORDER BY issued_at, order_id`,
      [storeId, month],
    );
    return r.rows;
  }
}
