import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { lowStockSql, type ProductListQuery, type ProductListResponse } from '@tiendita/contracts';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import { FRESH_PRODUCT_VIEWS } from '../../read-model/catalog.projection';
import type { Pool } from 'pg';
import { containsPattern, foldSearchText, productJsonSql, searchMatchSql } from '../../shared/sql';

/** GET /api/products with the filters, sort and paging of spec §2/§7. */
export class ListProductsQuery extends Query<ProductListResponse> {
  constructor(
    readonly storeId: string,
    readonly query: ProductListQuery,
  ) {
    super();
  }
}

const SORT_COLUMNS = { name: 'p.name', price: 'p.price_centavos', stock: 'p.stock', createdAt: 'p.created_at' } as const;

@QueryHandler(ListProductsQuery)
export class ListProductsHandler implements IQueryHandler<ListProductsQuery, ProductListResponse> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ storeId, query }: ListProductsQuery): Promise<ProductListResponse> {
    await this.readModels.fresh(FRESH_PRODUCT_VIEWS);
    const values: unknown[] = [storeId];
    const where = ['p.store_id = $1'];
    if (query.categoryId === 'none') where.push('p.category_id IS NULL');
    else if (query.categoryId) {
      values.push(query.categoryId);
      where.push(`p.category_id = $${values.length}`);
    }
    if (query.isActive !== undefined) {
      values.push(query.isActive);
      where.push(`p.is_active = $${values.length}`);
    }
    // Low stock is per product: at or below its own minimum (inventory's StockMinimumSet, 5 unless the owner set another).
    const low = lowStockSql('p.stock', 'p.stock_minimum');
    if (query.lowStock === true) where.push(low);
    if (query.lowStock === false) where.push(`NOT ${low}`);
    if (query.search) {
      values.push(containsPattern(foldSearchText(query.search)));
      where.push(searchMatchSql(values.length));
    }
    const dir = query.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const order = `${SORT_COLUMNS[query.sortBy]} ${dir}, p.id ${dir}`;
    values.push(query.limit, (query.page - 1) * query.limit);
    const r = await this.pool.query<{ total: string; products: ProductListResponse['products'] }>(
      `SELECT (SELECT count(*) FROM catalog.products p WHERE ${where.join(' AND ')}) AS total,
              COALESCE((SELECT json_agg(x.view ORDER BY x.n) FROM (
                 SELECT ${productJsonSql('owner')} AS view, row_number() OVER (ORDER BY ${order}) AS n
                 FROM catalog.products p WHERE ${where.join(' AND ')}
                 ORDER BY ${order} LIMIT $${values.length - 1} OFFSET $${values.length}) x), '[]') AS products`,
      values,
    );
    const total = Number(r.rows[0].total);
    return { products: r.rows[0].products, total, totalPages: Math.ceil(total / query.limit), currentPage: query.page };
  }
}
