import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import type { SubmitCommentRequest } from '../lib/contracts';
import { shopKeys } from './keys';

/** POST /api/public/products/{productId}/comments: the comment waits for the owner's approval. */
export async function submitComment(productId: string, body: SubmitCommentRequest): Promise<void> {
  await apiRequest('POST', `/api/public/products/${encodeURIComponent(productId)}/comments`, body);
}

export function useSubmitComment(productId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SubmitCommentRequest) => submitComment(productId, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopKeys.productDetails(productId) }),
  });
}
