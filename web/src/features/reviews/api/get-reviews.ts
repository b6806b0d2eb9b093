import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingReview } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { reviewKeys, type ReviewStatus } from './keys';

/** GET /api/products/reviews?status=pending|approved|rejected: ratings and comments, newest first. */
export async function getReviews(status: ReviewStatus, signal?: AbortSignal): Promise<PendingReview[]> {
  return apiJson<PendingReview[]>('GET', `/api/products/reviews?status=${status}`, { signal });
}

export const reviewsQueryOptions = (status: ReviewStatus) =>
  queryOptions({ queryKey: reviewKeys.list(status), queryFn: ({ signal }) => getReviews(status, signal), staleTime: 30_000 });

export function useReviews(status: ReviewStatus) {
  return useQuery(reviewsQueryOptions(status));
}
