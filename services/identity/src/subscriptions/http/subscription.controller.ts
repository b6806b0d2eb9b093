import { Body, Controller, Get, Header, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  SubscribeRequest,
  type SubscribeAnswer,
  SubscriptionLinkRequest,
  type SubscriptionLinkAnswer,
  SubscriptionListQuery,
  SubscriptionMessages,
  type SubscriptionList,
} from '@tiendita/contracts';
import type { PostgresEventStore } from '@tiendita/eventsourcing';
import { Owner, parse, PG_POOL, type OwnerIdentity } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import type { Pool } from 'pg';
import type { IdentityConfig } from '../../config';
import { EVENT_STORE, IDENTITY_CONFIG } from '../../shared/tokens-di';
import { SubscribeCommand, SubscriptionLinkCommand, unsubscribePagePath } from '../application/subscription-links';
import { ExportSubscriptionsQuery, ListSubscriptionsQuery } from '../application/subscription.handlers';

/** The Spanish page of an unsubscribe link of an earlier mail whose token is not valid. */
export function invalidLinkPage(): string {
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Enlace no válido</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; color: #0f172a; line-height: 1.5">
<h1 style="font-size: 1.5rem">Enlace no válido</h1>
<p>${SubscriptionMessages.invalidLink}</p><p>Revisa que hayas abierto el enlace completo del correo.</p>
<p><a href="/">Ir a Tiendita</a></p>
</body>
</html>`;
}

@Controller('api')
export class SubscriptionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  /** A shopper asks to subscribe: 201 (as before double opt-in, so existing clients keep working) with the same message whether the address was subscribed or not; a confirmation mail follows. */
  @Post('public/subscribe/:store')
  @HttpCode(201)
  subscribe(@Param('store') store: string, @Body() body: unknown): Promise<SubscribeAnswer> {
    return this.commands.execute(new SubscribeCommand(store, parse(SubscribeRequest, body ?? {})));
  }

  /** The button of a confirmation link's page in the shop. */
  @Post('public/subscription/confirm')
  @HttpCode(200)
  confirm(@Body() body: unknown): Promise<SubscriptionLinkAnswer> {
    return this.commands.execute(new SubscriptionLinkCommand('confirm', parse(SubscriptionLinkRequest, body ?? {}).token));
  }

  /** The button of an unsubscribe link's page in the shop. */
  @Post('public/unsubscribe')
  @HttpCode(200)
  unsubscribe(@Body() body: unknown): Promise<SubscriptionLinkAnswer> {
    return this.commands.execute(new SubscriptionLinkCommand('unsubscribe', parse(SubscriptionLinkRequest, body ?? {}).token));
  }

  /**
   * An unsubscribe link of a mail sent before the shop's page existed: it leads there (303), where a
   * button ends the subscription. A GET never unsubscribes (mail scanners follow links).
   */
  @Get('public/unsubscribe')
  async unsubscribeLink(@Query('token') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    const path = typeof token === 'string' ? await unsubscribePagePath(this.pool, this.config, this.events, token) : null;
    reply.header('cache-control', 'no-store');
    if (path) await reply.status(303).header('location', path).send();
    else await reply.status(400).header('content-type', 'text/html; charset=utf-8').send(invalidLinkPage());
  }

  /**
   * The spec's 'list of subscriptions': with neither page nor limit, every subscription of the store as
   * an array (active first, newest first); with either, one page as `{ subscriptions, total, active,
   * totalPages, currentPage }` (the settings screen's paged card).
   */
  @Get('subscriptions')
  async list(@Owner() owner: OwnerIdentity, @Query() query: Record<string, unknown> | undefined): Promise<SubscriptionList | SubscriptionList['subscriptions']> {
    const paged = query?.page !== undefined || query?.limit !== undefined;
    if (!paged) return (await this.queries.execute(new ListSubscriptionsQuery(owner.storeId, 1, null))).subscriptions;
    const { page, limit } = parse(SubscriptionListQuery, query ?? {});
    return this.queries.execute(new ListSubscriptionsQuery(owner.storeId, page, limit));
  }

  @Get('subscriptions/export.csv')
  @Header('content-type', 'text/csv; charset=utf-8')
  @Header('content-disposition', 'attachment; filename="suscriptores.csv"')
  @Header('cache-control', 'no-store')
  export(@Owner() owner: OwnerIdentity): Promise<string> {
    return this.queries.execute(new ExportSubscriptionsQuery(owner.storeId));
  }
}
