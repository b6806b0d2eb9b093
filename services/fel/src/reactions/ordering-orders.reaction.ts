import { Injectable } from '@nestjs/common';
import { OrderPlaced, OrderStatusChanged, PaymentRecorded } from '@tiendita/contracts';
import { reaction, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import { ProjectionHost } from '@tiendita/service-kit';
import type { PoolClient } from 'pg';
import { queueDocument, type SaleSnapshot } from '../documents/documents.service';
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
}

/**
 * Ordering's events issue and annul DTEs: OrderPlaced keeps what a document needs of the sale; the
 * PaymentRecorded that pays it in full (or a legacy OrderPlaced already paid) queues its document in
 * the outbox, in the runner's transaction with the checkpoint, once per order whatever the
 * redeliveries; an OrderStatusChanged to 'cancelled' asks for the annulment of its document.
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
          let queued = false;
          for (const event of events) {
            if (event.type === 'OrderPlaced') {
              const o = OrderPlaced.parse(event.data);
              await tx.query(
                `INSERT INTO fel.orders (order_id, store_id, code, order_type, customer_name, customer_nit, items, total, placed_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (order_id) DO NOTHING`,
                [o.orderId, o.storeId, o.code, o.orderType, o.customerName, o.customerNit, JSON.stringify(o.items), o.total, o.placedAt],
              );
              if (o.paymentStatus === 'paid' && o.status !== 'cancelled') {
                const sale = { orderId: o.orderId, storeId: o.storeId, code: o.code, customerName: o.customerName, customerNit: o.customerNit, items: o.items };
                queued = (await queueDocument(tx, sale, await fel(o.storeId), new Date(o.placedAt))) || queued;
              }
            } else if (event.type === 'PaymentRecorded') {
              const p = PaymentRecorded.parse(event.data);
              if (p.paymentStatus !== 'paid') continue;
              const sale = await this.sale(tx, p.orderId);
              if (sale) queued = (await queueDocument(tx, sale, await fel(sale.storeId), new Date(p.recordedAt))) || queued;
            } else if (event.type === 'OrderStatusChanged') {
              const c = OrderStatusChanged.parse(event.data);
              if (c.status !== 'cancelled') continue;
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
              queued = (r.rowCount ?? 0) > 0 || queued;
            }
          }
          // The batch commits after this returns; the outbox's own poll catches anything this wake misses.
          if (queued) setTimeout(() => outbox.wake(), 20).unref();
        },
      }),
    );
  }

  private async sale(tx: PoolClient, orderId: string): Promise<SaleSnapshot | null> {
    const r = await tx.query<OrderRow>('SELECT order_id, store_id, code, customer_name, customer_nit, items FROM fel.orders WHERE order_id = $1', [orderId]);
    const o = r.rows[0];
    return o ? { orderId: o.order_id, storeId: o.store_id, code: o.code, customerName: o.customer_name, customerNit: o.customer_nit, items: o.items } : null;
  }
}
