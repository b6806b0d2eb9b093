import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PG_POOL, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { type CertifyOutcome, InfileClient } from '../certifier/infile-client';
import type { FelConfig } from '../config';
import { SandboxHost } from '../sandbox/sandbox-host';
import { FelSettingsService as Settings, type StoreFel } from '../settings/fel-settings.service';
import { type CreditNoteRow, creditNoteXml } from './credit-notes';
import type { DocumentRow } from './documents.service';
import { buildAnnulment, certificationOf } from './dte-xml';

/** Documents one pass claims at most (each is sent at once, in parallel). */
const BATCH = 25;
/** How long a claimed document is held by this pass before another may take it (a crash mid-call). */
const LEASE_SECONDS = 60;

/**
 * The outbox: sends each pending document (and each annulment of a cancelled sale) to its store's
 * certifier, with the order's id as the certifier's Identificador, so a retry after a timeout or a
 * crash never certifies twice. A certifier that is down or slow leaves the document pending, retried
 * with a doubling backoff; one that refuses it leaves it failed with its message. Never on a sale's path.
 */
@Injectable()
export class FelOutbox implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) private readonly config: FelConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly settings: Settings,
    private readonly sandbox: SandboxHost,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(), this.config.FEL_POLL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now (or right after the one under way): the reaction calls it when it queues documents. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err: unknown) => this.logger.warn({ err }, 'La cola de facturas electrónicas no pudo avanzar'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Passes until nothing is due (tests await it). */
  async drain(): Promise<void> {
    while (!this.stopped) {
      const [claimed, notes] = await Promise.all([this.claim(), this.claimCreditNotes()]);
      if (claimed.length === 0 && notes.length === 0) return;
      // One read of a store's settings per pass, however many of its documents it sends.
      const stores = new Map<string, Promise<StoreFel>>();
      const fel = (storeId: string) => {
        let s = stores.get(storeId);
        if (!s) stores.set(storeId, (s = this.settings.forIssuing(storeId)));
        return s;
      };
      await Promise.all([...claimed.map((row) => this.process(row, fel)), ...notes.map((note) => this.processCreditNote(note, fel))]);
    }
  }

  private async claim(): Promise<DocumentRow[]> {
    const r = await this.pool.query<DocumentRow>(
      `UPDATE fel.documents d SET lease_until = now() + interval '${LEASE_SECONDS} seconds', attempts = d.attempts + 1
       WHERE d.order_id IN (
         SELECT order_id FROM fel.documents
          WHERE (status = 'pending' OR (status = 'certified' AND cancel_reason IS NOT NULL AND annulment_xml IS NULL))
            AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
          ORDER BY next_attempt_at LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
       RETURNING d.*`,
    );
    return r.rows;
  }

  private client(certifier: 'infile' | 'pruebas'): InfileClient {
    const base = certifier === 'infile' ? this.config.FEL_INFILE_URL : this.sandbox.url();
    return new InfileClient(base, this.config.FEL_CERTIFIER_TIMEOUT_MS);
  }

  private backoffMs(attempts: number): number {
    return Math.min(this.config.FEL_RETRY_MAX_MS, this.config.FEL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  }

  private async process(row: DocumentRow, settings: (storeId: string) => Promise<StoreFel>): Promise<void> {
    try {
      const fel = await settings(row.store_id);
      if (row.status === 'certified') return await this.annul(row, fel.credentials);
      if (row.cancel_reason !== null) {
        // Cancelled before it was certified: nothing to certify or annul.
        await this.pool.query(`UPDATE fel.documents SET status = 'annulled', annulled_at = now(), lease_until = NULL WHERE order_id = $1 AND status = 'pending'`, [row.order_id]);
        return;
      }
      const outcome = await this.client(row.certifier).send(row.xml_sent, row.order_id, fel.credentials);
      await this.record(row, outcome);
    } catch (err) {
      this.logger.warn({ err, orderId: row.order_id }, 'No se pudo enviar la factura electrónica');
      await this.pool
        .query(`UPDATE fel.documents SET lease_until = NULL, next_attempt_at = now() + $2 * interval '1 millisecond' WHERE order_id = $1`, [row.order_id, this.backoffMs(row.attempts)])
        .catch(() => undefined);
    }
  }

  private async record(row: DocumentRow, outcome: CertifyOutcome): Promise<void> {
    if (outcome.kind === 'certified') {
      const cert = certificationOf(outcome.xml);
      const uuid = outcome.uuid ?? /<dte:NumeroAutorizacion[^>]*>([^<]+)</.exec(outcome.xml)?.[1] ?? null;
      await this.pool.query(
        `UPDATE fel.documents SET status = 'certified', xml_certified = $2, authorization_uuid = $3, series = $4, number = $5, certified_at = $6,
           certifier_nit = $7, certifier_name = $8, error = NULL, lease_until = NULL
         WHERE order_id = $1 AND status = 'pending'`,
        [row.order_id, outcome.xml, uuid, outcome.series, outcome.number, cert?.certifiedAt ?? new Date(), cert?.nit ?? null, cert?.name ?? null],
      );
      // A cancellation that came in while the call was under way: the annulment is due now.
      return;
    }
    if (outcome.kind === 'refused') {
      await this.pool.query(`UPDATE fel.documents SET status = 'failed', error = $2, lease_until = NULL WHERE order_id = $1 AND status = 'pending'`, [row.order_id, outcome.message]);
      return;
    }
    await this.pool.query(
      `UPDATE fel.documents SET error = $2, lease_until = NULL, next_attempt_at = now() + $3 * interval '1 millisecond' WHERE order_id = $1 AND status = 'pending'`,
      [row.order_id, outcome.message, this.backoffMs(row.attempts)],
    );
  }

  private async annul(row: DocumentRow, credentials: Record<string, string>): Promise<void> {
    const xml = buildAnnulment({
      authorization: row.authorization_uuid ?? '',
      issuerNit: row.issuer_nit,
      receiverId: row.receiver_id,
      issuedAt: row.issued_at,
      annulledAt: new Date(),
      reason: row.cancel_reason ?? 'Venta cancelada',
    });
    const outcome = await this.client(row.certifier).send(xml, `${row.order_id}-ANULACION`, credentials);
    if (outcome.kind === 'certified') {
      await this.pool.query(`UPDATE fel.documents SET status = 'annulled', annulment_xml = $2, annulled_at = now(), error = NULL, lease_until = NULL WHERE order_id = $1 AND status = 'certified'`, [
        row.order_id,
        outcome.xml,
      ]);
      return;
    }
    // Refused or unavailable: the document stays certified and the annulment is tried again later.
    await this.pool.query(`UPDATE fel.documents SET error = $2, lease_until = NULL, next_attempt_at = now() + $3 * interval '1 millisecond' WHERE order_id = $1`, [
      row.order_id,
      `Anulación: ${outcome.message}`,
      this.backoffMs(row.attempts),
    ]);
  }

  /** Credit notes due whose original is certified (the note names its authorisation). */
  private async claimCreditNotes(): Promise<CreditNoteRow[]> {
    const r = await this.pool.query<CreditNoteRow>(
      `UPDATE fel.credit_notes c SET lease_until = now() + interval '${LEASE_SECONDS} seconds', attempts = c.attempts + 1
       WHERE c.refund_id IN (
         SELECT n.refund_id FROM fel.credit_notes n JOIN fel.documents d ON d.order_id = n.order_id AND d.status = 'certified'
          WHERE n.status = 'pending' AND n.next_attempt_at <= now() AND (n.lease_until IS NULL OR n.lease_until < now())
          ORDER BY n.next_attempt_at LIMIT ${BATCH} FOR UPDATE OF n SKIP LOCKED)
       RETURNING c.*`,
    );
    return r.rows;
  }

  /** Sends one credit note (Identificador: the refund's id); its XML is built on the first attempt and kept. */
  private async processCreditNote(note: CreditNoteRow, settings: (storeId: string) => Promise<StoreFel>): Promise<void> {
    const retryLater = (message: string | null) =>
      this.pool.query(`UPDATE fel.credit_notes SET error = $2, lease_until = NULL, next_attempt_at = now() + $3 * interval '1 millisecond' WHERE refund_id = $1 AND status = 'pending'`, [
        note.refund_id,
        message,
        this.backoffMs(note.attempts),
      ]);
    try {
      const fel = await settings(note.store_id);
      let xml = note.xml_sent;
      if (!xml) {
        const origin = (await this.pool.query<DocumentRow>('SELECT * FROM fel.documents WHERE order_id = $1', [note.order_id])).rows[0];
        const built = origin ? creditNoteXml(note, origin, fel) : null;
        if (!built) return void (await retryLater('La factura original no está certificada; se reintentará.'));
        xml = built.xml;
        await this.pool.query('UPDATE fel.credit_notes SET xml_sent = $2, vat = $3 WHERE refund_id = $1', [note.refund_id, xml, built.vat]);
      }
      const outcome = await this.client(note.certifier).send(xml, note.refund_id, fel.credentials);
      if (outcome.kind === 'certified') {
        const cert = certificationOf(outcome.xml);
        await this.pool.query(
          `UPDATE fel.credit_notes SET status = 'certified', xml_certified = $2, authorization_uuid = $3, series = $4, number = $5, certified_at = $6, error = NULL, lease_until = NULL
           WHERE refund_id = $1 AND status = 'pending'`,
          [note.refund_id, outcome.xml, outcome.uuid, outcome.series, outcome.number, cert?.certifiedAt ?? new Date()],
        );
      } else if (outcome.kind === 'refused') {
        await this.pool.query(`UPDATE fel.credit_notes SET status = 'failed', error = $2, lease_until = NULL WHERE refund_id = $1 AND status = 'pending'`, [note.refund_id, outcome.message]);
      } else {
        await retryLater(outcome.message);
      }
    } catch (err) {
      this.logger.warn({ err, refundId: note.refund_id }, 'No se pudo enviar la nota de crédito');
      await retryLater(null).catch(() => undefined);
    }
  }
}
