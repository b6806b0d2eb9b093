// The payment phase of bench/ordering.ts (issue 24): payments recorded through the gateway at a
// steady rate while the owner's cash close (reporting, built from PaymentRecorded) is read at the
// same time. Each open order is paid in two halves, so rate × seconds payments never meet a
// balance already settled.
import type pg from 'pg';

export type OpenLoopResult = { latencies: number[]; errors: number; seconds: number; worstBySecond: number[]; lagMaxMs: number; statuses: Record<string, number>; errorSamples: string[] };

const METHODS = ['cash', 'card', 'transfer', 'other'] as const;

/** The payments to send: each open order's first half, then every second half (paths and bodies pair up by index). */
export async function paymentPlan(pool: pg.Pool, storeId: string, count: number): Promise<{ paths: string[]; bodies: string[] }> {
  const open = await pool.query<{ id: string; total: string }>(
    `SELECT id, total FROM ordering.orders WHERE store_id = $1 AND status <> 'cancelled' AND payment_status = 'pending' AND total >= 2 ORDER BY created_at LIMIT $2`,
    [storeId, Math.ceil(count / 2)],
  );
  const halves: Array<{ id: string; centavos: number }> = [];
  for (const o of open.rows) halves.push({ id: o.id, centavos: Math.floor(Number(o.total) / 2) });
  for (const o of open.rows) halves.push({ id: o.id, centavos: Number(o.total) - Math.floor(Number(o.total) / 2) });
  if (halves.length < count) throw new Error(`solo ${halves.length} pagos posibles para ${count} (pocos pedidos abiertos)`);
  const chosen = halves.slice(0, count);
  return {
    paths: chosen.map((h) => `/api/orders/${h.id}/payments`),
    bodies: chosen.map((h, i) => {
      const method = METHODS[i % METHODS.length];
      const amount = h.centavos / 100;
      return JSON.stringify(method === 'cash' ? { method, amount, cashReceived: Math.ceil(amount) } : { method, amount, reference: method === 'transfer' ? `BI-${i}` : null });
    }),
  };
}

/** Runs the payments and the cash-close reads side by side, each from its own open-loop process. */
export async function paymentPhase(options: {
  openLoop: (input: Record<string, unknown>) => Promise<OpenLoopResult>;
  pool: pg.Pool;
  storeId: string;
  cookie: string;
  origin: string;
  rate: number;
  seconds: number;
  cashCloseRate: number;
}): Promise<{ payments: OpenLoopResult; cashClose: OpenLoopResult }> {
  // A payment is answered from its events; the plan reads the orders table, so it first lets the
  // projection catch up (the owner's list waits for it) or it would pay an order's first half twice.
  const settled = await fetch(`${options.origin}/api/orders?page=1&limit=1`, { headers: { cookie: options.cookie } });
  await settled.arrayBuffer();
  const { paths, bodies } = await paymentPlan(options.pool, options.storeId, Math.round(options.rate * options.seconds));
  const [payments, cashClose] = await Promise.all([
    options.openLoop({ paths, bodies, method: 'POST', commonHeaders: { 'content-type': 'application/json', origin: options.origin, cookie: options.cookie }, okStatus: 201, rate: options.rate, seconds: options.seconds }),
    options.openLoop({ paths: ['/api/reports/cash-close'], commonHeaders: { cookie: options.cookie }, rate: options.cashCloseRate, seconds: options.seconds }),
  ]);
  return { payments, cashClose };
}
