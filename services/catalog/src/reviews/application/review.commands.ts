import { Command, Query } from '@nestjs/cqrs';
import type { PendingReview, SubmitCommentRequest, SubmitRatingRequest } from '@tiendita/contracts';
import type { OwnerIdentity } from '@tiendita/service-kit';

export interface SubmittedReview {
  id: string;
  message: string;
  status: 'pending';
}

/** POST /api/public/products/{productId}/ratings (anonymous shopper). */
export class SubmitRatingCommand extends Command<SubmittedReview> {
  constructor(
    readonly productId: string,
    readonly body: SubmitRatingRequest,
    readonly clientIp: string,
  ) {
    super();
  }
}

/** POST /api/public/products/{productId}/comments (anonymous shopper). */
export class SubmitCommentCommand extends Command<SubmittedReview> {
  constructor(
    readonly productId: string,
    readonly body: SubmitCommentRequest,
    readonly clientIp: string,
  ) {
    super();
  }
}

/** POST /api/products/reviews/{id}/approve|reject (owner moderation). */
export class ModerateReviewCommand extends Command<PendingReview> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly reviewId: string,
    readonly decision: 'approve' | 'reject',
  ) {
    super();
  }
}

/** GET /api/products/reviews?status=pending|approved|rejected (owner moderation view). */
export class ListReviewsQuery extends Query<PendingReview[]> {
  constructor(
    readonly storeId: string,
    readonly status: PendingReview['status'],
  ) {
    super();
  }
}
