import type { ProductListQuery } from '@tiendita/contracts';

/** The list query as the products page builds it (every field optional, as the API defaults them). */
export type ProductListParams = Partial<ProductListQuery>;

/** Query keys of the products feature; where joined by '/' they are the GET paths (spec 000 §7). */
export const productKeys = {
  all: ['/api/products'] as const,
  list: (params: ProductListParams) => ['/api/products', 'list', params] as const,
  priceHistory: (productId: string) => ['/api/products', productId, 'price-history'] as const,
};

export const categoryKeys = {
  all: ['/api/categories'] as const,
};
