import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { PublicProductListResponse } from '../lib/contracts';
import { apiJson } from '../../lib/api';
import { shopKeys, type ProductFilters } from './keys';

/** Products per page: one screenful or two on a phone, so the first answer stays small. */
export const SHOP_PAGE_SIZE = 24;

/** GET /api/public/products/{store}?page&limit&search&categoryId: one page of the store's active products. */
/** The URL of one page (public/shop-boot.js asks for the first one with this same URL). */
export function publicProductsUrl(store: string, filters: ProductFilters, page: number): string {
  const query = new URLSearchParams({ page: String(page), limit: String(SHOP_PAGE_SIZE) });
  if (filters.search) query.set('search', filters.search);
  if (filters.categoryId) query.set('categoryId', filters.categoryId);
  return `/api/public/products/${encodeURIComponent(store)}?${query}`;
}

export async function getPublicProducts(
  store: string,
  filters: ProductFilters,
  page: number,
  signal?: AbortSignal,
): Promise<PublicProductListResponse> {
  return apiJson<PublicProductListResponse>('GET', publicProductsUrl(store, filters, page), { signal });
}

export const publicProductsQueryOptions = (store: string, filters: ProductFilters) =>
  infiniteQueryOptions({
    queryKey: shopKeys.products(store, filters),
    queryFn: ({ pageParam, signal }) => getPublicProducts(store, filters, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.currentPage < last.totalPages ? last.currentPage + 1 : undefined),
  });

/** The store's products, a page at a time ('Cargar más' asks for the next one). */
export function usePublicProducts(store: string, filters: ProductFilters) {
  return useInfiniteQuery(publicProductsQueryOptions(store, filters));
}
