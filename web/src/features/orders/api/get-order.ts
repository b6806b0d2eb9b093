import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiJson } from '../../../lib/api';
import { orderKeys } from './keys';
import { keepNewerOrders } from './order-cache';
import type { OrderView } from './types';

/** GET /api/orders/{id}: the order with its lines, payments, refunds and balance due. */
export function getOrder(id: string, signal?: AbortSignal): Promise<OrderView> {
  return apiJson<OrderView>('GET', `/api/orders/${encodeURIComponent(id)}`, { signal });
}

export const orderQueryOptions = (id: string) => queryOptions({ queryKey: orderKeys.detail(id), queryFn: ({ signal }) => getOrder(id, signal), staleTime: 5_000, structuralSharing: keepNewerOrders });

/** The order while `id` is set (a dialog that is open). */
export function useOrder(id: string | null) {
  return useQuery({ ...orderQueryOptions(id ?? ''), enabled: id !== null });
}
