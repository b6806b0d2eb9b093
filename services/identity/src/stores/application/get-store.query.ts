import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { StoreView } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { storeOrderTotal } from '../../read-model/store-orders.projection';
import { storeProductTotals } from '../../read-model/store-products.projection';
import { STORE_COLUMNS, STORES_TABLE, toStoreView, type StoreRow } from './store-row';

export const STORE_NOT_FOUND = 'Tienda no encontrada';

/** GET /api/store: the store of the session, and only that one. */
export class GetStoreQuery extends Query<StoreView> {
  constructor(
    readonly storeId: string,
    readonly ownerId: string,
    /** After a write: wait until the read model shows a change at least this recent. */
    readonly since: string | null = null,
  ) {
    super();
  }
}

@QueryHandler(GetStoreQuery)
export class GetStoreHandler implements IQueryHandler<GetStoreQuery> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ storeId, ownerId, since }: GetStoreQuery): Promise<StoreView> {
    const row =
      (await this.readModels.waitFor(async () => {
        const found = await this.find(storeId, ownerId);
        return found && (!since || found.updated_at.getTime() >= Date.parse(since)) ? found : null;
      })) ?? (await this.find(storeId, ownerId));
    if (!row) throw new NotFoundError(STORE_NOT_FOUND);
    // Products from catalog's events (store_products), orders from ordering's (store_orders).
    await this.readModels.fresh([
      { projection: 'store_products', source: 'catalog' },
      { projection: 'store_orders', source: 'ordering' },
    ]);
    const [products, orders] = await Promise.all([storeProductTotals(this.pool, storeId), storeOrderTotal(this.pool, storeId)]);
    return toStoreView(row, { totalProducts: products.total, totalOrders: orders });
  }

  private async find(storeId: string, ownerId: string): Promise<StoreRow | null> {
    const r = await this.pool.query<StoreRow>(`SELECT ${STORE_COLUMNS} FROM ${STORES_TABLE} WHERE id = $1 AND owner_id = $2`, [storeId, ownerId]);
    return r.rows[0] ?? null;
  }
}
