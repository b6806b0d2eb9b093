import { useQuery } from '@tanstack/react-query';
import { getOrders } from './get-orders';
import { orderKeys } from './keys';
import { keepNewerOrders } from './order-cache';
import type { OrderListParams } from './get-orders';

/** The bell's orders: the oldest five waiting for confirmation, and how many wait (one indexed page of the list). */
const PENDING: OrderListParams = { status: 'pending', page: 1, limit: 5, sortBy: 'createdAt', sortOrder: 'asc' };

/** GET /api/orders?status=pending&limit=5, polled every minute and on focus (under orderKeys.all: a status change refreshes it). */
export function usePendingOrders() {
  return useQuery({
    queryKey: orderKeys.list(PENDING),
    queryFn: ({ signal }) => getOrders(PENDING, signal),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    staleTime: 30_000,
    structuralSharing: keepNewerOrders,
  });
}
