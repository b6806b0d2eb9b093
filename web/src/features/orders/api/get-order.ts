import { useQuery } from '@tanstack/react-query';
import { orderKeys } from './keys';
import type { OrderView } from './types';

/** GET /api/orders/{id} (the default query function GETs the key joined by '/'). */
export function useOrder(id: string | null) {
  return useQuery<OrderView>({ queryKey: orderKeys.detail(id ?? ''), enabled: id !== null, staleTime: 5_000 });
}
