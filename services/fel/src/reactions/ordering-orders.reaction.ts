import { Injectable } from '@nestjs/common';
import { felAccessNumber, OrderPlaced, OrderStatusChanged, PaymentRecorded, PaymentRefunded } from '@tiendita/contracts';
import { reaction, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import { ProjectionHost } from '@tiendita/service-kit';
import type { PoolClient } from 'pg';
import { queueCreditNote } from '../documents/credit-notes';
import type { SaleSnapshot } from '../documents/documents.service';
import { documentOf, type QueuedDocument, queueDocuments } from '../documents/queue-documents';
import { FelOutbox } from '../documents/outbox';
import { FelSettingsService, type StoreFel } from '../settings/fel-settings.service';

/** The reaction (consumer group `fel.orders`) to ordering's events. */
export const ORDERS_REACTION = 'orders';

interface OrderRow {
  order_id: string;
  store_id: string;
  code: string;
  customer_name: string;
  customer_nit: string | null;
  items: SaleSnapshot['items'];
  sold_offline_at: Date | null;
  access_number: number | null;
}
/** What the batch writes of an OrderPlaced. */
type PlacedRow = OrderRow & { order_type: string; total: number; placed_at: string };

const snapshotOf = (o: OrderRow): SaleSnapshot => ({
  orderId: o.order_id,
  storeId: o.store_id,
  code: o.code,
  customerName: o.customer_name,
  customerNit: o.customer_nit,
  items: o.items,
  offline: o.sold_offline_at && o.access_number ? { soldAt: o.sold_offline_at.toISOString(), accessNumber: o.access_number } : null,
});

/**
 * Ordering's events issue DTEs, credit notes and annulments: OrderPlaced keeps what a document needs
 * of the sale; the PaymentRecorded that pays it in full (or an OrderPlaced already paid) queues its
 * document; a refund that is not a cancellation's queues a credit note (NCRE); an OrderStatusChanged
 * to 'cancelled' asks for the annulment. All in the runner's transaction with the checkpoint, once per
 * order (or refund) whatever the redeliveries. A batch's sales are written with one statement each
 * for the orders, the paid orders' reads and the documents rather than one per event, so FEL takes as little as it can of
 * the database the sales themselves are waiting on.
 */
@Injectable()
export class OrderingOrdersReaction {
  constructor(host: ProjectionHost, settings: FelSettingsService, outbox: FelOutbox) {
    host.addReaction(
      reaction({
        name: ORDERS_REACTION,
        sources: ['ordering'],
        liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
        apply: async (tx, events) => {
          const stores = new Map<string, StoreFel>();
          const fel = async (storeId: string) => {
            let s = stores.get(storeId);
            if (!s) stores.set(storeId, (s = await settings.forIssuing(storeId, tx)));
            return s;
          };
          // In the batch's order: orders placed, sales paid (with when), refunds, cancellations.
          const placed = new Map<string, PlacedRow>();
          const paid: { orderId: string; at: Date }[] = [];
          const steps: ({ kind: 'refund'; refund: PaymentRefunded } | { kind: 'cancel'; change: OrderStatusChanged })[] = [];
          for (const event of events) {
            if (event.type === 'OrderPlaced') {
              const o = OrderPlaced.parse(event.data);
              placed.set(o.orderId, {
                order_id: o.orderId,
                store_id: o.storeId,
                code: o.code,
                order_type: o.orderType,
                total: o.total,
                placed_at: o.placedAt,
                customer_name: o.customerName,
                customer_nit: o.customerNit,
                items: o.items,
                sold_offline_at: o.offline ? new Date(o.offline.soldAt) : null,
                access_number: o.offline ? felAccessNumber(o.offline.deviceSaleId) : null,
              });
              if (o.paymentStatus === 'paid' && o.status !== 'cancelled') paid.push({ orderId: o.orderId, at: new Date(o.placedAt) });
            } else if (event.type === 'PaymentRecorded') {
              const p = PaymentRecorded.parse(event.data);
              if (p.paymentStatus === 'paid') paid.push({ orderId: p.orderId, at: new Date(p.recordedAt) });
            } else if (event.type === 'PaymentRefunded') {
              steps.push({ kind: 'refund', refund: PaymentRefunded.parse(event.data) });
            } else if (event.type === 'OrderStatusChanged') {
              const c = OrderStatusChanged.parse(event.data);
              if (c.status === 'cancelled') steps.push({ kind: 'cancel', change: c });
            }
          }
          if (placed.size > 0) await this.keepOrders(tx, [...placed.values()]);
          let notes = false;
          const sales = await this.sales(tx, paid.map((p) => p.orderId).filter((id) => !placed.has(id)));
          const documents: QueuedDocument[] = [];
          for (const p of paid) {
            const row = placed.get(p.orderId) ?? sales.get(p.orderId);
            const doc = row ? documentOf(snapshotOf(row), await fel(row.store_id), p.at) : null;
            if (doc) documents.push(doc);
          }
          // The batch's documents in one statement, before its cancellations (which may annul them).
          let queued = (await queueDocuments(tx, documents)) > 0;
          for (const step of steps) {
            if (step.kind === 'refund') {
              // A cancellation's refunds follow it: its document is annulled instead (cancel_reason is set by then).
              notes = (await queueCreditNote(tx, step.refund)) || notes;
              continue;
            }
            const c = step.change;
            const reason = c.notes?.trim() || 'Venta cancelada';
            const r = await tx.query(
              `UPDATE fel.documents SET cancel_reason = $2, next_attempt_at = now() WHERE order_id = $1 AND cancel_reason IS NULL AND status <> 'annulled'`,
              [c.orderId, reason.slice(0, 255)],
            );
            // Never certified (pending or refused, and not in a call right now): nothing to annul.
            await tx.query(
              `UPDATE fel.documents SET status = 'annulled', annulled_at = $2 WHERE order_id = $1 AND status IN ('pending', 'failed') AND (lease_until IS NULL OR lease_until < now())`,
              [c.orderId, c.changedAt],
            );
            // A credit note still waiting for an original that is now being annulled has nothing left to correct.
            await tx.query(`UPDATE fel.credit_notes SET status = 'failed', error = 'La factura original fue anulada.' WHERE order_id = $1 AND status = 'pending'`, [c.orderId]);
            queued = (r.rowCount ?? 0) > 0 || queued;
          }
          // The batch commits after this returns; the outbox's own poll catches anything this wake misses.
          if (queued || notes) setTimeout(() => outbox.wake(notes), 20).unref();
        },
      }),
    );
  }

  /** The batch's orders in one statement. */
  private async keepOrders(tx: PoolClient, rows: PlacedRow[]): Promise<void> {
    await tx.query(
      `INSERT INTO fel.orders (order_id, store_id, code, order_type, customer_name, customer_nit, items, total, placed_at, sold_offline_at, access_number)
       SELECT o.order_id, o.store_id, o.code, o.order_type, o.customer_name, o.customer_nit, o.items, o.total, o.placed_at, o.sold_offline_at, o.access_number
         FROM jsonb_to_recordset($1::jsonb) AS o(order_id uuid, store_id uuid, code text, order_type text, customer_name text, customer_nit text, items jsonb, total bigint,
              placed_at timestamptz, sold_offline_at timestamptz, access_number integer)
       ON CONFLICT (order_id) DO NOTHING`,
      [JSON.stringify(rows)],
    );
  }

  private async sales(tx: PoolClient, orderIds: string[]): Promise<Map<string, OrderRow>> {
    if (orderIds.length === 0) return new Map();
    const r = await tx.query<OrderRow>(
      'SELECT order_id, store_id, code, customer_name, customer_nit, items, sold_offline_at, access_number FROM fel.orders WHERE order_id = ANY($1::uuid[])',
      [orderIds],
    );
    return new Map(r.rows.map((o) => [o.order_id, o]));
  }
}
