import { Inject, Injectable } from '@nestjs/common';
import { isUuid, OrderMessages, type OrderView } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { orderStreamId, type OrderState } from '../domain/order.decider';
import { AuthorNames } from './author-names';
import { type OrderRow, orderView, rowAuthors, stateRow } from './order-view';

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

  /**
   * GET of one order: a command answered a moment ago from its events (ofState) is in the list by
   * now, unless the projection is behind; then this read waits for it (one small query when not).
   */
  async fresh(storeId: string, id: string): Promise<OrderView> {
    return (await this.views([await this.freshRow(storeId, id)]))[0];
  }

  /** row() once the projection has every event committed before the call (history, receipt). */
  async freshRow(storeId: string, id: string): Promise<OrderRow> {
    if (!isUuid(id)) throw new NotFoundError(OrderMessages.orderNotFound);
    await this.host.fresh([{ projection: 'orders', source: 'ordering' }], undefined, storeId);
    return this.row(storeId, id);
  }

  /** The order as a command's events left it (its store's, or 404), as the list will show it. */
  async ofState(storeId: string, state: OrderState): Promise<OrderView> {
    if (state.status !== 'placed' || state.order.storeId !== storeId) throw new NotFoundError(OrderMessages.orderNotFound);
    return (await this.views([stateRow(state)]))[0];
  }

  /** Rows as the API answers them, their authors' names read once for all. */
  async views(rows: readonly OrderRow[]): Promise<OrderView[]> {
    const name = await this.names.display(rowAuthors(rows));
    return rows.map((r) => orderView(r, name));
  }
}
