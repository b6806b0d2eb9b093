import { Controller, Get, Inject, Param } from '@nestjs/common';
import { CatalogMessages, FIRST_SCREEN_CARDS, type FirstScreenCard, type FirstScreenStore, type LinkPreview, PRIORITY_CARD_IMAGES } from '@tiendita/contracts';
import { NotFoundError } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { isUuid, quetzalesSql } from '../shared/sql';

/** The store's fields of the first screen (its header, info banner and WhatsApp number), of the row aliased `s`. */
const STORE_FIELDS = `s.name, s.subdomain, s.description, s.logo_url, s.primary_color, s.secondary_color, s.accent_color,
                      s.address, s.phone, s.business_hours, s.whatsapp_number`;

interface StoreRow {
  name: string;
  subdomain: string;
  description: string | null;
  logo_url: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  accent_color: string | null;
  address: string | null;
  phone: string | null;
  business_hours: string | null;
  whatsapp_number: string | null;
}

function firstScreenStore(s: StoreRow): FirstScreenStore {
  return {
    name: s.name,
    subdomain: s.subdomain,
    description: s.description,
    logoUrl: s.logo_url,
    primaryColor: s.primary_color,
    secondaryColor: s.secondary_color,
    accentColor: s.accent_color,
    address: s.address,
    phone: s.phone,
    businessHours: s.business_hours,
    whatsappNumber: s.whatsapp_number,
  };
}

/**
 * Internal calls of the gateway's link previews and first screens (signed like every call; not
 * routed from outside). Only active stores and active products are described. One query each, on
 * indexed rows: the gateway asks once per page view (and keeps the answer a minute).
 */
@Controller('internal/previews')
export class PreviewsController {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /**
   * A shop by subdomain, id, or store name (/tienda/{name}); its logo, else its newest product image;
   * and its first screen: the first cards of the public list (same filter and order as its first
   * page), the list's total (the projection's counters) and whether it has categories (the filter shows).
   */
  @Get('stores/:store')
  async store(@Param('store') store: string): Promise<LinkPreview> {
    const r = await this.pool.query<StoreRow & { image: string | null; total: number; has_categories: boolean; cards: FirstScreenCard[] }>({
      name: `catalog_preview_store_${isUuid(store) ? 'id' : 'sub'}`,
      text: `SELECT ${STORE_FIELDS},
                    COALESCE(s.logo_url, (SELECT p.images[1] FROM catalog.products p WHERE p.store_id = s.id AND p.is_active AND cardinality(p.images) > 0
                                          ORDER BY p.created_at DESC, p.id DESC LIMIT 1)) AS image,
                    (SELECT COALESCE(sum(c.active), 0)::int FROM catalog.product_counts c WHERE c.store_id = s.id) AS total,
                    EXISTS (SELECT 1 FROM catalog.categories c WHERE c.store_id = s.id) AS has_categories,
                    COALESCE((SELECT json_agg(json_build_object('id', f.id, 'name', f.name, 'price', ${quetzalesSql('f.price_centavos')},
                                                                'finalPrice', ${quetzalesSql('f.final_price_centavos')}, 'discountPercentage', f.discount_percentage,
                                                                'stock', f.stock, 'imageUrl', f.images[1]) ORDER BY f.created_at DESC, f.id DESC)
                              FROM (SELECT p.id, p.name, p.price_centavos, p.final_price_centavos, p.discount_percentage, p.stock, p.images, p.created_at
                                    FROM catalog.products p WHERE p.store_id = s.id AND p.is_active
                                    ORDER BY p.created_at DESC, p.id DESC LIMIT ${FIRST_SCREEN_CARDS}) f), '[]'::json) AS cards
             FROM catalog.stores s
             WHERE s.is_active AND ${isUuid(store) ? 's.id = $1::text::uuid' : '(s.subdomain = lower($1) OR lower(s.name) = lower($1))'}
             ORDER BY (s.subdomain = lower($1::text)) DESC LIMIT 1`,
      values: [store],
    });
    const s = r.rows[0];
    if (!s) throw new NotFoundError(CatalogMessages.storeNotFound);
    const cards = s.cards.map((c) => ({ ...c, price: Number(c.price), finalPrice: Number(c.finalPrice), discountPercentage: Number(c.discountPercentage) }));
    const cardImages = cards
      .slice(0, PRIORITY_CARD_IMAGES)
      .map((c) => c.imageUrl)
      .filter((x): x is string => typeof x === 'string' && x.length > 0);
    return {
      title: s.name,
      description: s.description,
      image: s.image,
      type: 'website',
      storeName: s.name,
      storeSubdomain: s.subdomain,
      cardImages,
      firstScreen: { page: 'store', store: firstScreenStore(s), total: s.total, hasCategories: s.has_categories, cards },
    };
  }

  /** A product with its store: the preview, and the product page's first screen (main picture, name, prices, stock, rating). */
  @Get('products/:productId')
  async product(@Param('productId') productId: string): Promise<LinkPreview> {
    if (!isUuid(productId)) throw new NotFoundError(CatalogMessages.productNotFound);
    const r = await this.pool.query<
      StoreRow & {
        id: string;
        product_name: string;
        product_description: string | null;
        sku: string | null;
        category_name: string | null;
        images: string[] | null;
        stock: number;
        price: string;
        final_price: string;
        discount: string;
        average_rating: string;
        total_ratings: number;
      }
    >({
      name: 'catalog_preview_product',
      text: `SELECT p.id, p.name AS product_name, p.description AS product_description, p.sku, p.category_name, p.images, p.stock,
                    ${quetzalesSql('p.price_centavos')} AS price, ${quetzalesSql('p.final_price_centavos')} AS final_price, p.discount_percentage AS discount,
                    CASE WHEN p.rating_count > 0 THEN round(p.rating_sum::numeric / p.rating_count, 1) ELSE 0 END AS average_rating, p.rating_count AS total_ratings,
                    ${STORE_FIELDS}
             FROM catalog.products p JOIN catalog.stores s ON s.id = p.store_id
             WHERE p.id = $1 AND p.is_active AND s.is_active`,
      values: [productId],
    });
    const p = r.rows[0];
    if (!p) throw new NotFoundError(CatalogMessages.productNotFound);
    // As the product's details list them (the page shows these, in this order).
    const images = p.images ?? [];
    const price = Number(p.price);
    const finalPrice = Number(p.final_price);
    const discountPercentage = Number(p.discount);
    return {
      title: p.product_name,
      description: p.product_description,
      image: images[0] ?? null,
      type: 'product',
      storeName: p.name,
      storeSubdomain: p.subdomain,
      price,
      finalPrice,
      discountPercentage,
      firstScreen: {
        page: 'product',
        store: firstScreenStore(p),
        product: {
          id: p.id,
          name: p.product_name,
          description: p.product_description,
          sku: p.sku,
          categoryName: p.category_name,
          price,
          finalPrice,
          discountPercentage,
          stock: p.stock,
          images,
          averageRating: Number(p.average_rating),
          totalRatings: p.total_ratings,
        },
      },
    };
  }
}
