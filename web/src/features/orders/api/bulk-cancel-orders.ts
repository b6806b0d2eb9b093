import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../lib/api';
import { invalidateSalesFigures } from '../../reports/api/reports-api';
import { orderKeys } from './keys';

/** One order of a bulk cancellation: cancelled, or the server's reason. */
export interface BulkCancelResult {
  orderId: string;
  ok: boolean;
  message: string | null;
}

/** POST /api/orders/bulk-cancel `{ orderIds }` (1 to 100): each pending order cancelled, its stock released. */
export async function bulkCancelOrders(orderIds: string[]): Promise<{ results: BulkCancelResult[]; cancelled: number }> {
  const res = await apiFetch('POST', '/api/orders/bulk-cancel', { json: { orderIds } });
  return (await res.json()) as { results: BulkCancelResult[]; cancelled: number };
}

export function useBulkCancelOrders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: bulkCancelOrders,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: orderKeys.all }), invalidateSalesFigures(queryClient)]),
  });
}
