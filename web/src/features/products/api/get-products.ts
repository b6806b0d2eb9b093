import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ProductListResponse } from '@tiendita/contracts';
import { productKeys, type ProductListParams } from './keys';

/** GET /api/products?sortBy&sortOrder&page&limit&search&categoryId&isActive&lowStock. */
export async function getProducts(params: ProductListParams, signal?: AbortSignal): Promise<ProductListResponse> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const res = await fetch(`/api/products?${query}`, { credentials: 'include', signal });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return (await res.json()) as ProductListResponse;
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
