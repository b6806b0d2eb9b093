import { Body, Controller, Get, Header, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { SubscribeRequest, SubscriptionListQuery, SubscriptionMessages, type SubscriptionList, type SubscriptionView } from '@tiendita/contracts';
import { Owner, parse, type OwnerIdentity } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import {
  ExportSubscriptionsQuery,
  ListSubscriptionsQuery,
  SubscribeCommand,
  UnsubscribeCommand,
} from '../application/subscription.handlers';

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The Spanish page an unsubscribe link opens. */
export function unsubscribePage(result: { ok: boolean; storeName: string | null }): string {
  const title = result.ok ? 'Suscripción cancelada' : 'Enlace no válido';
  const body = result.ok
    ? `<p>Ya no recibirás correos de ${result.storeName ? `<strong>${escape(result.storeName)}</strong>` : 'esta tienda'}.</p><p>Si fue un error, puedes suscribirte de nuevo desde la tienda cuando quieras.</p>`
    : `<p>${SubscriptionMessages.invalidLink}</p><p>Revisa que hayas abierto el enlace completo del correo.</p>`;
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem; color: #0f172a; line-height: 1.5">
<h1 style="font-size: 1.5rem">${title}</h1>
${body}
<p><a href="/">Ir a Tiendita</a></p>
</body>
</html>`;
}

@Controller('api')
export class SubscriptionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  /** A shopper subscribes to a store's offers; 409 ALREADY_SUBSCRIBED while the address is subscribed. */
  @Post('public/subscribe/:store')
  @HttpCode(201)
  subscribe(@Param('store') store: string, @Body() body: unknown): Promise<SubscriptionView> {
    return this.commands.execute(new SubscribeCommand(store, parse(SubscribeRequest, body ?? {})));
  }

  /** The signed link of a confirmation mail: sets unsubscribedAt and shows a Spanish page. */
  @Get('public/unsubscribe')
  async unsubscribe(@Query('token') token: unknown, @Res() reply: FastifyReply): Promise<void> {
    const result = await this.commands.execute(new UnsubscribeCommand(typeof token === 'string' ? token : ''));
    await reply
      .status(result.ok ? 200 : 400)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(unsubscribePage(result));
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
