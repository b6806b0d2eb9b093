import { Body, Controller, Get, Headers, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ListOrdersQuery as ListOrdersParams,
  type OrderHistoryEntry,
  type OrderListResponse,
  type OrderView,
  PosOrderRequest,
  PublicOrderRequest,
  type PublicOrderResponse,
  RecordPaymentRequest,
  RefundPaymentRequest,
  UpdateOrderStatusRequest,
} from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { GetOrderHistoryQuery, GetOrderQuery } from '../application/get-order.query';
import { GetReceiptQuery } from '../application/get-receipt.query';
import { ListOrdersQuery } from '../application/list-orders.query';
import { ChangeOrderStatusCommand, PlacePosSaleCommand, PlacePublicOrderCommand, RecordPaymentCommand, RefundPaymentCommand } from '../application/order.commands';
import { idempotencyKey } from '../application/order-ids';

/** Owner calls of spec §7 and the payments of issue 24 (the gateway checks the session; the tenant comes from it). */
@Controller('api/orders')
export class OrdersController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  list(@Owner() owner: OwnerIdentity, @Query() query: unknown): Promise<OrderListResponse> {
    return this.queries.execute(new ListOrdersQuery(owner.storeId, parse(ListOrdersParams, query ?? {})));
  }

  @Post()
  @HttpCode(201)
  create(@Owner() owner: OwnerIdentity, @Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<OrderView> {
    return this.commands.execute(new PlacePosSaleCommand(owner, parse(PosOrderRequest, body ?? {}), idempotencyKey(key)));
  }

  @Get(':id')
  get(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<OrderView> {
    return this.queries.execute(new GetOrderQuery(owner.storeId, id));
  }

  @Get(':id/history')
  history(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<OrderHistoryEntry[]> {
    return this.queries.execute(new GetOrderHistoryQuery(owner.storeId, id));
  }

  @Put(':id/status')
  status(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown): Promise<OrderView> {
    return this.commands.execute(new ChangeOrderStatusCommand(owner, id, parse(UpdateOrderStatusRequest, body ?? {})));
  }

  @Post(':id/payments')
  @HttpCode(201)
  pay(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<OrderView> {
    return this.commands.execute(new RecordPaymentCommand(owner, id, parse(RecordPaymentRequest, body ?? {}), idempotencyKey(key)));
  }

  @Post(':id/refunds')
  @HttpCode(201)
  refund(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<OrderView> {
    return this.commands.execute(new RefundPaymentCommand(owner, id, parse(RefundPaymentRequest, body ?? {}), idempotencyKey(key)));
  }

  @Get(':id/receipt.pdf')
  async receipt(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Res() reply: FastifyReply): Promise<void> {
    const { code, pdf } = await this.queries.execute(new GetReceiptQuery(owner, id));
    await reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `inline; filename="recibo-${code}.pdf"`)
      .header('cache-control', 'private, no-store')
      .send(pdf);
  }
}

/** POST /api/public/orders/{store}: the shop's WhatsApp checkout (anonymous). */
@Controller('api/public/orders')
export class PublicOrdersController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':store')
  @HttpCode(201)
  place(@Param('store') store: string, @Body() body: unknown, @Headers('idempotency-key') key?: string): Promise<PublicOrderResponse> {
    return this.commands.execute(new PlacePublicOrderCommand(store, parse(PublicOrderRequest, body ?? {}), idempotencyKey(key)));
  }
}
