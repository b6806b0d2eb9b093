import type { PendingReview } from '@tiendita/contracts';

export type ReviewStatus = PendingReview['status'];

/** Query keys of the moderation feature; joined by '/' the list key is its GET path for pending ones. */
export const reviewKeys = {
  all: ['/api/products/reviews'] as const,
  list: (status: ReviewStatus) => ['/api/products/reviews', status] as const,
};
