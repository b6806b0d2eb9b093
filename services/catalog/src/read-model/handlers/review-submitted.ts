import { type EventContext, parseCatalog } from './context';

/** RatingSubmitted: a pending rating (it counts in the product's average only once approved). */
export async function onRatingSubmitted({ tx, t, event }: EventContext): Promise<void> {
  const d = parseCatalog('RatingSubmitted', event.data);
  await tx.query(
    `INSERT INTO ${t.reviews} (id, kind, product_id, store_id, rating, comment, customer_name, customer_email, created_at, updated_at)
     VALUES ($1, 'rating', $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING`,
    [d.ratingId, d.productId, d.storeId, d.rating, d.comment, d.customerName, d.customerEmail, event.metadata.occurredAt],
  );
}

/** CommentSubmitted: a pending comment, possibly a reply (parent_comment_id). */
export async function onCommentSubmitted({ tx, t, event }: EventContext): Promise<void> {
  const d = parseCatalog('CommentSubmitted', event.data);
  await tx.query(
    `INSERT INTO ${t.reviews} (id, kind, product_id, store_id, comment, customer_name, customer_email, parent_comment_id, created_at, updated_at)
     VALUES ($1, 'comment', $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING`,
    [d.commentId, d.productId, d.storeId, d.comment, d.customerName, d.customerEmail, d.parentCommentId, event.metadata.occurredAt],
  );
}
