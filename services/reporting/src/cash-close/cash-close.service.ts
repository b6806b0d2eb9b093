import { Inject, Injectable } from '@nestjs/common';
import { type CashCloseResponse, type CashCountRecorded, type CashMovement, type PaymentRecordMethod, type RecordCashCountRequest } from '@tiendita/contracts';
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

/** A day's money in centavos: every movement, and the cash the drawer should hold. */
interface CashFigures {
  movements: MovementRow[];
  expectedCash: number;
}

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

  private async figures(storeId: string, day: string): Promise<CashFigures> {
    await this.reports.ready();
    const r = await this.pool.query<MovementRow>(
      `SELECT p.kind, p.method, p.amount, p.at, p.order_id, p.author, o.code, o.order_type
       FROM ${S}.payments p LEFT JOIN ${S}.orders o ON o.order_id = p.order_id
       WHERE p.store_id = $1 AND p.at >= $2 AND p.at < $3 ORDER BY p.at, p.entry_id`,
      [storeId, gtDayStart(day), gtDayStart(addDays(day, 1))],
    );
    const expectedCash = r.rows.reduce((sum, m) => (m.method !== 'cash' ? sum : sum + (m.kind === 'refund' ? -1 : 1) * Number(m.amount)), 0);
    return { movements: r.rows, expectedCash };
  }

  async close(storeId: string, day: string): Promise<CashCloseResponse> {
    const [f, sales, counted] = await Promise.all([
      this.figures(storeId, day),
      this.pool.query<{ orders: string; amount: string }>(
        `SELECT COALESCE(sum(orders), 0) AS orders, COALESCE(sum(amount), 0) AS amount FROM ${S}.sales_daily WHERE store_id = $1 AND day = $2`,
        [storeId, day],
      ),
      this.pool.query<{ counted_cash: string; note: string | null; recorded_by: string; recorded_at: Date }>(
        `SELECT counted_cash, note, recorded_by, recorded_at FROM ${S}.cash_counts WHERE store_id = $1 AND day = $2`,
        [storeId, day],
      ),
    ]);
    const byMethod = new Map<string, { method: PaymentRecordMethod; payments: number; received: number; refunds: number; refunded: number }>();
    for (const m of f.movements) {
      const x = byMethod.get(m.method) ?? { method: m.method, payments: 0, received: 0, refunds: 0, refunded: 0 };
      if (m.kind === 'refund') {
        x.refunds += 1;
        x.refunded += Number(m.amount);
      } else {
        x.payments += 1;
        x.received += Number(m.amount);
      }
      byMethod.set(m.method, x);
    }
    const paymentsByMethod = methodFigures([...byMethod.values()]);
    const movements: CashMovement[] = f.movements.map((m) => ({
      kind: m.kind === 'refund' ? 'refund' : 'payment',
      paymentMethod: m.method,
      amount: q(Number(m.amount)),
      at: m.at.toISOString(),
      orderId: m.order_id,
      orderCode: m.code,
      orderType: m.order_type,
      author: m.author,
    }));
    const sum = (pick: (m: MovementRow) => boolean) => f.movements.filter(pick).reduce((s, m) => s + Number(m.amount), 0);
    const s = sales.rows[0];
    const c = counted.rows[0];
    return {
      date: day,
      paymentsByMethod,
      totalReceived: q(sum((m) => m.kind !== 'refund')),
      totalRefunded: q(sum((m) => m.kind === 'refund')),
      expectedCash: q(f.expectedCash),
      totalSales: q(Number(s.amount)),
      orderCount: Number(s.orders),
      movements,
      countedCash: c ? q(Number(c.counted_cash)) : null,
      difference: c ? q(Number(c.counted_cash) - f.expectedCash) : null,
      note: c?.note ?? null,
      recordedBy: c?.recorded_by ?? null,
      recordedAt: c ? c.recorded_at.toISOString() : null,
    };
  }

  async record(owner: OwnerIdentity, body: RecordCashCountRequest): Promise<CashCloseResponse> {
    const today = gtDayHour(this.reports.now()).day;
    const date = body.date ?? today;
    if (date > today) throw new ValidationError('No se puede registrar el corte de un día futuro', { fields: { date: 'No se puede registrar el corte de un día futuro' } });
    const figures = await this.figures(owner.storeId, date);
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
