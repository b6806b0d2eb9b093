import { type EventContext, parseCatalog } from './context';

/**
 * ReviewApproved / ReviewRejected: the review's status. The product's rating totals follow the
 * approved ratings only: +1 on approval, −1 when an approved one is rejected.
 */
export async function onReviewModerated({ tx, t, event }: EventContext): Promise<void> {
  const type = event.type as 'ReviewApproved' | 'ReviewRejected';
  const d = parseCatalog(type, event.data);
  const status = type === 'ReviewApproved' ? 'approved' : 'rejected';
  const r = await tx.query<{ rating: number | null; was_approved: boolean }>(
    `WITH old AS (SELECT id, status FROM ${t.reviews} WHERE id = $1 FOR UPDATE)
     UPDATE ${t.reviews} rv SET status = $2, updated_at = $3 FROM old
     WHERE rv.id = old.id AND old.status <> $2
     RETURNING rv.rating, old.status = 'approved' AS was_approved`,
    [d.reviewId, status, event.metadata.occurredAt],
  );
  const row = r.rows[0];
  if (!row || row.rating === null) return;
  const sign = status === 'approved' ? 1 : row.was_approved ? -1 : 0;
  if (sign === 0) return;
  await tx.query(`UPDATE ${t.products} SET rating_sum = rating_sum + $2, rating_count = rating_count + $3 WHERE id = $1`, [d.productId, sign * row.rating, sign]);
}
