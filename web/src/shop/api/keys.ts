/** Query keys of the public shop; where joined by '/' they are the GET paths (spec 000 §7). */
export interface ProductFilters {
  search: string;
  categoryId: string;
}

const enc = encodeURIComponent;

export const shopKeys = {
  all: ['/api/public'] as const,
  store: (store: string) => ['/api/public/store', enc(store)] as const,
  categories: (store: string) => ['/api/public/categories', enc(store)] as const,
  products: (store: string, filters: ProductFilters) => ['/api/public/products', enc(store), filters] as const,
  productDetails: (productId: string) => ['/api/public/products', enc(productId), 'details'] as const,
  similar: (store: string, search: string) => ['/api/ai/enhance-search', enc(store), search] as const,
};
