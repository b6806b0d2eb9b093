import { CatalogMessages } from '@tiendita/contracts';
import { NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { reviewDecider, type ReviewEvent, type SubmitComment, type SubmitRating } from './review.decider';

const spec = deciderSpec(reviewDecider);
const reviewId = '11111111-1111-4111-8111-111111111111';
const productId = '22222222-2222-4222-8222-222222222222';
const storeId = '33333333-3333-4333-8333-333333333333';
const owner = '44444444-4444-4444-8444-444444444444';

const rate: SubmitRating = { type: 'SubmitRating', reviewId, productId, storeId, rating: 4, comment: 'Muy rico', customerName: ' Ana ', customerEmail: null };
const rated: ReviewEvent = {
  type: 'RatingSubmitted',
  data: { ratingId: reviewId, productId, storeId, rating: 4, comment: 'Muy rico', customerName: 'Ana', customerEmail: null },
};
const commentCmd: SubmitComment = {
  type: 'SubmitComment',
  reviewId,
  productId,
  storeId,
  comment: '¿Tienen en 2 lb?',
  customerName: 'Luis',
  customerEmail: 'luis@example.com',
  parentCommentId: null,
};
const approved: ReviewEvent = { type: 'ReviewApproved', data: { reviewId, kind: 'rating', productId, storeId, moderatedBy: owner } };
const rejected: ReviewEvent = { type: 'ReviewRejected', data: { reviewId, kind: 'rating', productId, storeId, moderatedBy: owner } };

describe('Review decider', () => {
  it('a rating is submitted (unapproved until the owner decides)', () => {
    spec.given([]).when(rate).then([rated]);
  });
  it('a rating needs a name: Por favor ingresa tu nombre.', () => {
    spec.given([]).when({ ...rate, customerName: ' ' }).thenThrows(ValidationError, 'Por favor ingresa tu nombre.');
  });
  it('stars go from 1 to 5', () => {
    spec.given([]).when({ ...rate, rating: 0 }).thenThrows(ValidationError, CatalogMessages.ratingRange);
    spec.given([]).when({ ...rate, rating: 6 }).thenThrows(ValidationError, CatalogMessages.ratingRange);
    expect(spec.given([]).when({ ...rate, rating: 1 }).events()).toHaveLength(1);
  });
  it('a comment needs a name and a text: Por favor completa tu nombre y comentario.', () => {
    expect(spec.given([]).when(commentCmd).events()).toEqual([
      { type: 'CommentSubmitted', data: { commentId: reviewId, productId, storeId, comment: '¿Tienen en 2 lb?', customerName: 'Luis', customerEmail: 'luis@example.com', parentCommentId: null } },
    ]);
    spec.given([]).when({ ...commentCmd, comment: '  ' }).thenThrows(ValidationError, 'Por favor completa tu nombre y comentario.');
    spec.given([]).when({ ...commentCmd, customerName: '' }).thenThrows(ValidationError, 'Por favor completa tu nombre y comentario.');
  });
  it('the owner approves a pending review', () => {
    spec.given([rated]).when({ type: 'ApproveReview', reviewId, storeId, actor: owner }).then([approved]);
  });
  it('the owner rejects a pending review', () => {
    spec.given([rated]).when({ type: 'RejectReview', reviewId, storeId, actor: owner }).then([rejected]);
  });
  it('repeating a decision is a no-op; changing it is allowed', () => {
    spec.given([rated, approved]).when({ type: 'ApproveReview', reviewId, storeId, actor: owner }).then([]);
    spec.given([rated, approved]).when({ type: 'RejectReview', reviewId, storeId, actor: owner }).then([rejected]);
  });
  it("another store's review, or an unknown one, is not found", () => {
    spec.given([rated]).when({ type: 'ApproveReview', reviewId, storeId: owner, actor: owner }).thenThrows(NotFoundError, CatalogMessages.reviewNotFound);
    spec.given([]).when({ type: 'RejectReview', reviewId, storeId, actor: owner }).thenThrows(NotFoundError, CatalogMessages.reviewNotFound);
  });
});
