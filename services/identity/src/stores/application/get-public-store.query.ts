import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { PublicStoreView } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { STORE_NOT_FOUND } from './get-store.query';
import { storeProductTotals } from '../../read-model/store-products.projection';
import { findActiveStore } from './find-store';
import { toPublicStoreView } from './store-row';

/** GET /api/public/store/:store: an active store by subdomain or id, for the public shop. */
export class GetPublicStoreQuery extends Query<PublicStoreView> {
  constructor(readonly identifier: string) {
    super();
  }
}

@QueryHandler(GetPublicStoreQuery)
export class GetPublicStoreHandler implements IQueryHandler<GetPublicStoreQuery> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ identifier }: GetPublicStoreQuery): Promise<PublicStoreView> {
    const row = await findActiveStore(this.pool, identifier, this.readModels);
    if (!row) throw new NotFoundError(STORE_NOT_FOUND);
    // Shoppers see the active products only, so that is what the shop counts.
    return toPublicStoreView(row, (await storeProductTotals(this.pool, row.id)).active);
  }
}
