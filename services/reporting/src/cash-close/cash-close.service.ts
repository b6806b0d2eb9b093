import { Inject, Injectable } from '@nestjs/common';
import { type CashCloseResponse, type CashCountRecorded, type CashMovement, type PaymentMethodFigures, type PaymentRecordMethod, type RecordCashCountRequest } from '@tiendita/contracts';
import { PostgresEventStore, ValidationError } from '@tiendita/eventsourcing';
import { EVENT_STORE, type OwnerIdentity, PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { methodFigures, ReportsService } from '../reports/reports.service';
import { addDays, gtDayHour, gtDayStart, q } from '../shared/time';

const S = 'reporting';

interface MovementRow {
  kind: 'payment' | 'legacy' | 'refund';
  method: PaymentRecordMethod;
  amount: string;
  at: Date;
  order_id: string;
  author: string;
  code: string | null;
  order_type: 'whatsapp' | 'pos' | null;
}

/** The movements a cash close lists, newest first (a busy day's totals still count every one). */
const MOVEMENTS_LISTED = 200;

/**
 * The daily cash close (corte de caja). The money of a day is what changed hands that day,
 * whatever the channel and whenever the order was placed: the payments and refunds recorded that
 * day (a legacy paid order counts on the day it was placed). The drawer should hold the cash
 * received minus the cash given back. The owner's count is a CashCountRecorded event in
 * reporting's own event store; the latest count of a day wins.
 */
@Injectable()
export class CashCloseService {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly host: ProjectionHost,
    private readonly reports: ReportsService,
  ) {}

  /** The day's money by method (its payments' daily totals, centavos) and the cash the drawer should hold. */
  private async totals(storeId: string, day: string): Promise<{ byMethod: PaymentMethodFigures[]; expectedCash: number; received: number; refunded: number; movements: number }> {
    await this.reports.ready();
    const r = await this.pool.query<{ method: PaymentRecordMethod; payments: string; received: string; refunds: string; refunded: string }>({
      name: 'reporting_cash_close_totals',
      text: `SELECT method, payments, received, refunds, refunded FROM ${S}.payments_daily WHERE store_id = $1 AND day = $2`,
      values: [storeId, day],
    });
    let expectedCash = 0;
    let received = 0;
    let refunded = 0;
    let movements = 0;
    for (const m of r.rows) {
      received += Number(m.received);
      refunded += Number(m.refunded);
      movements += Number(m.payments) + Number(m.refunds);
      if (m.method === 'cash') expectedCash += Number(m.received) - Number(m.refunded);
    }
    return { byMethod: methodFigures(r.rows), expectedCash, received, refunded, movements };
  }

  async close(storeId: string, day: string): Promise<CashCloseResponse> {
    const [t, listed, sales, counted] = await Promise.all([
      this.totals(storeId, day),
      this.pool.query<MovementRow>({
        name: 'reporting_cash_close_movements',
        text: `SELECT p.kind, p.method, p.amount, p.at, p.order_id, p.author, o.code, o.order_type
               FROM ${S}.payments p LEFT JOIN ${S}.orders o ON o.order_id = p.order_id
               WHERE p.store_id = $1 AND p.at >= $2 AND p.at < $3 ORDER BY p.at DESC, p.entry_id DESC LIMIT ${MOVEMENTS_LISTED}`,
        values: [storeId, gtDayStart(day), gtDayStart(addDays(day, 1))],
      }),
      this.pool.query<{ orders: string; amount: string }>(
        `SELECT COALESCE(sum(orders), 0) AS orders, COALESCE(sum(amount), 0) AS amount FROM ${S}.sales_daily WHERE store_id = $1 AND day = $2`,
        [storeId, day],
      ),
      this.pool.query<{ counted_cash: string; note: string | null; recorded_by: string; recorded_at: Date }>(
        `SELECT counted_cash, note, recorded_by, recorded_at FROM ${S}.cash_counts WHERE store_id = $1 AND day = $2`,
        [storeId, day],
      ),
    ]);
    const movements: CashMovement[] = listed.rows.map((m) => ({
      kind: m.kind === 'refund' ? 'refund' : 'payment',
      paymentMethod: m.method,
      amount: q(Number(m.amount)),
      at: m.at.toISOString(),
      orderId: m.order_id,
      orderCode: m.code,
      orderType: m.order_type,
      author: m.author,
    }));
    const s = sales.rows[0];
    const c = counted.rows[0];
    return {
      date: day,
      paymentsByMethod: t.byMethod,
      // The name earlier clients read (before payments existed it counted orders by their method): the same money, by method.
      salesByPaymentMethod: t.byMethod.map((m) => ({ paymentMethod: m.paymentMethod, orders: m.payments, amount: m.amount })),
      totalReceived: q(t.received),
      totalRefunded: q(t.refunded),
      expectedCash: q(t.expectedCash),
      totalSales: q(Number(s.amount)),
      orderCount: Number(s.orders),
      movements,
      movementCount: t.movements,
      countedCash: c ? q(Number(c.counted_cash)) : null,
      difference: c ? q(Number(c.counted_cash) - t.expectedCash) : null,
      note: c?.note ?? null,
      recordedBy: c?.recorded_by ?? null,
      recordedAt: c ? c.recorded_at.toISOString() : null,
    };
  }

  async record(owner: OwnerIdentity, body: RecordCashCountRequest): Promise<CashCloseResponse> {
    const today = gtDayHour(this.reports.now()).day;
    const date = body.date ?? today;
    if (date > today) throw new ValidationError('No se puede registrar el corte de un día futuro', { fields: { date: 'No se puede registrar el corte de un día futuro' } });
    const figures = await this.totals(owner.storeId, date);
    const data: CashCountRecorded = {
      storeId: owner.storeId,
      date,
      countedCash: Math.round(body.countedCash * 100),
      expectedCash: figures.expectedCash,
      note: body.note?.trim() ? body.note.trim() : null,
      recordedBy: owner.userId,
      recordedAt: this.reports.now().toISOString(),
    };
    const result = await this.store.append(`cash-close-${owner.storeId}-${date}`, [{ type: 'CashCountRecorded', data }], 'any', {
      storeId: owner.storeId,
      actor: owner.userId,
    });
    await this.host.waitForPosition(result.position, { projection: 'cash_counts' });
    return this.close(owner.storeId, date);
  }
}
