import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Badge, Button, Card, Empty, Rate, Segmented, Skeleton, Space, Tag, Typography } from 'antd';
import { ArrowLeftOutlined, CheckOutlined, CloseOutlined, CommentOutlined, StarOutlined } from '@ant-design/icons';
import type { PendingReview } from '@tiendita/contracts';
import { toast } from '../../../components/toast/toast-store';
import { serverMessageOr } from '../../../lib/api';
import { formatDateTime } from '../../../lib/format';
import { useReviews } from '../api/get-reviews';
import type { ReviewStatus } from '../api/keys';
import { useModerateReview, type ReviewDecision } from '../api/moderate-review';
import '../reviews.css';

type KindFilter = 'all' | PendingReview['kind'];

const STATUS_LABELS: Record<ReviewStatus, string> = { pending: 'Pendientes', approved: 'Aprobadas', rejected: 'Rechazadas' };

/** Texts of the moderation view (the spec shows none: issue 5 builds it). */
export const ReviewMessages = {
  approved: 'Reseña aprobada',
  approvedHint: 'Ya es visible en tu tienda.',
  rejected: 'Reseña rechazada',
  rejectedHint: 'No se mostrará en tu tienda.',
  failed: 'No se pudo actualizar la reseña.',
} as const;

/**
 * The owner's moderation of ratings and comments: shoppers' reviews wait here, hidden from the shop,
 * until they are approved; a decision can be changed later.
 */
export function ReviewsPage() {
  const [status, setStatus] = useState<ReviewStatus>('pending');
  const [kind, setKind] = useState<KindFilter>('all');
  const reviews = useReviews(status);
  const pending = useReviews('pending');
  const list = (reviews.data ?? []).filter((r) => kind === 'all' || r.kind === kind);

  return (
    <>
      <header className="page-header reviews-header">
        <div>
          <Link to="/products" className="reviews-header__back">
            <ArrowLeftOutlined aria-hidden="true" /> Productos
          </Link>
          <h1>Reseñas y comentarios</h1>
          <p>Las calificaciones y comentarios de tus clientes se publican en tu tienda solo cuando los apruebas.</p>
        </div>
      </header>
      <Card>
        <div className="reviews-toolbar">
          <Segmented<ReviewStatus>
            value={status}
            onChange={setStatus}
            options={(['pending', 'approved', 'rejected'] as const).map((s) => ({
              value: s,
              label:
                s === 'pending' ? (
                  <span>
                    {STATUS_LABELS[s]} <Badge count={pending.data?.length ?? 0} size="small" overflowCount={99} />
                  </span>
                ) : (
                  STATUS_LABELS[s]
                ),
            }))}
          />
          <Segmented<KindFilter>
            value={kind}
            onChange={setKind}
            options={[
              { value: 'all', label: 'Todas' },
              { value: 'rating', label: 'Calificaciones' },
              { value: 'comment', label: 'Comentarios' },
            ]}
          />
        </div>
        {reviews.isPending ? (
          <Skeleton active paragraph={{ rows: 4 }} />
        ) : reviews.isError ? (
          <Alert type="error" showIcon title="No se pudieron cargar las reseñas" description={serverMessageOr(reviews.error, 'Inténtalo de nuevo.')} />
        ) : list.length === 0 ? (
          <Empty description={status === 'pending' ? 'No hay reseñas pendientes de aprobación' : `No hay reseñas ${STATUS_LABELS[status].toLowerCase()}`} />
        ) : (
          <ul className="review-list">
            {list.map((review) => (
              <ReviewItem key={review.id} review={review} />
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

function ReviewItem({ review }: { review: PendingReview }) {
  const moderate = useModerateReview();
  const decide = (decision: ReviewDecision) =>
    moderate.mutate(
      { id: review.id, decision },
      {
        onSuccess: () =>
          toast(
            decision === 'approve'
              ? { title: ReviewMessages.approved, description: ReviewMessages.approvedHint }
              : { title: ReviewMessages.rejected, description: ReviewMessages.rejectedHint },
          ),
        onError: (error) => toast({ title: 'Error', description: serverMessageOr(error, ReviewMessages.failed), variant: 'destructive' }),
      },
    );
  const busy = moderate.isPending ? moderate.variables?.decision : undefined;

  return (
    <li className="review-item" aria-label={`${review.kind === 'rating' ? 'Calificación' : 'Comentario'} de ${review.customerName} sobre ${review.productName}`}>
      <div className="review-item__main">
        <Space size={8} wrap>
          {review.kind === 'rating' ? (
            <Tag icon={<StarOutlined />} color="gold">
              Calificación
            </Tag>
          ) : (
            <Tag icon={<CommentOutlined />} color="blue">
              Comentario
            </Tag>
          )}
          <Typography.Text strong>{review.productName}</Typography.Text>
        </Space>
        {review.rating !== null && <Rate disabled value={review.rating} className="review-item__stars" aria-label={`${review.rating} de 5 estrellas`} />}
        {review.comment ? <p className="review-item__comment">{review.comment}</p> : <p className="review-item__comment review-item__comment--empty">Sin comentario</p>}
        <Typography.Text type="secondary" className="review-item__meta">
          {review.customerName}
          {review.customerEmail ? ` · ${review.customerEmail}` : ''} · {formatDateTime(review.createdAt)}
        </Typography.Text>
      </div>
      <div className="review-item__actions">
        {review.status !== 'approved' && (
          <Button type="primary" icon={<CheckOutlined />} loading={busy === 'approve'} disabled={moderate.isPending} onClick={() => decide('approve')}>
            Aprobar
          </Button>
        )}
        {review.status !== 'rejected' && (
          <Button danger icon={<CloseOutlined />} loading={busy === 'reject'} disabled={moderate.isPending} onClick={() => decide('reject')}>
            {review.status === 'approved' ? 'Ocultar' : 'Rechazar'}
          </Button>
        )}
      </div>
    </li>
  );
}
