import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { OrderLimitMessages, phoneKey } from '@tiendita/contracts';
import { ValidationError } from '@tiendita/eventsourcing';
import { ForbiddenError, PG_POOL, ProjectionHost, SERVICE_CONFIG, TooManyRequestsError } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { OrderingConfig } from '../../config';
import type { CheckoutContext, CheckoutStep } from '../application/checkout/checkout';
import { claimCodeSql, codeCandidate } from '../application/checkout/order-code';
import { ORDER_LIMITS_TABLE, PENDING_PUBLIC_ORDERS_TABLE } from './order-limits.projection';

/** The order's code, claimed unless the phone is blocked in the store or past its rate ($7). */
const CLAIM = claimCodeSql({
  orderId: '$5',
  storeId: '$1',
  code: '$6',
  when: `NOT COALESCE((SELECT $2 = ANY(blocked_phones) FROM ${ORDER_LIMITS_TABLE} WHERE store_id = $1), false) AND COALESCE((SELECT hits FROM hit), 0) <= $7`,
});

/** Fixed-window counters of public orders per store and phone (one upsert per checkout; migration 002). */
const COUNTERS_TABLE = 'ordering.public_order_counters';

interface LimitsRow {
  hits: number;
  retry: number;
  max_units_per_line: number | null;
  max_units_per_order: number | null;
  blocked: boolean | null;
  pending: number;
  code: string | null;
}

/**
 * The public checkout's fairness step (issue 26), before any stock is held: a phone the store
 * blocked is refused (403), a phone past ORDER_RATE_PER_PHONE orders per window in this store or
 * with ORDER_MAX_PENDING_PER_PHONE orders still waiting there is held back (429), and a line or an
 * order past the store's units caps is refused (400). All of it in one statement. POS sales and a
 * retry of an order already placed (same Idempotency-Key) are not checked.
 */
@Injectable()
export class PublicOrderLimits implements OnApplicationBootstrap, OnModuleDestroy {
  readonly step: CheckoutStep = { name: 'public order limits', run: (ctx) => this.check(ctx) };
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) private readonly config: OrderingConfig,
    private readonly host: ProjectionHost,
  ) {}

  /** Counters of windows that ended long ago are dropped every 15 minutes (a phone per shopper: the table would only grow). */
  onApplicationBootstrap(): void {
    this.sweeper = setInterval(() => void this.sweepCounters().catch(() => undefined), 15 * 60 * 1000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Drops the counters whose window ended more than a day ago; answers how many. */
  async sweepCounters(): Promise<number> {
    const r = await this.pool.query(`DELETE FROM ${COUNTERS_TABLE} WHERE window_start < now() - make_interval(mins => $1) - interval '1 day'`, [this.config.ORDER_RATE_PHONE_WINDOW_MIN]);
    return r.rowCount ?? 0;
  }

  async check(ctx: CheckoutContext): Promise<void> {
    if (ctx.input.kind !== 'public' || ctx.existing) return;
    const phone = ctx.input.customer.phone ? phoneKey(ctx.input.customer.phone) : null;
    // The counter's commit does not wait for the WAL flush (as the order code's claim): a count lost
    // in a crash lets a phone one more order in that window, and the checkout saves a disk flush. The
    // order's code is claimed in the same statement when the phone is not blocked nor past its rate
    // (a round trip and a commit fewer per checkout; the reserve step claims one otherwise).
    const r = await this.pool.query<LimitsRow>({
      name: 'ordering_public_order_limits',
      text: `WITH cfg AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
             hit AS (
               INSERT INTO ${COUNTERS_TABLE} AS c (key, window_start, hits) SELECT $3, now(), 1 FROM cfg WHERE $3::text IS NOT NULL
               ON CONFLICT (key) DO UPDATE SET
                 hits = CASE WHEN c.window_start <= now() - make_interval(mins => $4) THEN 1 ELSE c.hits + 1 END,
                 window_start = CASE WHEN c.window_start <= now() - make_interval(mins => $4) THEN now() ELSE c.window_start END
               RETURNING hits, GREATEST(1, ceil(extract(epoch FROM window_start + make_interval(mins => $4) - now())))::int AS retry),
             ${CLAIM.cte}
             SELECT COALESCE((SELECT hits FROM hit), 0) AS hits, COALESCE((SELECT retry FROM hit), 0) AS retry,
                    l.max_units_per_line, l.max_units_per_order, $2 = ANY(l.blocked_phones) AS blocked,
                    (SELECT count(*)::int FROM ${PENDING_PUBLIC_ORDERS_TABLE} p WHERE p.store_id = $1 AND p.phone_key = $2) AS pending,
                    ${CLAIM.select} AS code
             FROM (SELECT 1) one LEFT JOIN ${ORDER_LIMITS_TABLE} l ON l.store_id = $1`,
      values: [ctx.storeId, phone, phone ? `phone:${ctx.storeId}:${phone}` : null, this.config.ORDER_RATE_PHONE_WINDOW_MIN, ctx.orderId, codeCandidate(), this.config.ORDER_RATE_PER_PHONE],
    });
    const row = r.rows[0];
    if (row.code) ctx.codeClaim = Promise.resolve(row.code);
    if (row.blocked) throw new ForbiddenError(OrderLimitMessages.phoneBlocked);
    if (row.hits > this.config.ORDER_RATE_PER_PHONE) throw new TooManyRequestsError(OrderLimitMessages.phoneRateLimited, row.retry);
    // The pending count is a read model that gathers a steady stream's events for up to 100 ms, so it
    // may lack this phone's latest orders, at most the window's earlier ones (hits − 1). Only when those
    // could reach the cap is it read once it has caught up: a first order, and a repeat order well
    // under the cap (the common cases), are not made to wait.
    const unseenAtMost = row.hits - 1;
    if (phone && unseenAtMost > 0 && row.pending < this.config.ORDER_MAX_PENDING_PER_PHONE && row.pending + unseenAtMost >= this.config.ORDER_MAX_PENDING_PER_PHONE) {
      row.pending = await this.pendingNow(ctx.storeId, phone);
    }
    if (row.pending >= this.config.ORDER_MAX_PENDING_PER_PHONE) throw new TooManyRequestsError(OrderLimitMessages.tooManyPending(this.config.ORDER_MAX_PENDING_PER_PHONE));
    checkUnits(ctx, row.max_units_per_line ?? this.config.ORDER_DEFAULT_MAX_UNITS_PER_LINE, row.max_units_per_order ?? this.config.ORDER_DEFAULT_MAX_UNITS_PER_ORDER);
  }

  /** The phone's pending orders in the store once the projection has every order committed before the call. */
  private async pendingNow(storeId: string, phone: string): Promise<number> {
    await this.host.fresh([{ projection: 'ordering_order_limits', source: 'ordering' }]);
    const r = await this.pool.query<{ n: number }>({
      name: 'ordering_pending_per_phone',
      text: `SELECT count(*)::int AS n FROM ${PENDING_PUBLIC_ORDERS_TABLE} WHERE store_id = $1 AND phone_key = $2`,
      values: [storeId, phone],
    });
    return r.rows[0].n;
  }
}

/** Units per line (a product asked for twice counts once, summed) and per order. */

function checkUnits(ctx: CheckoutContext, perLine: number, perOrder: number): void {
  const byProduct = new Map<string, number>();
  for (const w of ctx.input.wanted) byProduct.set(w.productId, (byProduct.get(w.productId) ?? 0) + w.quantity);
  for (const [productId, quantity] of byProduct) {
    if (quantity <= perLine) continue;
    const name = ctx.products.find((p) => p.id === productId)?.name ?? productId;
    const message = OrderLimitMessages.unitsPerLine(perLine, name);
    throw new ValidationError(message, { fields: { items: message }, productId });
  }
  const total = [...byProduct.values()].reduce((a, b) => a + b, 0);
  if (total > perOrder) {
    const message = OrderLimitMessages.unitsPerOrder(perOrder);
    throw new ValidationError(message, { fields: { items: message } });
  }
}
