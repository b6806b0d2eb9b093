import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventSourcingModule } from '@tiendita/service-kit';
import { AuthorNames } from './orders/application/author-names';
import { ChangeOrderStatusHandler } from './orders/application/change-order-status.handler';
import { Checkout } from './orders/application/checkout/checkout-steps';
import { ExpirePendingOrdersHandler } from './orders/application/expire-pending-orders.handler';
import { ExpirySweep } from './orders/application/expiry-sweep';
import { GetOrderHandler, GetOrderHistoryHandler } from './orders/application/get-order.query';
import { GetReceiptHandler } from './orders/application/get-receipt.query';
import { InventoryClient } from './orders/application/inventory-client';
import { ListOrdersHandler } from './orders/application/list-orders.query';
import { OrderCommandRunner } from './orders/application/order-command-runner';
import { OrderReader } from './orders/application/order-reader';
import { OrderWriter } from './orders/application/order-writer';
import { PlacePosSaleHandler } from './orders/application/place-pos-sale.handler';
import { PlacePublicOrderHandler } from './orders/application/place-public-order.handler';
import { RecordPaymentHandler } from './orders/application/record-payment.handler';
import { RefundPaymentHandler } from './orders/application/refund-payment.handler';
import { SearchMemo } from './orders/application/search-memo';
import { StoreLogos } from './orders/application/store-logos';
import { ReceiptFel } from './orders/application/receipt-fel';
import { StoreReader } from './orders/application/store-reader';
import { OrdersController, PublicOrdersController } from './orders/http/orders.controller';
import { ReceiptLinkController } from './orders/http/receipt-link.controller';
import { BulkCancelController } from './orders/limits/bulk-cancel.controller';
import { PublicOrderLimits } from './orders/limits/public-order-limits';
import { projections } from './projections';

const commandHandlers = [PlacePublicOrderHandler, PlacePosSaleHandler, ChangeOrderStatusHandler, RecordPaymentHandler, RefundPaymentHandler, ExpirePendingOrdersHandler];
const queryHandlers = [ListOrdersHandler, GetOrderHandler, GetOrderHistoryHandler, GetReceiptHandler];

/** Root module of the ordering service (GET /health comes from service-kit). */
@Module({
  imports: [CqrsModule.forRoot(), EventSourcingModule.forService({ schema: 'ordering', projections })],
  controllers: [BulkCancelController, OrdersController, PublicOrdersController, ReceiptLinkController],
  providers: [
    PublicOrderLimits,
    ...commandHandlers,
    ...queryHandlers,
    AuthorNames,
    Checkout,
    ExpirySweep,
    InventoryClient,
    OrderCommandRunner,
    OrderReader,
    OrderWriter,
    ReceiptFel,
    SearchMemo,
    StoreLogos,
    StoreReader,
  ],
})
export class AppModule {}
