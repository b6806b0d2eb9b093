import { Inject } from '@nestjs/common';
import { CommandHandler, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CatalogMessages, type PendingReview } from '@tiendita/contracts';
import { handleCommand, NotFoundError, type PostgresEventStore, ValidationError } from '@tiendita/eventsourcing';
import { EVENT_STORE, PG_POOL, ProjectionHost, SERVICE_CONFIG } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { CatalogConfig } from '../../config';
import { isoSql, isUuid } from '../../shared/sql';
import { reviewDecider, reviewStreamId, type ReviewCommand } from '../domain/review.decider';
import { RateLimiter } from './rate-limiter';
import { ListReviewsQuery, ModerateReviewCommand, SubmitCommentCommand, type SubmittedReview, SubmitRatingCommand } from './review.commands';

type SubmitReviewCommand = Extract<ReviewCommand, { type: 'SubmitRating' | 'SubmitComment' }>;

const reviewJsonSql = `json_build_object(
  'id', r.id, 'kind', r.kind, 'productId', r.product_id, 'productName', p.name, 'rating', r.rating, 'comment', r.comment,
  'customerName', r.customer_name, 'customerEmail', r.customer_email, 'status', r.status, 'createdAt', ${isoSql('r.created_at')})`;

/** The store of a product that shoppers may see: active product of an active store, or 404. */
async function visibleProductStore(pool: Pool, productId: string): Promise<string> {
  if (!isUuid(productId)) throw new NotFoundError(CatalogMessages.productNotFound);
  const r = await pool.query<{ store_id: string }>({
    name: 'catalog_visible_product_store',
    text: `SELECT p.store_id FROM catalog.products p JOIN catalog.stores s ON s.id = p.store_id
           WHERE p.id = $1 AND p.is_active AND s.is_active`,
    values: [productId],
  });
  if (r.rowCount === 0) throw new NotFoundError(CatalogMessages.productNotFound);
  return r.rows[0].store_id;
}

abstract class SubmitHandlerBase {
  constructor(
    protected readonly pool: Pool,
    protected readonly store: PostgresEventStore,
    protected readonly limiter: RateLimiter,
    protected readonly config: CatalogConfig,
    protected readonly readModels: ProjectionHost,
  ) {}

  /**
   * Checks the product is visible and the shopper under the rate limit, appends the submission
   * to a new review stream, and waits until the moderation list shows it.
   */
  protected async submit(
    productId: string,
    clientIp: string,
    command: (ids: { reviewId: string; productId: string; storeId: string }) => SubmitReviewCommand,
    message: string,
  ): Promise<SubmittedReview> {
    const storeId = await visibleProductStore(this.pool, productId);
    await this.limiter.hit(`review:${clientIp}`, this.config.REVIEW_RATE_LIMIT, this.config.REVIEW_RATE_WINDOW_SECONDS, CatalogMessages.tooManyReviews);
    const reviewId = randomUUID();
    const { version } = await handleCommand(this.store, reviewStreamId(reviewId), reviewDecider, command({ reviewId, productId, storeId }), {
      metadata: { storeId, actor: null },
    });
    // The owner's moderation list shows it as soon as the shopper is told it awaits approval.
    await this.readModels.waitForStream(reviewStreamId(reviewId), version);
    return { id: reviewId, message, status: 'pending' };
  }
}

@CommandHandler(SubmitRatingCommand)
export class SubmitRatingHandler extends SubmitHandlerBase implements ICommandHandler<SubmitRatingCommand, SubmittedReview> {
  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(EVENT_STORE) store: PostgresEventStore,
    limiter: RateLimiter,
    @Inject(SERVICE_CONFIG) config: CatalogConfig,
    readModels: ProjectionHost,
  ) {
    super(pool, store, limiter, config, readModels);
  }

  execute({ productId, body, clientIp }: SubmitRatingCommand): Promise<SubmittedReview> {
    return this.submit(
      productId,
      clientIp,
      (ids) => ({
        type: 'SubmitRating',
        ...ids,
        rating: body.rating,
        comment: body.comment ?? null,
        customerName: body.customerName,
        customerEmail: body.customerEmail ?? null,
      }),
      CatalogMessages.reviewPending,
    );
  }
}

@CommandHandler(SubmitCommentCommand)
export class SubmitCommentHandler extends SubmitHandlerBase implements ICommandHandler<SubmitCommentCommand, SubmittedReview> {
  constructor(
    @Inject(PG_POOL) pool: Pool,
    @Inject(EVENT_STORE) store: PostgresEventStore,
    limiter: RateLimiter,
    @Inject(SERVICE_CONFIG) config: CatalogConfig,
    readModels: ProjectionHost,
  ) {
    super(pool, store, limiter, config, readModels);
  }

  async execute({ productId, body, clientIp }: SubmitCommentCommand): Promise<SubmittedReview> {
    if (body.parentCommentId) await this.assertReplyable(productId, body.parentCommentId);
    return this.submit(
      productId,
      clientIp,
      (ids) => ({
        type: 'SubmitComment',
        ...ids,
        comment: body.comment,
        customerName: body.customerName,
        customerEmail: body.customerEmail ?? null,
        parentCommentId: body.parentCommentId ?? null,
      }),
      CatalogMessages.commentPending,
    );
  }

  /** A reply answers an approved, public comment of the same product; anything else is refused. */
  private async assertReplyable(productId: string, parentCommentId: string): Promise<void> {
    const r = await this.pool.query({
      name: 'catalog_replyable_comment',
      text: `SELECT 1 FROM catalog.reviews WHERE id = $1 AND product_id = $2 AND kind = 'comment' AND status = 'approved' AND is_public`,
      values: [parentCommentId, productId],
    });
    if (r.rowCount === 0) throw new ValidationError(CatalogMessages.parentCommentInvalid, { fields: { parentCommentId: CatalogMessages.parentCommentInvalid } });
  }
}

@CommandHandler(ModerateReviewCommand)
export class ModerateReviewHandler implements ICommandHandler<ModerateReviewCommand, PendingReview> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ owner, reviewId, decision }: ModerateReviewCommand): Promise<PendingReview> {
    if (!isUuid(reviewId)) throw new NotFoundError(CatalogMessages.reviewNotFound);
    const { version } = await handleCommand(
      this.store,
      reviewStreamId(reviewId),
      reviewDecider,
      { type: decision === 'approve' ? 'ApproveReview' : 'RejectReview', reviewId, storeId: owner.storeId, actor: owner.userId },
      { metadata: { storeId: owner.storeId, actor: owner.userId } },
    );
    await this.readModels.waitForStream(reviewStreamId(reviewId), version);
    const r = await this.pool.query<{ view: PendingReview }>(
      `SELECT ${reviewJsonSql} AS view FROM catalog.reviews r LEFT JOIN catalog.products p ON p.id = r.product_id WHERE r.id = $1 AND r.store_id = $2`,
      [reviewId, owner.storeId],
    );
    if (r.rowCount === 0) throw new NotFoundError(CatalogMessages.reviewNotFound);
    return { ...r.rows[0].view, productName: r.rows[0].view.productName ?? '' };
  }
}

@QueryHandler(ListReviewsQuery)
export class ListReviewsHandler implements IQueryHandler<ListReviewsQuery, PendingReview[]> {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async execute({ storeId, status }: ListReviewsQuery): Promise<PendingReview[]> {
    // Reviews of deleted products drop out with the product (inner join).
    const r = await this.pool.query<{ list: PendingReview[] }>({
      name: 'catalog_list_reviews',
      text: `SELECT COALESCE(json_agg(x.view ORDER BY x.created_at DESC, x.id), '[]') AS list FROM (
               SELECT ${reviewJsonSql} AS view, r.created_at, r.id FROM catalog.reviews r JOIN catalog.products p ON p.id = r.product_id
               WHERE r.store_id = $1 AND r.status = $2 ORDER BY r.created_at DESC, r.id LIMIT 500) x`,
      values: [storeId, status],
    });
    return r.rows[0].list;
  }
}
