import { Inject, Injectable } from '@nestjs/common';
import { CatalogMessages, type ProductView } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { isUuid, productJsonSql } from '../../shared/sql';

/** Reads one product of a store from the read model; another store's product is not found. */
@Injectable()
export class ProductReader {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async get(storeId: string, productId: string): Promise<ProductView> {
    if (!isUuid(productId)) throw new NotFoundError(CatalogMessages.productNotFound);
    const r = await this.pool.query<{ view: ProductView }>({
      name: 'catalog_get_product',
      text: `SELECT ${productJsonSql('owner')} AS view FROM catalog.products p WHERE p.id = $1 AND p.store_id = $2`,
      values: [productId, storeId],
    });
    if (r.rowCount === 0) throw new NotFoundError(CatalogMessages.productNotFound);
    return r.rows[0].view;
  }
}
