import { type OrderPlaced, PaymentRecorded, PaymentRefunded, type PaymentStatus, paymentStatusOf } from '@tiendita/contracts';
import type { PoolClient } from 'pg';
import { type PaymentEntry, placedPayments } from '../orders/domain/order.state';

type Tables = Record<'orders' | 'order_counts' | 'order_totals' | 'order_versions' | 'order_search', string>;

/** The day of an order as the owner's filters read it (America/Guatemala). */
export const DAY_OF = (column: string) => `(${column} AT TIME ZONE 'America/Guatemala')::date`;

/** An order placed in the batch being applied, with what its payments in the same batch made of it. */
export interface PlacedInBatch {
  eventId: string;
  order: OrderPlaced;
  payments: PaymentEntry[];
  amountPaid: number;
  updatedAt: string;
  /** Payments folded in: each counts in the store's version as applying it on its own would. */
  folded: number;
}

export function placedInBatch(eventId: string, order: OrderPlaced): PlacedInBatch {
  return { eventId, order, ...placedPayments(order), updatedAt: order.placedAt, folded: 0 };
}

/**
 * A payment of an order placed earlier in the same batch (a POS sale appends both at once), folded
 * into its row before the row is written: the same row, history and counts as inserting the order
 * and then applying the payment, in one statement for the whole batch instead of one per payment.
 */
export function foldPayment(p: PlacedInBatch, d: PaymentRecorded): void {
  if (p.payments.some((e) => e.id === d.paymentId)) return;
  p.payments = [...p.payments, { id: d.paymentId, method: d.method, amount: d.amount, reference: d.reference, cashReceived: d.cashReceived, change: d.change, recordedBy: d.recordedBy, recordedAt: d.recordedAt }];
  p.amountPaid = d.paidTotal;
  p.order = { ...p.order, paymentStatus: d.paymentStatus };
  if (d.recordedAt > p.updatedAt) p.updatedAt = d.recordedAt;
  p.folded++;
}

/**
 * A payment or a refund, in one statement: the entry joins the order's row (once: an entry already
 * there is skipped), the net paid and the payment status follow it, and the counts (per store,
 * day, status, type and payment status) move from the order's old payment status to its new one.
 */
export async function applyPayment(tx: PoolClient, type: 'PaymentRecorded' | 'PaymentRefunded', data: unknown, t: Tables): Promise<void> {
  let orderId: string;
  let list: 'payments' | 'refunds';
  let entry: Record<string, unknown>;
  let paidTotal: number;
  let at: string;
  /** The order's payment status after it: a payment names it; a refund's follows from the order's total (contracts' rule). */
  let next: PaymentStatus | null = null;
  if (type === 'PaymentRecorded') {
    const d = PaymentRecorded.parse(data);
    ({ orderId, paidTotal } = d);
    next = d.paymentStatus;
    list = 'payments';
    at = d.recordedAt;
    entry = { id: d.paymentId, method: d.method, amount: d.amount, reference: d.reference, cashReceived: d.cashReceived, change: d.change, recordedBy: d.recordedBy, recordedAt: d.recordedAt };
  } else {
    const d = PaymentRefunded.parse(data);
    ({ orderId, paidTotal } = d);
    list = 'refunds';
    at = d.refundedAt;
    entry = { id: d.refundId, method: d.method, amount: d.amount, reason: d.reason, refundedBy: d.refundedBy, refundedAt: d.refundedAt };
  }
  if (next === null) {
    const r = await tx.query<{ total: string }>(`SELECT total FROM ${t.orders} WHERE id = $1`, [orderId]);
    if (!r.rows[0]) return; // an order this view never had: nothing to move (as the statement below would do)
    next = paymentStatusOf(Number(r.rows[0].total), paidTotal, true);
  }
  const c = t.order_counts;
  const k = t.order_totals;
  await tx.query(
    `WITH cur AS (
       SELECT id, store_id, status, order_type, payment_status, ${DAY_OF('created_at')} AS day, total, $5::text AS next_status
       FROM ${t.orders} WHERE id = $1 AND NOT (${list} @> jsonb_build_array(jsonb_build_object('id', $2::text))) FOR UPDATE),
     upd AS (
       UPDATE ${t.orders} o SET ${list} = o.${list} || jsonb_build_array($4::jsonb), amount_paid = $3, payment_status = cur.next_status,
         updated_at = GREATEST(o.updated_at, $6::timestamptz)
       FROM cur WHERE o.id = cur.id RETURNING o.id),
     searched AS (
       UPDATE ${t.order_search} s SET payment_status = cur.next_status FROM cur WHERE s.id = cur.id AND cur.payment_status <> cur.next_status),
     less AS (
       UPDATE ${c} x SET n = x.n - 1 FROM cur
       WHERE cur.payment_status <> cur.next_status AND x.store_id = cur.store_id AND x.day = cur.day AND x.status = cur.status AND x.order_type = cur.order_type AND x.payment_status = cur.payment_status),
     tless AS (
       UPDATE ${k} x SET n = x.n - 1 FROM cur
       WHERE cur.payment_status <> cur.next_status AND x.store_id = cur.store_id AND x.status = cur.status AND x.order_type = cur.order_type AND x.payment_status = cur.payment_status),
     tmore AS (
       INSERT INTO ${k} (store_id, status, order_type, payment_status, n)
       SELECT store_id, status, order_type, next_status, 1 FROM cur WHERE payment_status <> next_status
       ON CONFLICT (store_id, status, order_type, payment_status) DO UPDATE SET n = ${k}.n + 1),
     versions AS (
       UPDATE ${t.order_versions} v SET version = v.version + 1 FROM cur WHERE v.store_id = cur.store_id)
     INSERT INTO ${c} (store_id, day, status, order_type, payment_status, n)
     SELECT store_id, day, status, order_type, next_status, 1 FROM cur WHERE payment_status <> next_status
     ON CONFLICT (store_id, day, status, order_type, payment_status) DO UPDATE SET n = ${c}.n + 1`,
    [orderId, entry.id, paidTotal, JSON.stringify(entry), next, at],
  );
}
