import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PosOrderRequest } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { productKeys } from '../../products/api/keys';
import { invalidateSalesFigures } from '../../reports/api/reports-api';
import { orderKeys } from './keys';
import type { OrderView } from './types';

/**
 * POST /api/orders (a POS sale) with an Idempotency-Key: the same key answers the same order, so a
 * double tap or a retry after a lost answer makes one sale.
 */
export function createPosOrder(body: PosOrderRequest, idempotencyKey: string): Promise<OrderView> {
  return apiJson<OrderView>('POST', '/api/orders', { json: body, headers: { 'Idempotency-Key': idempotencyKey } });
}

export function useCreatePosOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: PosOrderRequest; idempotencyKey: string }) => createPosOrder(body, idempotencyKey),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: productKeys.all });
      void invalidateSalesFigures(queryClient);
    },
    // A sale refused for stock ('Sin Stock: …'): the grid shows what is really left.
    onError: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
