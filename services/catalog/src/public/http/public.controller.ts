import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PublicProductQuery, SubmitCommentRequest, SubmitRatingRequest } from '@tiendita/contracts';
import { parse } from '@tiendita/service-kit';
import type { FastifyRequest } from 'fastify';
import { SubmitCommentCommand, type SubmittedReview, SubmitRatingCommand } from '../../reviews/application/review.commands';
import { PublicCatalog } from '../application/public-catalog';

/** The shopper's address: the gateway passes it in x-forwarded-for (first hop). */
function clientIp(request: FastifyRequest): string {
  const forwarded = request.headers['x-forwarded-for'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
  return first || request.ip;
}

/**
 * Public calls of spec §7 (anonymous shoppers, through the gateway). Reads answer JSON text
 * built by PostgreSQL; only active products of active stores are ever shown.
 */
@Controller('api/public')
export class PublicController {
  constructor(
    private readonly catalog: PublicCatalog,
    private readonly commands: CommandBus,
  ) {}

  @Get('products/:store')
  @Header('content-type', 'application/json; charset=utf-8')
  products(@Param('store') store: string, @Query() query: unknown): Promise<string> {
    return this.catalog.products(store, parse(PublicProductQuery, query));
  }

  @Get('categories/:store')
  @Header('content-type', 'application/json; charset=utf-8')
  categories(@Param('store') store: string): Promise<string> {
    return this.catalog.categories(store);
  }

  @Get('products/:productId/details')
  @Header('content-type', 'application/json; charset=utf-8')
  details(@Param('productId') productId: string): Promise<string> {
    return this.catalog.details(productId);
  }

  @Post('products/:productId/ratings')
  @HttpCode(201)
  rate(@Param('productId') productId: string, @Body() body: unknown, @Req() request: FastifyRequest): Promise<SubmittedReview> {
    return this.commands.execute(new SubmitRatingCommand(productId, parse(SubmitRatingRequest, body ?? {}), clientIp(request)));
  }

  @Post('products/:productId/comments')
  @HttpCode(201)
  comment(@Param('productId') productId: string, @Body() body: unknown, @Req() request: FastifyRequest): Promise<SubmittedReview> {
    return this.commands.execute(new SubmitCommentCommand(productId, parse(SubmitCommentRequest, body ?? {}), clientIp(request)));
  }
}
