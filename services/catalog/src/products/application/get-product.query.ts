import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { PriceHistoryEntry, ProductView } from '@tiendita/contracts';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { FRESH_PRODUCT_VIEWS } from '../../read-model/catalog.projection';
import { isoSql, quetzalesSql } from '../../shared/sql';
import { ProductReader } from './product-reader';

/** GET /api/products/{id}. */
export class GetProductQuery extends Query<ProductView> {
  constructor(
    readonly storeId: string,
    readonly productId: string,
  ) {
    super();
  }
}

@QueryHandler(GetProductQuery)
export class GetProductHandler implements IQueryHandler<GetProductQuery, ProductView> {
  constructor(
    private readonly reader: ProductReader,
    private readonly readModels: ProjectionHost,
  ) {}

  /** A read after another service's write (a sale, an adjustment) shows its stock; the product's own writes wait for their stream. */
  async execute({ storeId, productId }: GetProductQuery): Promise<ProductView> {
    await this.readModels.fresh(FRESH_PRODUCT_VIEWS);
    return this.reader.get(storeId, productId);
  }
}

/**
 * GET /api/products/{id}/price-history: newest first; the first entry of a product is its opening
 * price. Each entry names its actor: changedBy (the user id, kept) and changedByName (the owner's
 * name from identity's events; 'Sistema' for the demo seed).
 */
export class PriceHistoryQuery extends Query<PriceHistoryEntry[]> {
  constructor(
    readonly storeId: string,
    readonly productId: string,
  ) {
    super();
  }
}

@QueryHandler(PriceHistoryQuery)
export class PriceHistoryHandler implements IQueryHandler<PriceHistoryQuery, PriceHistoryEntry[]> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly reader: ProductReader,
  ) {}

  async execute({ storeId, productId }: PriceHistoryQuery): Promise<PriceHistoryEntry[]> {
    await this.reader.get(storeId, productId); // 404 for another store's product
    const r = await this.pool.query<{ list: PriceHistoryEntry[] }>({
      name: 'catalog_price_history',
      text: `SELECT COALESCE(json_agg(json_build_object(
                'id', h.id,
                'oldPrice', ${quetzalesSql('h.old_price_centavos')},
                'newPrice', ${quetzalesSql('h.new_price_centavos')},
                'oldDiscountPercentage', h.old_discount_percentage,
                'newDiscountPercentage', h.new_discount_percentage,
                'changeReason', h.change_reason,
                'changedBy', h.changed_by,
                'changedByName', CASE WHEN h.changed_by = 'system' THEN 'Sistema' ELSE u.name END,
                'createdAt', ${isoSql('h.created_at')}) ORDER BY h.created_at DESC, h.id), '[]') AS list
             FROM catalog.price_history h
             LEFT JOIN catalog.users u ON u.id::text = h.changed_by
             WHERE h.product_id = $1 AND h.store_id = $2`,
      values: [productId, storeId],
    });
    return r.rows[0].list;
  }
}
