import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  CreateProductRequest,
  type PriceHistoryEntry,
  ProductListQuery,
  type ProductListResponse,
  type ProductView,
  UpdateProductRequest,
} from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { GetProductQuery, PriceHistoryQuery } from '../application/get-product.query';
import { ListProductsQuery } from '../application/list-products.query';
import { CreateProductCommand, DeleteProductCommand, SetProductActiveCommand, UpdateProductCommand } from '../application/product.commands';

/** Owner calls of spec §7 for products. Every route answers 404 for another store's product. */
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  list(@Owner() owner: OwnerIdentity, @Query() query: unknown): Promise<ProductListResponse> {
    return this.queries.execute(new ListProductsQuery(owner.storeId, parse(ProductListQuery, query)));
  }

  @Post()
  @HttpCode(201)
  create(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<ProductView> {
    return this.commands.execute(new CreateProductCommand(owner, parse(CreateProductRequest, body)));
  }

  @Get(':id')
  get(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<ProductView> {
    return this.queries.execute(new GetProductQuery(owner.storeId, id));
  }

  @Put(':id')
  update(@Owner() owner: OwnerIdentity, @Param('id') id: string, @Body() body: unknown): Promise<ProductView> {
    return this.commands.execute(new UpdateProductCommand(owner, id, parse(UpdateProductRequest, body)));
  }

  @Delete(':id')
  remove(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<{ message: string; id: string }> {
    return this.commands.execute(new DeleteProductCommand(owner, id));
  }

  @Post(':id/activate')
  @HttpCode(200)
  activate(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<ProductView> {
    return this.commands.execute(new SetProductActiveCommand(owner, id, true));
  }

  @Post(':id/deactivate')
  @HttpCode(200)
  deactivate(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<ProductView> {
    return this.commands.execute(new SetProductActiveCommand(owner, id, false));
  }

  @Get(':id/price-history')
  priceHistory(@Owner() owner: OwnerIdentity, @Param('id') id: string): Promise<PriceHistoryEntry[]> {
    return this.queries.execute(new PriceHistoryQuery(owner.storeId, id));
  }
}
