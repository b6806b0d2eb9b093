import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PG_POOL, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { OrderingConfig } from '../../config';
import { ExpirePendingOrdersCommand } from './order.commands';
import { OrderWriter } from './order-writer';

/**
 * Cancels pending public orders older than ORDER_HOLD_HOURS, with a history note. Safe with
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
    const hours = this.config.ORDER_HOLD_HOURS;
    const due = await this.pool.query<{ id: string; store_id: string }>(
      `SELECT id, store_id FROM ordering.orders WHERE status = 'pending' AND created_at < now() - ($1::bigint * interval '1 millisecond') ORDER BY created_at LIMIT 500`,
      [Math.round(hours * 3600_000)],
    );
    let cancelled = 0;
    for (const o of due.rows) {
      const r = await this.writer.run(
        { type: 'ExpireOrder', orderId: o.id, notes: `Cancelado automáticamente: no se confirmó en ${hours} horas`, changedAt: new Date().toISOString() },
        { storeId: o.store_id, actor: 'system' },
        5,
      );
      if (r.newEvents.length) cancelled++;
    }
    return cancelled;
  }
}
