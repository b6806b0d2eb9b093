import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ORDER_LIMITS_DEFAULTS } from '@tiendita/contracts';
import { PG_POOL, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { OrderingConfig } from '../../config';
import { ORDER_LIMITS_TABLE } from '../limits/order-limits.projection';
import { ExpirePendingOrdersCommand } from './order.commands';
import { OrderWriter } from './order-writer';

/**
 * Cancels pending public orders older than their store's hold (at most ORDER_HOLD_HOURS), with a history note. Safe with
 * several ordering processes: the decider cancels only a pending order, and the event store's
 * expected-version check lets one append win; the others reload, see it cancelled, append nothing.
 */
@CommandHandler(ExpirePendingOrdersCommand)
export class ExpirePendingOrdersHandler implements ICommandHandler<ExpirePendingOrdersCommand, number> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) private readonly config: OrderingConfig,
    private readonly writer: OrderWriter,
  ) {}

  async execute(): Promise<number> {
    // Each store's own hold (Configuración, issue 26; ORDER_LIMITS_DEFAULTS until set), never longer than ORDER_HOLD_HOURS.
    const due = await this.pool.query<{ id: string; store_id: string; hours: number }>(
      `SELECT o.id, o.store_id, LEAST(COALESCE(l.hold_hours, $2)::float8, $1::float8) AS hours
       FROM ordering.orders o LEFT JOIN ${ORDER_LIMITS_TABLE} l ON l.store_id = o.store_id
       WHERE o.status = 'pending' AND o.created_at < now() - (LEAST(COALESCE(l.hold_hours, $2)::float8, $1::float8) * interval '1 hour')
       ORDER BY o.created_at LIMIT 500`,
      [this.config.ORDER_HOLD_HOURS, ORDER_LIMITS_DEFAULTS.orderHoldHours],
    );
    let cancelled = 0;
    for (const o of due.rows) {
      const r = await this.writer.run(
        { type: 'ExpireOrder', orderId: o.id, notes: `Cancelado automáticamente: no se confirmó en ${Number(o.hours)} horas`, changedAt: new Date().toISOString() },
        { storeId: o.store_id, actor: 'system' },
        5,
      );
      if (r.newEvents.length) cancelled++;
    }
    return cancelled;
  }
}
