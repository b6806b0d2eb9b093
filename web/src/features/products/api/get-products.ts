import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductListResponse } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { productKeys, type ProductListParams } from './keys';

/** GET /api/products?sortBy&sortOrder&page&limit&search&categoryId&isActive&lowStock. */
export async function getProducts(params: ProductListParams, signal?: AbortSignal): Promise<ProductListResponse> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  return apiJson<ProductListResponse>('GET', `/api/products?${query}`, { signal });
}

export const productsQueryOptions = (params: ProductListParams) =>
  queryOptions({
    queryKey: productKeys.list(params),
    queryFn: ({ signal }) => getProducts(params, signal),
    placeholderData: keepPreviousData,
  });

export function useProducts(params: ProductListParams) {
  return useQuery(productsQueryOptions(params));
}
