import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingReview } from '@tiendita/contracts';
import { reviewKeys, type ReviewStatus } from './keys';

/** GET /api/products/reviews?status=pending|approved|rejected: ratings and comments, newest first. */
export async function getReviews(status: ReviewStatus, signal?: AbortSignal): Promise<PendingReview[]> {
  const res = await fetch(`/api/products/reviews?status=${status}`, { credentials: 'include', signal });
  if (!res.ok) throw new Error(`${res.status}: ${(await res.text()) || res.statusText}`);
  return (await res.json()) as PendingReview[];
}

export const reviewsQueryOptions = (status: ReviewStatus) =>
  queryOptions({ queryKey: reviewKeys.list(status), queryFn: ({ signal }) => getReviews(status, signal), staleTime: 30_000 });

export function useReviews(status: ReviewStatus) {
  return useQuery(reviewsQueryOptions(status));
}
