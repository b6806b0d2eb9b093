import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { OrderHistoryEntry, OrderStatus, OrderView } from '@tiendita/contracts';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { AuthorNames } from './author-names';
import { OrderReader } from './order-reader';

/** GET /api/orders/{id}. */
export class GetOrderQuery extends Query<OrderView> {
  constructor(
    readonly storeId: string,
    readonly orderId: string,
  ) {
    super();
  }
}

@QueryHandler(GetOrderQuery)
export class GetOrderHandler implements IQueryHandler<GetOrderQuery, OrderView> {
  constructor(private readonly reader: OrderReader) {}

  execute({ storeId, orderId }: GetOrderQuery): Promise<OrderView> {
    return this.reader.fresh(storeId, orderId);
  }
}

/** GET /api/orders/{id}/history: created, then every status change, oldest first, each with its author's name. */
export class GetOrderHistoryQuery extends Query<OrderHistoryEntry[]> {
  constructor(
    readonly storeId: string,
    readonly orderId: string,
  ) {
    super();
  }
}

interface HistoryRow {
  id: string;
  order_id: string;
  status: OrderStatus;
  previous_status: OrderStatus | null;
  notes: string | null;
  created_by: string;
  created_at: Date;
}

@QueryHandler(GetOrderHistoryQuery)
export class GetOrderHistoryHandler implements IQueryHandler<GetOrderHistoryQuery, OrderHistoryEntry[]> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly reader: OrderReader,
    private readonly names: AuthorNames,
  ) {}

  async execute({ storeId, orderId }: GetOrderHistoryQuery): Promise<OrderHistoryEntry[]> {
    await this.reader.freshRow(storeId, orderId); // 404 for another store's order; the history has what was just written
    const r = await this.pool.query<HistoryRow>(`SELECT * FROM ordering.order_history WHERE order_id = $1 AND store_id = $2 ORDER BY created_at, id`, [orderId, storeId]);
    const name = await this.names.display(r.rows.map((h) => h.created_by));
    return r.rows.map((h) => {
      const createdAt = h.created_at.toISOString();
      return { id: h.id, orderId: h.order_id, status: h.status, previousStatus: h.previous_status, notes: h.notes, createdBy: name(h.created_by), createdAt, action: h.status, timestamp: createdAt };
    });
  }
}
