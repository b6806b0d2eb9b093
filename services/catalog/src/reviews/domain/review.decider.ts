import { CatalogMessages, type CommentSubmitted, type RatingSubmitted, type ReviewModerated } from '@tiendita/contracts';
import { assertNever, type Decider, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';

/** Events of a Review (a rating or a comment awaiting moderation), stream `review-<id>`. */
export type ReviewEvent =
  | { type: 'RatingSubmitted'; data: RatingSubmitted }
  | { type: 'CommentSubmitted'; data: CommentSubmitted }
  | { type: 'ReviewApproved'; data: ReviewModerated }
  | { type: 'ReviewRejected'; data: ReviewModerated };

export type ReviewKind = 'rating' | 'comment';
export type ReviewStatus = 'pending' | 'approved' | 'rejected';

export type ReviewState =
  | { status: 'none' }
  | { status: ReviewStatus; reviewId: string; kind: ReviewKind; productId: string; storeId: string };

export interface SubmitRating {
  type: 'SubmitRating';
  reviewId: string;
  productId: string;
  storeId: string;
  rating: number;
  comment: string | null;
  customerName: string;
  customerEmail: string | null;
}

export interface SubmitComment {
  type: 'SubmitComment';
  reviewId: string;
  productId: string;
  storeId: string;
  comment: string;
  customerName: string;
  customerEmail: string | null;
  parentCommentId: string | null;
}

export interface ModerateReview {
  type: 'ApproveReview' | 'RejectReview';
  reviewId: string;
  storeId: string;
  actor: string;
}

export type ReviewCommand = SubmitRating | SubmitComment | ModerateReview;

export const reviewStreamId = (reviewId: string): string => `review-${reviewId}`;

export function evolveReview(state: ReviewState, event: ReviewEvent): ReviewState {
  switch (event.type) {
    case 'RatingSubmitted':
      if (state.status !== 'none') return state;
      return { status: 'pending', reviewId: event.data.ratingId, kind: 'rating', productId: event.data.productId, storeId: event.data.storeId };
    case 'CommentSubmitted':
      if (state.status !== 'none') return state;
      return { status: 'pending', reviewId: event.data.commentId, kind: 'comment', productId: event.data.productId, storeId: event.data.storeId };
    case 'ReviewApproved':
      return state.status === 'none' ? state : { ...state, status: 'approved' };
    case 'ReviewRejected':
      return state.status === 'none' ? state : { ...state, status: 'rejected' };
    default:
      return state;
  }
}

function decideSubmitRating(command: SubmitRating, state: ReviewState): ReviewEvent[] {
  if (state.status !== 'none') throw new IllegalStateError('La reseña ya fue enviada');
  const customerName = command.customerName.trim();
  if (!customerName) throw new ValidationError(CatalogMessages.ratingNameRequired, { fields: { customerName: CatalogMessages.ratingNameRequired } });
  if (!Number.isInteger(command.rating) || command.rating < 1 || command.rating > 5) {
    throw new ValidationError(CatalogMessages.ratingRange, { fields: { rating: CatalogMessages.ratingRange } });
  }
  return [
    {
      type: 'RatingSubmitted',
      data: {
        ratingId: command.reviewId,
        productId: command.productId,
        storeId: command.storeId,
        rating: command.rating,
        comment: command.comment,
        customerName,
        customerEmail: command.customerEmail,
      },
    },
  ];
}

function decideSubmitComment(command: SubmitComment, state: ReviewState): ReviewEvent[] {
  if (state.status !== 'none') throw new IllegalStateError('El comentario ya fue enviado');
  const customerName = command.customerName.trim();
  const comment = command.comment.trim();
  if (!customerName || !comment) {
    throw new ValidationError(CatalogMessages.commentRequired, { fields: { [customerName ? 'comment' : 'customerName']: CatalogMessages.commentRequired } });
  }
  return [
    {
      type: 'CommentSubmitted',
      data: {
        commentId: command.reviewId,
        productId: command.productId,
        storeId: command.storeId,
        comment,
        customerName,
        customerEmail: command.customerEmail,
        parentCommentId: command.parentCommentId,
      },
    },
  ];
}

/**
 * Approve or reject; the owner may change their mind, and repeating a decision is a no-op.
 * Another store's review is not found.
 */
function decideModerate(command: ModerateReview, state: ReviewState): ReviewEvent[] {
  if (state.status === 'none' || state.storeId !== command.storeId) throw new NotFoundError(CatalogMessages.reviewNotFound);
  const target: ReviewStatus = command.type === 'ApproveReview' ? 'approved' : 'rejected';
  if (state.status === target) return [];
  const data: ReviewModerated = { reviewId: state.reviewId, kind: state.kind, productId: state.productId, storeId: state.storeId, moderatedBy: command.actor };
  return [{ type: command.type === 'ApproveReview' ? 'ReviewApproved' : 'ReviewRejected', data }];
}

export function decideReview(command: ReviewCommand, state: ReviewState): ReviewEvent[] {
  switch (command.type) {
    case 'SubmitRating':
      return decideSubmitRating(command, state);
    case 'SubmitComment':
      return decideSubmitComment(command, state);
    case 'ApproveReview':
    case 'RejectReview':
      return decideModerate(command, state);
    default:
      return assertNever(command);
  }
}

/** Ratings and comments: submitted unapproved, then approved or rejected by the owner. */
export const reviewDecider: Decider<ReviewState, ReviewCommand, ReviewEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveReview,
  decide: decideReview,
};
