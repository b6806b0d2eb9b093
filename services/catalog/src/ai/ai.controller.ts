import { Body, Controller, HttpCode, Inject, Param, Post, Req } from '@nestjs/common';
import {
  AiMessages,
  CustomerResponseRequest,
  type CustomerResponseResponse,
  EnhanceSearchRequest,
  type EnhanceSearchResponse,
  GenerateDescriptionRequest,
  SocialCaptionRequest,
} from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { FastifyRequest } from 'fastify';
import type { CatalogConfig } from '../config';
import { AiHelpers } from './ai-helpers';
import { SearchRateLimiter } from './search-rate-limiter';

function header(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim() || undefined;
}

/** The shopper's address (the gateway passes it in x-forwarded-for). */
function clientIp(request: FastifyRequest): string {
  return header(request, 'x-forwarded-for') ?? request.ip;
}

/** AI calls of spec 001 §7 that use the catalog's data (sales insights belong to reporting). */
@Controller('api/ai')
export class AiController {
  constructor(
    private readonly helpers: AiHelpers,
    private readonly limiter: SearchRateLimiter,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogConfig,
  ) {}

  @Post('generate-description')
  @HttpCode(200)
  description(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<{ description: string }> {
    return this.helpers.description(owner.storeId, parse(GenerateDescriptionRequest, body ?? {}));
  }

  @Post('customer-response')
  @HttpCode(200)
  customerResponse(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<CustomerResponseResponse> {
    return this.helpers.customerResponse(owner.storeId, parse(CustomerResponseRequest, body ?? {}));
  }

  @Post('social-caption')
  @HttpCode(200)
  caption(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<{ caption: string }> {
    return this.helpers.caption(owner.storeId, parse(SocialCaptionRequest, body ?? {}));
  }

  /** Public and anonymous: rate limited per address (in memory: no database write per keystroke). */
  @Post('enhance-search/:store')
  @HttpCode(200)
  async enhanceSearch(@Param('store') store: string, @Body() body: unknown, @Req() request: FastifyRequest): Promise<EnhanceSearchResponse> {
    const { query } = parse(EnhanceSearchRequest, body ?? {});
    this.limiter.hit(`ai-search:${clientIp(request)}`, this.config.AI_SEARCH_RATE_LIMIT, this.config.AI_SEARCH_RATE_WINDOW_SECONDS, AiMessages.searchRateLimited);
    return this.helpers.enhanceSearch(store, query);
  }
}
