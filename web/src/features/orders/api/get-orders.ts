import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListOrdersQuery } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { orderKeys } from './keys';
import { keepNewerOrders } from './order-cache';
import type { OrderListResponse } from './types';

/** GET /api/orders query as the screens build it (contracts' ListOrdersQuery, filters left out when unset; dates are days in America/Guatemala). */
export type OrderListParams = Partial<ListOrdersQuery> & Pick<ListOrdersQuery, 'page' | 'limit' | 'sortBy' | 'sortOrder'>;
export type OrderSortBy = ListOrdersQuery['sortBy'];

/** GET /api/orders?search&status&paymentStatus&orderType&startDate&endDate&page&limit&sortBy&sortOrder. */
export async function getOrders(params: OrderListParams, signal?: AbortSignal): Promise<OrderListResponse> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') query.set(name, String(value));
  }
  return apiJson<OrderListResponse>('GET', `/api/orders?${query}`, { signal });
}

export const ordersQueryOptions = (params: OrderListParams) =>
  queryOptions({
    queryKey: orderKeys.list(params),
    queryFn: ({ signal }) => getOrders(params, signal),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    structuralSharing: keepNewerOrders,
  });

export function useOrders(params: OrderListParams) {
  return useQuery(ordersQueryOptions(params));
}
