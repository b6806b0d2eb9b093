import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import type { SubmitRatingRequest } from '../lib/contracts';
import { shopKeys } from './keys';

/** POST /api/public/products/{productId}/ratings: the rating waits for the owner's approval. */
export async function submitRating(productId: string, body: SubmitRatingRequest): Promise<void> {
  await apiRequest('POST', `/api/public/products/${encodeURIComponent(productId)}/ratings`, body);
}

export function useSubmitRating(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitRatingRequest) => submitRating(productId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopKeys.productDetails(productId) }),
  });
}
