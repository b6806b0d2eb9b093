import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ImportStockRequest, type ImportStockResponse } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { ImportStockCommand } from '../application/import-stock.command';
import { SetStockCommand, SetStockRequest, type SetStockResult } from '../application/set-stock.command';

/**
 * Internal commands of other services (signed; the gateway does not route /internal). Catalog
 * calls `set` for the product form's stock edit, as a 'correction' adjustment, and `import` for
 * the stock counts of a product import (restock or correction).
 */
@Controller('internal/stock-items')
export class StockItemsController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':productId/set')
  @HttpCode(200)
  set(@Owner() owner: OwnerIdentity, @Param('productId') productId: string, @Body() body: unknown): Promise<SetStockResult> {
    // The product form shows and edits AVAILABLE units (catalog's stock): units held by orders stay held.
    return this.commands.execute(new SetStockCommand(owner, productId, parse(SetStockRequest, body ?? {}), undefined, 'available'));
  }

  @Post('import')
  @HttpCode(200)
  importCounts(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<ImportStockResponse> {
    return this.commands.execute(new ImportStockCommand(owner, parse(ImportStockRequest, body ?? {})));
  }
}
