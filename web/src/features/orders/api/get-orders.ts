import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { orderKeys } from './keys';
import type { OrderListParams, OrderListResponse } from './types';

/** GET /api/orders?search&status&paymentStatus&orderType&startDate&endDate&page&limit&sortBy&sortOrder. */
export async function getOrders(params: OrderListParams, signal?: AbortSignal): Promise<OrderListResponse> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  const res = await fetch(`/api/orders?${query}`, { credentials: 'include', signal });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return (await res.json()) as OrderListResponse;
}

export const ordersQueryOptions = (params: OrderListParams) =>
  queryOptions({
    queryKey: orderKeys.list(params),
    queryFn: ({ signal }) => getOrders(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export function useOrders(params: OrderListParams) {
  return useQuery(ordersQueryOptions(params));
}
