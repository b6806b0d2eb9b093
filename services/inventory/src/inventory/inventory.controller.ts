import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AdjustInventoryRequest, InventoryMessages, isUuid, SetMinimumRequest } from '@tiendita/contracts';
import { NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { Owner, type OwnerIdentity, parse, ProjectionHost } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import { SetStockCommand } from '../stock/application/set-stock.command';
import { CatalogProductsConsumer } from '../stock/reactions/catalog-products.consumer';
import { StockWriteModel } from '../stock/write-model/stock-write-model';
import { type HistoryQuery, InventoryQueries, type ListQuery } from './inventory.queries';

/** The owner's inventory (spec 001 §7): list, ledger, adjustments and per-product minimum. */
@Controller('api/inventory')
export class InventoryController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: InventoryQueries,
    private readonly host: ProjectionHost,
    private readonly model: StockWriteModel,
    private readonly opener: CatalogProductsConsumer,
  ) {}

  @Get()
  list(@Owner() owner: OwnerIdentity, @Query() q: ListQuery) {
    return this.queries.list(owner.storeId, q);
  }

  /** The bell's low-stock part: how many products are at or below their minimum, and the first ten. */
  @Get('alerts')
  alerts(@Owner() owner: OwnerIdentity) {
    return this.queries.lowStock(owner.storeId);
  }

  @Get('history')
  history(@Owner() owner: OwnerIdentity, @Query() q: HistoryQuery) {
    return this.queries.history(owner.storeId, q);
  }

  @Get('history/:productId')
  productHistory(@Owner() owner: OwnerIdentity, @Param('productId') productId: string, @Query() q: HistoryQuery) {
    if (!isUuid(productId)) throw new NotFoundError(InventoryMessages.productNotFound);
    return this.queries.history(owner.storeId, q, productId);
  }

  @Post('adjust')
  @HttpCode(200)
  async adjust(@Owner() owner: OwnerIdentity, @Body() raw: unknown) {
    const body = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    if (body.productId === undefined || body.productId === null || body.productId === '') {
      throw new ValidationError(InventoryMessages.invalidProductId, { fields: { productId: InventoryMessages.invalidProductId } });
    }
    const input = parse(AdjustInventoryRequest, body);
    const adjustedBy = await this.queries.ownerName(owner.userId);
    const result = await this.commands.execute(
      new SetStockCommand(
        owner,
        input.productId,
        { adjustmentId: input.adjustmentId ?? randomUUID(), newStock: input.newStock, adjustmentType: input.adjustmentType, reason: input.reason },
        adjustedBy,
      ),
    );
    if (result.position) await this.host.waitForPosition(result.position);
    const [item] = (await this.queries.history(owner.storeId, { limit: '1', page: '1' }, input.productId).then((h) => ('history' in h ? h.history : h))) ?? [];
    return {
      message: 'Inventario actualizado',
      adjusted: result.adjusted,
      productId: input.productId,
      stock: result.stock,
      adjustment: result.adjusted ? item : null,
    };
  }

  @Put(':productId/minimum')
  async minimum(@Owner() owner: OwnerIdentity, @Param('productId') productId: string, @Body() raw: unknown) {
    if (!isUuid(productId)) throw new NotFoundError(InventoryMessages.productNotFound);
    const { minimum } = parse(SetMinimumRequest, raw ?? {});
    await this.opener.awaitOpened(productId);
    const r = await this.model.transaction(async (tx) => {
      const locked = (await this.model.lock(tx, [productId])).get(productId)!;
      return this.model.execute(tx, locked, { type: 'SetMinimum', storeId: owner.storeId, minimum }, { storeId: owner.storeId, actor: owner.userId });
    });
    if (r.position) await this.host.waitForPosition(r.position);
    return { productId, minimum };
  }
}
