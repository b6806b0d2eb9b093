import { legacyPaymentRecordMethod, type OrderPlaced, PaymentRecorded, PaymentRefunded } from '@tiendita/contracts';
import { physicalName, type Projection, type RecordedEventWithTx, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import { gtDayHour } from '../shared/time';
import { applyPaymentsRange, paymentTotalsSql } from './payments-range';
import { StoreVersions, storeVersionsDdl, upsertStoreVersions } from './store-versions';

export type PaymentsTable = 'payments' | 'payments_daily' | 'payments_versions';

/** What a row of `payments` is: money received (a payment, or a legacy paid order read as one), or money given back. */
export type PaymentEntryKind = 'payment' | 'legacy' | 'refund';

interface Entry {
  entry_id: string;
  store_id: string;
  order_id: string;
  kind: PaymentEntryKind;
  method: string;
  amount: number;
  at: string;
  day: string;
  author: string;
}

/**
 * Money that changed hands, from ordering's payment events, whatever the channel: one row per
 * payment and per refund (the cash close reads a day's rows) and a daily total per method (the
 * reports read a year of them). An OrderPlaced written before payments existed (paymentStatus
 * 'paid', no PaymentRecorded for its order) is one payment of its total by its method, dated
 * when it was placed (payments-api.md); a PaymentRecorded for that order replaces it. Either way
 * the rows only depend on which events exist, not on their batching.
 */
export const paymentsProjection: Projection<PaymentsTable> = {
  name: 'payments',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  version: 1,
  sources: ['ordering'],
  tables: ['payments', 'payments_daily', 'payments_versions'],

  async setup(tx, t) {
    const p = physicalName(t.payments);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.payments} (
        entry_id uuid PRIMARY KEY, -- the payment's or refund's id; a legacy order's own id
        store_id uuid NOT NULL,
        order_id uuid NOT NULL,
        kind text NOT NULL,
        method text NOT NULL,
        amount bigint NOT NULL, -- centavos, positive (a refund takes it out)
        at timestamptz NOT NULL,
        day date NOT NULL,
        author text NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${p}_order ON ${t.payments} (order_id);
      CREATE INDEX IF NOT EXISTS ${p}_store_at ON ${t.payments} (store_id, at);
      CREATE TABLE IF NOT EXISTS ${t.payments_daily} (
        store_id uuid NOT NULL,
        day date NOT NULL,
        method text NOT NULL,
        payments integer NOT NULL,
        received bigint NOT NULL,
        refunds integer NOT NULL,
        refunded bigint NOT NULL,
        PRIMARY KEY (store_id, day, method)
      );
      ${storeVersionsDdl(t.payments_versions)};
    `);
  },

  /**
   * One statement per batch: the legacy payment of an order that now has a PaymentRecorded is taken
   * out, the new rows go in (a duplicate id changes nothing), and the daily totals move by exactly
   * the rows inserted and deleted (paymentTotalsSql).
   */
  async apply(tx, events, t) {
    const entries: Entry[] = [];
    const paidOrders = new Set<string>();
    const versions = new StoreVersions();
    for (const event of events) {
      const entry = readEntry(event);
      if (!entry) continue;
      versions.touch(entry.store_id, event);
      entries.push(entry);
      if (entry.kind === 'payment') paidOrders.add(entry.order_id);
    }
    if (entries.length === 0) return;
    // A legacy order paid again in this very batch: the payment wins (its day is touched: paymentTotalsSql).
    const rows = entries.filter((e) => e.kind !== 'legacy' || !paidOrders.has(e.order_id));
    const replaced = entries.filter((e) => e.kind === 'legacy' && paidOrders.has(e.order_id)).map((e) => ({ store_id: e.store_id, day: e.day, method: e.method }));
    await tx.query({
      text: `WITH x AS (
               SELECT * FROM json_to_recordset($1::json) AS x(entry_id uuid, store_id uuid, order_id uuid, kind text, method text, amount bigint, at timestamptz, day date, author text)
             ),
             killed AS (
               DELETE FROM ${t.payments} p WHERE p.kind = 'legacy' AND p.order_id = ANY($2::uuid[]) RETURNING p.store_id, p.day, p.method, p.kind, p.amount
             ),
             ins AS (
               INSERT INTO ${t.payments} (entry_id, store_id, order_id, kind, method, amount, at, day, author)
               SELECT x.* FROM x
               WHERE x.kind <> 'legacy' OR NOT EXISTS (SELECT 1 FROM ${t.payments} p WHERE p.order_id = x.order_id AND p.kind = 'payment')
               ON CONFLICT (entry_id) DO NOTHING
               RETURNING store_id, day, method, kind, amount
             ),
             ${paymentTotalsSql(t.payments_daily, 'SELECT * FROM json_to_recordset($4::json) AS r(store_id uuid, day date, method text)')},
             v AS (${upsertStoreVersions(t.payments_versions, '$3::json')})
             SELECT 1`,
      values: [JSON.stringify(rows), `{${[...paidOrders].join(',')}}`, JSON.stringify(versions.rows()), JSON.stringify(replaced)],
    });
  },

  /** A rebuild applies ranges of events in SQL (the same fold as apply: payments-range.ts). */
  applyRange: applyPaymentsRange,
};

/** The row an event adds, if any: a payment, a refund, or a legacy paid order's payment. */
function readEntry(event: RecordedEventWithTx): Entry | null {
  if (event.type === 'PaymentRecorded') {
    const d = PaymentRecorded.parse(event.data);
    return { entry_id: d.paymentId, store_id: d.storeId, order_id: d.orderId, kind: 'payment', method: d.method, amount: d.amount, at: d.recordedAt, day: gtDayHour(d.recordedAt).day, author: d.recordedBy };
  }
  if (event.type === 'PaymentRefunded') {
    const d = PaymentRefunded.parse(event.data);
    return { entry_id: d.refundId, store_id: d.storeId, order_id: d.orderId, kind: 'refund', method: d.method, amount: d.amount, at: d.refundedAt, day: gtDayHour(d.refundedAt).day, author: d.refundedBy };
  }
  if (event.type === 'OrderPlaced') {
    // Only the fields read here are checked: the sales projection checks the whole event. A rebuild
    // reads a million placements, so no zod parse of each.
    const d = event.data as OrderPlaced;
    if (d?.paymentStatus !== 'paid') return null;
    if (typeof d.orderId !== 'string' || typeof d.storeId !== 'string' || !Number.isInteger(d.total) || typeof d.placedAt !== 'string' || Number.isNaN(Date.parse(d.placedAt)))
      throw new Error(`OrderPlaced no cumple su contrato: ${JSON.stringify(event.data).slice(0, 300)}`);
    if (d.total <= 0) return null; // nothing changed hands
    return { entry_id: d.orderId, store_id: d.storeId, order_id: d.orderId, kind: 'legacy', method: legacyPaymentRecordMethod(d.paymentMethod), amount: d.total, at: d.placedAt, day: gtDayHour(d.placedAt).day, author: d.placedBy ?? '' };
  }
  return null;
}
