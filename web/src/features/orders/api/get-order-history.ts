import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { orderKeys } from './keys';
import type { OrderHistoryEntry } from './types';

/** GET /api/orders/{id}/history: the order's status changes, oldest first, each with its author's name. */
export function getOrderHistory(id: string, signal?: AbortSignal): Promise<OrderHistoryEntry[]> {
  return apiJson<OrderHistoryEntry[]>('GET', `/api/orders/${encodeURIComponent(id)}/history`, { signal });
}

export const orderHistoryQueryOptions = (id: string) =>
  queryOptions({ queryKey: orderKeys.history(id), queryFn: ({ signal }) => getOrderHistory(id, signal), staleTime: 0 });

export function useOrderHistory(id: string | null) {
  return useQuery({ ...orderHistoryQueryOptions(id ?? ''), enabled: id !== null });
}
