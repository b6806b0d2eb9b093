import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { InfileClient } from '../certifier/infile-client';
import type { StoreFel } from '../settings/fel-settings.service';
import { type CreditNoteRow, creditNoteXml } from './credit-notes';
import type { DocumentRow } from './documents.service';
import { certificationOf } from './dte-xml';

export interface SenderDeps {
  pool: Pool;
  logger: Logger;
  client: (certifier: 'infile' | 'pruebas') => InfileClient;
  backoffMs: (attempts: number) => number;
  batch: number;
  leaseSeconds: number;
}

/**
 * The outbox's credit notes (NCRE): each is sent once its original is certified (the note names its
 * authorisation), with the refund's id as the certifier's Identificador; its XML is built on the
 * first attempt and kept, so a retry sends the same document.
 */
export class CreditNoteSender {
  constructor(private readonly d: SenderDeps) {}

  async claim(): Promise<CreditNoteRow[]> {
    const r = await this.d.pool.query<CreditNoteRow>(
      `UPDATE fel.credit_notes c SET lease_until = now() + interval '${this.d.leaseSeconds} seconds', attempts = c.attempts + 1
       WHERE c.refund_id IN (
         SELECT n.refund_id FROM fel.credit_notes n JOIN fel.documents d ON d.order_id = n.order_id AND d.status = 'certified'
          WHERE n.status = 'pending' AND n.next_attempt_at <= now() AND (n.lease_until IS NULL OR n.lease_until < now())
          ORDER BY n.next_attempt_at LIMIT ${this.d.batch} FOR UPDATE OF n SKIP LOCKED)
       RETURNING c.*`,
    );
    return r.rows;
  }

  async send(note: CreditNoteRow, settings: (storeId: string) => Promise<StoreFel>): Promise<void> {
    const { pool } = this.d;
    const retryLater = (message: string | null) =>
      pool.query(`UPDATE fel.credit_notes SET error = $2, lease_until = NULL, next_attempt_at = now() + $3 * interval '1 millisecond' WHERE refund_id = $1 AND status = 'pending'`, [
        note.refund_id,
        message,
        this.d.backoffMs(note.attempts),
      ]);
    try {
      const fel = await settings(note.store_id);
      let xml = note.xml_sent;
      if (!xml) {
        const origin = (await pool.query<DocumentRow>('SELECT * FROM fel.documents WHERE order_id = $1', [note.order_id])).rows[0];
        const built = origin ? creditNoteXml(note, origin, fel) : null;
        if (!built) return void (await retryLater('La factura original no está certificada; se reintentará.'));
        xml = built.xml;
        await pool.query('UPDATE fel.credit_notes SET xml_sent = $2, vat = $3 WHERE refund_id = $1', [note.refund_id, xml, built.vat]);
      }
      const outcome = await this.d.client(note.certifier).send(xml, note.refund_id, fel.credentials);
      if (outcome.kind === 'certified') {
        const cert = certificationOf(outcome.xml);
        await pool.query(
          `UPDATE fel.credit_notes SET status = 'certified', xml_certified = $2, authorization_uuid = $3, series = $4, number = $5, certified_at = $6, error = NULL, lease_until = NULL
           WHERE refund_id = $1 AND status = 'pending'`,
          [note.refund_id, outcome.xml, outcome.uuid, outcome.series, outcome.number, cert?.certifiedAt ?? new Date()],
        );
      } else if (outcome.kind === 'refused') {
        await pool.query(`UPDATE fel.credit_notes SET status = 'failed', error = $2, lease_until = NULL WHERE refund_id = $1 AND status = 'pending'`, [note.refund_id, outcome.message]);
      } else {
        await retryLater(outcome.message);
      }
    } catch (err) {
      this.d.logger.warn({ err, refundId: note.refund_id }, 'No se pudo enviar la nota de crédito');
      await retryLater(null).catch(() => undefined);
    }
  }
}
