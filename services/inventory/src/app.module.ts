import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EventSourcingModule } from '@tiendita/service-kit';
import { InventoryController } from './inventory/inventory.controller';
import { InventoryQueries } from './inventory/inventory.queries';
import { projections } from './projections';
import { INVENTORY_SCHEMA } from './shared/tokens';
import { ImportStockHandler } from './stock/application/import-stock.handler';
import { ReservationsService } from './stock/application/reservations.service';
import { SetStockHandler } from './stock/application/set-stock.handler';
import { ReservationsController } from './stock/http/reservations.controller';
import { StockItemsController } from './stock/http/stock-items.controller';
import { CatalogProductsConsumer } from './stock/reactions/catalog-products.consumer';
import { OrderingOrdersConsumer } from './stock/reactions/ordering-orders.consumer';
import { StockWriteModel } from './stock/write-model/stock-write-model';

/** Root module of the inventory service (GET /health comes from service-kit). */
@Module({
  imports: [CqrsModule.forRoot(), EventSourcingModule.forService({ schema: INVENTORY_SCHEMA, projections })],
  controllers: [StockItemsController, ReservationsController, InventoryController],
  providers: [InventoryQueries, StockWriteModel, ReservationsService, CatalogProductsConsumer, OrderingOrdersConsumer, SetStockHandler, ImportStockHandler],
})
export class AppModule {}
