import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { CategoryView } from '@tiendita/contracts';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { categoryJsonSql } from '../../shared/sql';

/** GET /api/categories: the store's categories by name. */
export class ListCategoriesQuery extends Query<CategoryView[]> {
  constructor(readonly storeId: string) {
    super();
  }
}

@QueryHandler(ListCategoriesQuery)
export class ListCategoriesHandler implements IQueryHandler<ListCategoriesQuery, CategoryView[]> {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async execute({ storeId }: ListCategoriesQuery): Promise<CategoryView[]> {
    const r = await this.pool.query<{ list: CategoryView[] }>({
      name: 'catalog_list_categories',
      text: `SELECT COALESCE(json_agg(${categoryJsonSql} ORDER BY c.name, c.id), '[]') AS list FROM catalog.categories c WHERE c.store_id = $1`,
      values: [storeId],
    });
    return r.rows[0].list;
  }
}
