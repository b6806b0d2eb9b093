import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { SetStockCommand, SetStockRequest, type SetStockResult } from '../application/set-stock.command';

/**
 * Internal commands of other services (signed; the gateway does not route /internal). Catalog
 * calls `set` for the product form's stock edit, as a 'correction' adjustment.
 */
@Controller('internal/stock-items')
export class StockItemsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':productId/set')
  @HttpCode(200)
  set(@Owner() owner: OwnerIdentity, @Param('productId') productId: string, @Body() body: unknown): Promise<SetStockResult> {
    return this.commands.execute(new SetStockCommand(owner, productId, parse(SetStockRequest, body ?? {})));
  }
}
