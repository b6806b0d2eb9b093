import { type OrderStatus, type PaymentRecordMethod, type PaymentStatus, paymentStatusOf, type ReportOrder } from '@tiendita/contracts';
import type { Pool } from 'pg';
import { addDays, gtDayStart, q } from '../shared/time';

const S = 'reporting';


interface OrderRow {
  order_id: string;
  code: string;
  customer_name: string;
  order_type: 'whatsapp' | 'pos';
  status: OrderStatus;
  payment_status: PaymentStatus;
  total: string;
  placed_at: Date;
  paid: string;
  refunded: string;
  methods: PaymentRecordMethod[] | null;
}

/**
 * The orders placed in the Guatemalan days [from, to] (every status), newest first, each with what
 * was paid for it and by which methods; limit null for all of them (exports).
 */
export async function ordersOfPeriod(pool: Pool, storeId: string, from: string, to: string, limit: number | null): Promise<ReportOrder[]> {
  const r = await pool.query<OrderRow>(
    `SELECT o.order_id, o.code, o.customer_name, o.order_type, o.status, o.payment_status, o.total, o.placed_at,
            COALESCE(p.paid, 0) AS paid, COALESCE(p.refunded, 0) AS refunded, p.methods
     FROM ${S}.orders o
     LEFT JOIN LATERAL (
       SELECT sum(amount) FILTER (WHERE kind <> 'refund') AS paid, sum(amount) FILTER (WHERE kind = 'refund') AS refunded,
              array_agg(method ORDER BY at, entry_id) FILTER (WHERE kind <> 'refund') AS methods
       FROM ${S}.payments WHERE order_id = o.order_id
     ) p ON true
     WHERE o.store_id = $1 AND o.placed_at >= $2 AND o.placed_at < $3 ORDER BY o.placed_at DESC, o.order_id${limit === null ? '' : ` LIMIT ${Number(limit)}`}`,
    [storeId, gtDayStart(from), gtDayStart(addDays(to, 1))],
  );
  return r.rows.map((o) => {
    const methods = [...new Set(o.methods ?? [])];
    const total = Number(o.total);
    return {
      id: o.order_id,
      code: o.code,
      customerName: o.customer_name,
      orderType: o.order_type,
      status: o.status,
      paymentMethod: methods[0] ?? null,
      paymentMethods: methods,
      // Nothing changed hands: the status it was placed with (pending, failed, or a legacy paid order of Q0).
      paymentStatus: paymentStatusOf(total, Number(o.paid) - Number(o.refunded), Number(o.refunded) > 0, o.payment_status),
      amountPaid: q(Number(o.paid) - Number(o.refunded)),
      total: q(total),
      createdAt: o.placed_at.toISOString(),
    };
  });
}
