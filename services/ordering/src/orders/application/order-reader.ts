import { Inject, Injectable } from '@nestjs/common';
import { isUuid, OrderMessages, type OrderView } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { orderStreamId } from '../domain/order.decider';
import { AuthorNames } from './author-names';
import { type OrderRow, orderView, rowAuthors } from './order-view';

/** Reads one order of the caller's store from the orders projection (404 for another store's or a malformed id). */
@Injectable()
export class OrderReader {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly host: ProjectionHost,
    private readonly names: AuthorNames,
  ) {}

  async row(storeId: string, id: string): Promise<OrderRow> {
    if (!isUuid(id)) throw new NotFoundError(OrderMessages.orderNotFound);
    const read = () => this.pool.query<OrderRow>({ name: 'ordering_order_by_id', text: 'SELECT * FROM ordering.orders WHERE id = $1 AND store_id = $2', values: [id, storeId] });
    let r = await read();
    if (!r.rows[0]) {
      // Placed a moment ago (a public order is answered before it is projected): wait for it once.
      await this.host.waitForStream(orderStreamId(id), 1, { projection: 'orders' });
      r = await read();
    }
    if (!r.rows[0]) throw new NotFoundError(OrderMessages.orderNotFound);
    return r.rows[0];
  }

  async get(storeId: string, id: string): Promise<OrderView> {
    return (await this.views([await this.row(storeId, id)]))[0];
  }

  /** Rows as the API answers them, their authors' names read once for all. */
  async views(rows: readonly OrderRow[]): Promise<OrderView[]> {
    const name = await this.names.display(rowAuthors(rows));
    return rows.map((r) => orderView(r, name));
  }
}
