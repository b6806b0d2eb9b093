import { legacyPaymentRecordMethod, PaymentMethod, PaymentRecordMethod } from '@tiendita/contracts';
import { assertSchemaName, type EventRange } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import { GT_OFFSET_MS } from '../shared/time';
import type { PaymentsTable } from './payments.projection';

/** How each legacy method counts as a recorded one (contracts' rule, handed to SQL as a JSON object). */
const LEGACY_METHODS = JSON.stringify(Object.fromEntries(PaymentMethod.options.map((m) => [m, legacyPaymentRecordMethod(m)])));
const LEGACY_WITHOUT_METHOD = legacyPaymentRecordMethod(null);

/** Stops the statement with apply's kind of message for an event that breaks its contract (a text cast to int raises it). */
const refuse = (type: string, data: string) => `((${type} || ' no cumple su contrato: ' || left(${data}::text, 300))::int)`;

/**
 * The CTEs `moves` and `totals` of a batch (live) or a range (rebuild): the daily totals move by
 * exactly the rows inserted (`ins`) and deleted (`killed`), and the days of legacy payments replaced
 * within it (`replaced`, a query of store_id, day, method) are touched with a zero move, as they are
 * when the legacy payment and its replacement come apart: a day, once touched, keeps its row.
 */
export function paymentTotalsSql(table: string, replaced: string): string {
  return `moves AS (
  SELECT store_id, day, method, kind, amount, 1 AS n FROM ins
  UNION ALL SELECT store_id, day, method, kind, -amount, -1 FROM killed
  UNION ALL SELECT store_id, day, method, 'legacy', 0, 0 FROM (${replaced}) r
),
totals AS (
  INSERT INTO ${table} AS a (store_id, day, method, payments, received, refunds, refunded)
  SELECT store_id, day, method, COALESCE(sum(n) FILTER (WHERE kind <> 'refund'), 0), COALESCE(sum(amount) FILTER (WHERE kind <> 'refund'), 0),
         COALESCE(sum(n) FILTER (WHERE kind = 'refund'), 0), COALESCE(sum(amount) FILTER (WHERE kind = 'refund'), 0)
  FROM moves GROUP BY store_id, day, method
  ON CONFLICT (store_id, day, method) DO UPDATE SET payments = a.payments + EXCLUDED.payments, received = a.received + EXCLUDED.received,
    refunds = a.refunds + EXCLUDED.refunds, refunded = a.refunded + EXCLUDED.refunded
)`;
}

/**
 * The payments projection's `applyRange`: a rebuild applies a range of ordering's events in one SQL
 * statement instead of reading each into the service (a rebuild reads a million placements, most of
 * them legacy paid sales). It is `paymentsProjection.apply` written in SQL and leaves the same rows for
 * the same events: the reporting tests rebuild after live batches and compare.
 */
export async function applyPaymentsRange(tx: PoolClient, range: EventRange, t: Record<PaymentsTable, string>): Promise<void> {
  assertSchemaName(range.source);
  await tx.query(`SELECT set_config('work_mem', '64MB', true), set_config('jit', 'off', true)`);
  await tx.query({
    text: `
WITH ev AS MATERIALIZED (
  SELECT row_number() OVER (ORDER BY e.transaction_id, e.global_position) AS seq, e.type, e.data,
         e.transaction_id::text || '/' || e.global_position AS version
  FROM ${range.source}.events e
  WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND (e.transaction_id, e.global_position) <= ($3::xid8, $4::bigint)
    AND (e.type IN ('PaymentRecorded', 'PaymentRefunded') OR (e.type = 'OrderPlaced' AND e.data->>'paymentStatus' = 'paid'))
),
raw AS (
  SELECT seq, version, type, data,
         CASE type WHEN 'PaymentRecorded' THEN data->>'paymentId' WHEN 'PaymentRefunded' THEN data->>'refundId' ELSE data->>'orderId' END AS entry_id,
         CASE type WHEN 'PaymentRecorded' THEN 'payment' WHEN 'PaymentRefunded' THEN 'refund' ELSE 'legacy' END AS kind,
         CASE WHEN type = 'OrderPlaced' THEN COALESCE($5::jsonb ->> (data->>'paymentMethod'), $6) ELSE data->>'method' END AS method,
         CASE WHEN type = 'OrderPlaced' THEN data->>'total' ELSE data->>'amount' END AS amount,
         CASE type WHEN 'PaymentRecorded' THEN data->>'recordedAt' WHEN 'PaymentRefunded' THEN data->>'refundedAt' ELSE data->>'placedAt' END AS at,
         CASE type WHEN 'PaymentRecorded' THEN data->>'recordedBy' WHEN 'PaymentRefunded' THEN data->>'refundedBy' ELSE COALESCE(data->>'placedBy', '') END AS author
  FROM ev
),
checked AS MATERIALIZED (
  -- Checked on what is read, as apply checks it: ids are uuids and amounts integers (their casts refuse anything else),
  -- a payment's method one of the contract's and its amount at least 1, instants ISO 8601.
  SELECT seq, version, kind, entry_id::uuid, (data->>'storeId')::uuid AS store_id, (data->>'orderId')::uuid AS order_id, method,
         CASE WHEN kind = 'legacy' OR (method = ANY($7::text[]) AND amount::bigint >= 1 AND author IS NOT NULL) THEN amount::bigint ELSE ${refuse('type', 'data')} END AS amount,
         CASE WHEN substr(at, 11, 1) = 'T' THEN at::timestamptz ELSE to_timestamp(${refuse('type', 'data')}) END AS at, author
  FROM raw
),
x AS MATERIALIZED (
  -- Nothing changed hands in a legacy sale of Q0 (apply skips it, its store's version untouched).
  SELECT *, ((at AT TIME ZONE 'UTC') - interval '${GT_OFFSET_MS / 3_600_000} hours')::date AS day FROM checked WHERE kind <> 'legacy' OR amount > 0
),
paid AS (SELECT DISTINCT order_id FROM x WHERE kind = 'payment'),
killed AS (
  DELETE FROM ${t.payments} p USING paid WHERE p.kind = 'legacy' AND p.order_id = paid.order_id RETURNING p.store_id, p.day, p.method, p.kind, p.amount
),
ins AS (
  INSERT INTO ${t.payments} (entry_id, store_id, order_id, kind, method, amount, at, day, author)
  SELECT entry_id, store_id, order_id, kind, method, amount, at, day, author FROM x
  WHERE (kind <> 'legacy' OR NOT EXISTS (SELECT 1 FROM paid WHERE paid.order_id = x.order_id))
    AND (kind <> 'legacy' OR NOT EXISTS (SELECT 1 FROM ${t.payments} p WHERE p.order_id = x.order_id AND p.kind = 'payment'))
  ORDER BY seq
  ON CONFLICT (entry_id) DO NOTHING
  RETURNING store_id, day, method, kind, amount
),
${paymentTotalsSql(t.payments_daily, `SELECT store_id, day, method FROM x WHERE kind = 'legacy' AND order_id IN (SELECT order_id FROM paid)`)}
INSERT INTO ${t.payments_versions} AS v (store_id, version)
SELECT store_id, (array_agg(version ORDER BY seq DESC))[1] FROM x GROUP BY store_id
ON CONFLICT (store_id) DO UPDATE SET version = EXCLUDED.version`,
    values: [range.from.transactionId, range.from.globalPosition, range.to.transactionId, range.to.globalPosition, LEGACY_METHODS, LEGACY_WITHOUT_METHOD, PaymentRecordMethod.options],
  });
}
