import { useState } from 'react';
import { Stars } from '../components/stars';
import { formatShortDate } from '../lib/format';
import type { PublicProductDetails } from '../lib/contracts';
import { RatingForm } from './rating-form';
import { CommentForm } from './comment-form';

type Tab = 'ratings' | 'comments';

/** The approved ratings and comments of a product, each with its form (new ones wait for approval). */
export function ReviewsPanel({
  productId,
  details,
  loading,
  failed,
  variant,
}: {
  productId: string;
  details: PublicProductDetails | undefined;
  loading: boolean;
  failed: boolean;
  variant: 'page' | 'dialog';
}) {
  const [tab, setTab] = useState<Tab>('ratings');
  const ratings = details?.ratings ?? [];
  const comments = details?.comments ?? [];

  return (
    <section className="shop-reviews" aria-label="Calificaciones y comentarios">
      <div className="shop-tabs" role="tablist">
        <button type="button" role="tab" id={`tab-ratings-${productId}`} aria-selected={tab === 'ratings'} aria-controls={`panel-ratings-${productId}`} onClick={() => setTab('ratings')}>
          Calificaciones ({details?.totalRatings ?? ratings.length})
        </button>
        <button type="button" role="tab" id={`tab-comments-${productId}`} aria-selected={tab === 'comments'} aria-controls={`panel-comments-${productId}`} onClick={() => setTab('comments')}>
          Comentarios ({comments.length})
        </button>
      </div>

      {tab === 'ratings' ? (
        <div role="tabpanel" id={`panel-ratings-${productId}`} aria-labelledby={`tab-ratings-${productId}`}>
          <ReviewList loading={loading} failed={failed} empty="Aún no hay calificaciones. ¡Sé el primero en calificar!">
            {ratings.map((r) => (
              <li key={r.id} className="shop-review">
                <div className="shop-review__head">
                  <strong>{r.customerName}</strong>
                  <Stars value={r.rating} size={14} />
                  <time dateTime={r.createdAt}>{formatShortDate(r.createdAt)}</time>
                </div>
                {r.comment && <p>{r.comment}</p>}
              </li>
            ))}
          </ReviewList>
          <RatingForm productId={productId} variant={variant} />
        </div>
      ) : (
        <div role="tabpanel" id={`panel-comments-${productId}`} aria-labelledby={`tab-comments-${productId}`}>
          <ReviewList loading={loading} failed={failed} empty="Aún no hay comentarios.">
            {comments.map((c) => (
              <li key={c.id} className={`shop-review${c.parentCommentId ? ' shop-review--reply' : ''}`}>
                <div className="shop-review__head">
                  <strong>{c.customerName}</strong>
                  <time dateTime={c.createdAt}>{formatShortDate(c.createdAt)}</time>
                </div>
                <p>{c.comment}</p>
              </li>
            ))}
          </ReviewList>
          <CommentForm productId={productId} variant={variant} />
        </div>
      )}
    </section>
  );
}

function ReviewList({ loading, failed, empty, children }: { loading: boolean; failed: boolean; empty: string; children: React.ReactNode[] }) {
  if (loading) return <p className="shop-muted">Cargando…</p>;
  if (failed) return <p className="shop-muted">No se pudieron cargar las reseñas.</p>;
  if (children.length === 0) return <p className="shop-muted">{empty}</p>;
  return <ul className="shop-review-list">{children}</ul>;
}
