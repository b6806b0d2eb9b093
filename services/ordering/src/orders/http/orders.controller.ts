import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { PosOrderRequest, PublicOrderRequest, UpdateOrderStatusRequest } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { OrdersService } from '../application/orders.service';
import { receiptPdf } from '../application/receipt';
import { StoreLogos } from '../application/store-logos';

const key = (value: string | undefined): string | undefined => {
  const k = value?.trim();
  return k ? k.slice(0, 200) : undefined;
};

/** Owner calls of spec §7 (the gateway checks the session; the tenant comes from it). */
@Controller('api/orders')
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly logos: StoreLogos,
  ) {}

  @Get()
  list(@Owner() owner: OwnerIdentity, @Query() query: Record<string, unknown>) {
    return this.orders.list(owner, query);
  }

  @Post()
  @HttpCode(201)
  create(@Owner() owner: OwnerIdentity, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.orders.placePos(owner, parse(PosOrderRequest, body ?? {}), key(idempotencyKey));
  }

  @Get(':id')
  get(@Owner() owner: OwnerIdentity, @Param('id') id: string) {
    return this.orders.get(owner, id);
  }

  @Get(':id/history')
  history(@Owner() owner: OwnerIdentity, @Param('id') id: string) {
    return this.orders.history(owner, id);
  }

  @Put(':id/status')
  status(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown) {
    return this.orders.changeStatus(owner, id, parse(UpdateOrderStatusRequest, body ?? {}));
  }

  @Get(':id/receipt.pdf')
  async receipt(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const order = await this.orders.get(owner, id);
    const store = await this.orders.findStore(owner.storeId);
    const pdf = await receiptPdf(order, store, await this.logos.forReceipt(owner, store?.logo_url));
    await reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="recibo-${order.code}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  }
}

/** POST /api/public/orders/{store}: the shop's WhatsApp checkout (anonymous). */
@Controller('api/public/orders')
export class PublicOrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Post(':store')
  @HttpCode(201)
  place(@Param('store') store: string, @Body() body: unknown, @Headers('idempotency-key') idempotencyKey?: string) {
    return this.orders.placePublic(store, parse(PublicOrderRequest, body ?? {}), key(idempotencyKey));
  }
}
