import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { createTransport, PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { InventoryConfig } from './config';
import { ProjectionHost } from './shared/projection-host';
import { EVENT_TRANSPORT, INVENTORY_EVENT_STORE, INVENTORY_SCHEMA } from './shared/tokens';
import { SetStockHandler } from './stock/application/set-stock.handler';
import { StockItemsController } from './stock/http/stock-items.controller';
import { CatalogProductsConsumer } from './stock/reactions/catalog-products.consumer';

/** Root module of the inventory service (GET /health comes from service-kit). */
@Module({
  imports: [CqrsModule.forRoot()],
  controllers: [StockItemsController],
  providers: [
    {
      provide: INVENTORY_EVENT_STORE,
      inject: [PG_POOL],
      useFactory: async (pool: Pool) => {
        const store = new PostgresEventStore(pool, INVENTORY_SCHEMA);
        await store.migrate();
        return store;
      },
    },
    {
      provide: EVENT_TRANSPORT,
      inject: [PG_POOL, SERVICE_CONFIG],
      useFactory: (pool: Pool, config: InventoryConfig) => createTransport({ pool, schema: INVENTORY_SCHEMA, connectionString: config.DATABASE_URL }),
    },
    ProjectionHost,
    CatalogProductsConsumer,
    SetStockHandler,
  ],
})
export class AppModule {}
