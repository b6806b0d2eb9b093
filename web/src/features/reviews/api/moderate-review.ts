import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PendingReview } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { reviewKeys } from './keys';

export type ReviewDecision = 'approve' | 'reject';

/** POST /api/products/reviews/{id}/approve or /reject: publishes a rating or comment, or keeps it hidden. */
export async function moderateReview(id: string, decision: ReviewDecision): Promise<PendingReview> {
  const res = await apiRequest('POST', `/api/products/reviews/${encodeURIComponent(id)}/${decision}`);
  return (await res.json()) as PendingReview;
}

export function useModerateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: string; decision: ReviewDecision }) => moderateReview(id, decision),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reviewKeys.all }),
  });
}
