import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/query-client';
import { invalidateSalesFigures } from '../../reports/api/reports-api';
import { orderKeys } from './keys';
import type { OrderStatus, OrderView } from './types';

/** PUT /api/orders/{id}/status `{ status, notes }`. */
export async function updateOrderStatus(id: string, status: OrderStatus, notes: string): Promise<OrderView | null> {
  const res = await apiRequest('PUT', `/api/orders/${encodeURIComponent(id)}/status`, { status, notes: notes.trim() || undefined });
  const text = await res.text();
  return text ? (JSON.parse(text) as OrderView) : null;
}

export function useUpdateOrderStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status, notes }: { id: string; status: OrderStatus; notes: string }) => updateOrderStatus(id, status, notes),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: orderKeys.all }), invalidateSalesFigures(queryClient)]),
  });
}
