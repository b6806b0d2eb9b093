import { useMutation, useQueryClient } from '@tanstack/react-query';
import { productKeys } from '../../products/api/keys';
import { invalidateSalesFigures } from '../../reports/api/reports-api';
import { orderKeys } from './keys';
import type { CreatePosOrderRequest, OrderView } from './types';

/**
 * POST /api/orders (a POS sale) with an Idempotency-Key: the same key answers the same order, so a
 * double tap or a retry after a lost answer makes one sale.
 */
export async function createPosOrder(body: CreatePosOrderRequest, idempotencyKey: string): Promise<OrderView> {
  const res = await fetch('/api/orders', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    body: JSON.stringify(body),
    credentials: 'include',
  });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return (await res.json()) as OrderView;
}

export function useCreatePosOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreatePosOrderRequest; idempotencyKey: string }) => createPosOrder(body, idempotencyKey),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: productKeys.all });
      void invalidateSalesFigures(queryClient);
    },
  });
}
