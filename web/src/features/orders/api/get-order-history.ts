import { useQuery } from '@tanstack/react-query';
import { orderKeys } from './keys';
import type { OrderHistoryEntry } from './types';

/** GET /api/orders/{id}/history: the order's status changes, oldest first. */
export function useOrderHistory(id: string | null) {
  return useQuery<OrderHistoryEntry[]>({ queryKey: orderKeys.history(id ?? ''), enabled: id !== null, staleTime: 0 });
}
