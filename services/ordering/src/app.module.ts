import { Module } from '@nestjs/common';
import { EventSourcingModule } from '@tiendita/service-kit';
import { InventoryClient } from './orders/application/inventory-client';
import { OrdersService } from './orders/application/orders.service';
import { StoreLogos } from './orders/application/store-logos';
import { OrdersController, PublicOrdersController } from './orders/http/orders.controller';
import { projections } from './projections';

/** Root module of the ordering service (GET /health comes from service-kit). */
@Module({
  imports: [EventSourcingModule.forService({ schema: 'ordering', projections })],
  controllers: [OrdersController, PublicOrdersController],
  providers: [InventoryClient, OrdersService, StoreLogos],
})
export class AppModule {}
