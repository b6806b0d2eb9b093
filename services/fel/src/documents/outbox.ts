import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PG_POOL, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { type CertifyOutcome, InfileClient } from '../certifier/infile-client';
import type { FelConfig } from '../config';
import { SandboxHost } from '../sandbox/sandbox-host';
import { FelSettingsService as Settings, type StoreFel } from '../settings/fel-settings.service';
import { CreditNoteSender } from './credit-note-sender';
import type { DocumentRow } from './documents.service';
import { buildAnnulment, certificationOf } from './dte-xml';

/** A certifier's answer for a document, as the pass writes it. */
interface Certified {
  order_id: string;
  xml: string;
  uuid: string | null;
  series: string | null;
  number: string | null;
  certified_at: string;
  nit: string | null;
  name: string | null;
}

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
  /** Whether the next pass looks for credit notes too: set by the poll and when the reaction queues one. */
  private notesDue = true;
  private readonly notes: CreditNoteSender;
  private readonly clients = new Map<string, InfileClient>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) private readonly config: FelConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly settings: Settings,
    private readonly sandbox: SandboxHost,
  ) {
    this.notes = new CreditNoteSender({ pool, logger, client: (c) => this.client(c), backoffMs: (n) => this.backoffMs(n), batch: BATCH, leaseSeconds: LEASE_SECONDS });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => this.wake(true), this.config.FEL_POLL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now (or right after the one under way): the reaction calls it when it queues documents (`notes`: or credit notes). */
  wake(notes = false): void {
    if (this.stopped) return;
    if (notes) this.notesDue = true;
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
      const checkNotes = this.notesDue;
      this.notesDue = false;
      const [claimed, notes] = await Promise.all([this.claim(), checkNotes ? this.notes.claim() : []]);
      if (claimed.length === 0 && notes.length === 0) return;
      if (notes.length > 0) this.notesDue = true;
      // One read of a store's settings per pass, however many of its documents it sends.
      const stores = new Map<string, Promise<StoreFel>>();
      const fel = (storeId: string) => {
        let s = stores.get(storeId);
        if (!s) stores.set(storeId, (s = this.settings.forIssuing(storeId)));
        return s;
      };
      const results = await Promise.all([...claimed.map((row) => this.process(row, fel)), ...notes.map((note) => this.notes.send(note, fel).then(() => null))]);
      await this.recordCertified(results.filter((c): c is Certified => c !== null));
      // A document certified may let its credit notes go.
      if (results.some((c) => c !== null)) this.notesDue = true;
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

  /** One client per certifier address, so its calls share kept-alive connections. */
  private client(certifier: 'infile' | 'pruebas'): InfileClient {
    const base = certifier === 'infile' ? this.config.FEL_INFILE_URL : this.sandbox.url();
    let client = this.clients.get(base);
    if (!client) {
      client = new InfileClient(base, this.config.FEL_CERTIFIER_TIMEOUT_MS);
      this.clients.set(base, client);
    }
    return client;
  }

  private backoffMs(attempts: number): number {
    return Math.min(this.config.FEL_RETRY_MAX_MS, this.config.FEL_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1));
  }

  /** Sends one document (or its annulment); a certification is answered, to be written with the pass's others. */
  private async process(row: DocumentRow, settings: (storeId: string) => Promise<StoreFel>): Promise<Certified | null> {
    try {
      const fel = await settings(row.store_id);
      if (row.status === 'certified') {
        await this.annul(row, fel.credentials);
        return null;
      }
      if (row.cancel_reason !== null) {
        // Cancelled before it was certified: nothing to certify or annul.
        await this.pool.query(`UPDATE fel.documents SET status = 'annulled', annulled_at = now(), lease_until = NULL WHERE order_id = $1 AND status = 'pending'`, [row.order_id]);
        return null;
      }
      const outcome = await this.client(row.certifier).send(row.xml_sent, row.order_id, fel.credentials);
      return await this.record(row, outcome);
    } catch (err) {
      this.logger.warn({ err, orderId: row.order_id }, 'No se pudo enviar la factura electrónica');
      await this.pool
        .query(`UPDATE fel.documents SET lease_until = NULL, next_attempt_at = now() + $2 * interval '1 millisecond' WHERE order_id = $1`, [row.order_id, this.backoffMs(row.attempts)])
        .catch(() => undefined);
      return null;
    }
  }

  private async record(row: DocumentRow, outcome: CertifyOutcome): Promise<Certified | null> {
    if (outcome.kind === 'certified') {
      const cert = certificationOf(outcome.xml);
      return {
        order_id: row.order_id,
        xml: outcome.xml,
        uuid: outcome.uuid ?? /<dte:NumeroAutorizacion[^>]*>([^<]+)</.exec(outcome.xml)?.[1] ?? null,
        series: outcome.series,
        number: outcome.number,
        certified_at: cert?.certifiedAt ?? new Date().toISOString(),
        nit: cert?.nit ?? null,
        name: cert?.name ?? null,
      };
    }
    if (outcome.kind === 'refused') {
      await this.pool.query(`UPDATE fel.documents SET status = 'failed', error = $2, lease_until = NULL WHERE order_id = $1 AND status = 'pending'`, [row.order_id, outcome.message]);
      return null;
    }
    await this.pool.query(
      `UPDATE fel.documents SET error = $2, lease_until = NULL, next_attempt_at = now() + $3 * interval '1 millisecond' WHERE order_id = $1 AND status = 'pending'`,
      [row.order_id, outcome.message, this.backoffMs(row.attempts)],
    );
    return null;
  }

  /**
   * The pass's certifications in one statement (a pass sends up to 25 documents at once; one write
   * each was most of FEL's queries while sales are being made). A cancellation that came in while
   * the call was under way leaves the document certified with its reason: the annulment is due now.
   */
  private async recordCertified(done: Certified[]): Promise<void> {
    if (done.length === 0) return;
    await this.pool.query(
      `UPDATE fel.documents d SET status = 'certified', xml_certified = c.xml, authorization_uuid = c.uuid, series = c.series, number = c.number, certified_at = c.certified_at,
         certifier_nit = c.nit, certifier_name = c.name, error = NULL, lease_until = NULL
         FROM jsonb_to_recordset($1::jsonb) AS c(order_id uuid, xml text, uuid text, series text, number text, certified_at timestamptz, nit text, name text)
        WHERE d.order_id = c.order_id AND d.status = 'pending'`,
      [JSON.stringify(done)],
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
}
