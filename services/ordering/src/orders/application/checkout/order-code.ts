import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import { newOrderCode } from '../pricing';

/**
 * An order's code is claimed in ordering.order_codes, unique per store, before the order is
 * decided. The claim of an order id that has one already answers that one (a retry with the same
 * Idempotency-Key keeps its code).
 *
 * The claim as parts of a statement: `cte` inserts `code` for the order unless it or the code is
 * taken (its SELECT may add a condition after `cfg`, a CTE that the statement defines), and `select`
 * answers the order's code: the new one, the one it had, or NULL when the code was taken (try again
 * with another). Placeholders are the statement's own.
 */
export function claimCodeSql(p: { orderId: string; storeId: string; code: string; when?: string }): { cte: string; select: string } {
  return {
    cte: `code_claim AS (INSERT INTO ordering.order_codes (order_id, store_id, code) SELECT ${p.orderId}, ${p.storeId}, ${p.code} FROM cfg${p.when ? ` WHERE ${p.when}` : ''}
           ON CONFLICT DO NOTHING RETURNING code)`,
    select: `(SELECT code FROM code_claim UNION ALL SELECT code FROM ordering.order_codes WHERE order_id = ${p.orderId} LIMIT 1)`,
  };
}

/** A new code for a claim. */
export function codeCandidate(): string {
  return newOrderCode(randomBytes);
}

const CLAIM = claimCodeSql({ orderId: '$1', storeId: '$2', code: '$3' });

/**
 * Claims a code for the order in a statement of its own, trying others while one is taken.
 * Committed without waiting for the WAL flush: the order's event, committed later and
 * synchronously, flushes this commit with it (one WAL); a claim lost in a crash before that
 * belonged to an order that was never answered, and a retry claims another code.
 */
export async function claimOrderCode(pool: Pool, orderId: string, storeId: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const r = await pool.query<{ code: string | null }>({
      name: 'ordering_claim_code',
      text: `WITH cfg AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)), ${CLAIM.cte} SELECT ${CLAIM.select} AS code`,
      values: [orderId, storeId, codeCandidate()],
    });
    if (r.rows[0]?.code) return r.rows[0].code;
  }
  throw new Error('No se pudo asignar un código de pedido');
}
