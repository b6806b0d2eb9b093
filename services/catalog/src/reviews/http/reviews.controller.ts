import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { PendingReview } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { ListReviewsQuery, ModerateReviewCommand } from '../application/review.commands';

const ReviewStatusQuery = PendingReview.pick({ status: true }).partial();

/**
 * The owner's moderation of ratings and comments (not shown in the spec; built for issue 5).
 * Under /api/products so the gateway routes it to catalog.
 */
@Controller('api/products/reviews')
export class ReviewsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** GET /api/products/reviews?status=pending|approved|rejected (default pending). */
  @Get()
  list(@Owner() owner: OwnerIdentity, @Query() query: unknown): Promise<PendingReview[]> {
    const { status } = parse(ReviewStatusQuery, query);
    return this.queries.execute(new ListReviewsQuery(owner.storeId, status ?? 'pending'));
  }

  /** GET /api/products/reviews/pending: what waits for a decision, newest first. */
  @Get('pending')
  pending(@Owner() owner: OwnerIdentity): Promise<PendingReview[]> {
    return this.queries.execute(new ListReviewsQuery(owner.storeId, 'pending'));
  }

  @Post(':id/approve')
  @HttpCode(200)
  approve(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<PendingReview> {
    return this.commands.execute(new ModerateReviewCommand(owner, id, 'approve'));
  }

  @Post(':id/reject')
  @HttpCode(200)
  reject(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<PendingReview> {
    return this.commands.execute(new ModerateReviewCommand(owner, id, 'reject'));
  }
}
