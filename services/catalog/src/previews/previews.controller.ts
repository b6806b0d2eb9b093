import { Controller, Get, Inject, Param } from '@nestjs/common';
import { CatalogMessages, type LinkPreview, PRIORITY_CARD_IMAGES } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { isUuid, quetzalesSql } from '../shared/sql';

/**
 * Internal calls of the gateway's link previews (signed like every call; not routed from outside).
 * Only active stores and active products are described.
 */
@Controller('internal/previews')
export class PreviewsController {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** A shop by subdomain, id, or store name (/tienda/{name}); its logo, else its newest product image. */
  @Get('stores/:store')
  async store(@Param('store') store: string): Promise<LinkPreview> {
    const r = await this.pool.query<{ name: string; subdomain: string; description: string | null; image: string | null; card_images: (string | null)[] | null }>({
      name: `catalog_preview_store_${isUuid(store) ? 'id' : 'sub'}`,
      text: `SELECT s.name, s.subdomain, s.description,
                    COALESCE(s.logo_url, (SELECT p.images[1] FROM catalog.products p WHERE p.store_id = s.id AND p.is_active AND cardinality(p.images) > 0
                                          ORDER BY p.created_at DESC, p.id DESC LIMIT 1)) AS image,
                    -- the first cards of the public list (same filter and order as its first page)
                    ARRAY(SELECT first.images[1] FROM (SELECT p.images FROM catalog.products p WHERE p.store_id = s.id AND p.is_active
                                                       ORDER BY p.created_at DESC, p.id DESC LIMIT ${PRIORITY_CARD_IMAGES}) first) AS card_images
             FROM catalog.stores s
             WHERE s.is_active AND ${isUuid(store) ? 's.id = $1::text::uuid' : '(s.subdomain = lower($1) OR lower(s.name) = lower($1))'}
             ORDER BY (s.subdomain = lower($1::text)) DESC LIMIT 1`,
      values: [store],
    });
    const s = r.rows[0];
    if (!s) throw new NotFoundError(CatalogMessages.storeNotFound);
    const cardImages = (s.card_images ?? []).filter((x): x is string => typeof x === 'string' && x.length > 0);
    return { title: s.name, description: s.description, image: s.image, type: 'website', storeName: s.name, storeSubdomain: s.subdomain, cardImages };
  }

  @Get('products/:productId')
  async product(@Param('productId') productId: string): Promise<LinkPreview> {
    if (!isUuid(productId)) throw new NotFoundError(CatalogMessages.productNotFound);
    const r = await this.pool.query<{ name: string; description: string | null; image: string | null; store_name: string; subdomain: string; price: string; final_price: string; discount: string }>({
      name: 'catalog_preview_product',
      text: `SELECT p.name, p.description, p.images[1] AS image, s.name AS store_name, s.subdomain,
                    ${quetzalesSql('p.price_centavos')} AS price, ${quetzalesSql('p.final_price_centavos')} AS final_price, p.discount_percentage AS discount
             FROM catalog.products p JOIN catalog.stores s ON s.id = p.store_id
             WHERE p.id = $1 AND p.is_active AND s.is_active`,
      values: [productId],
    });
    const p = r.rows[0];
    if (!p) throw new NotFoundError(CatalogMessages.productNotFound);
    return {
      title: p.name,
      description: p.description,
      image: p.image,
      type: 'product',
      storeName: p.store_name,
      storeSubdomain: p.subdomain,
      price: Number(p.price),
      finalPrice: Number(p.final_price),
      discountPercentage: Number(p.discount),
    };
  }
}
