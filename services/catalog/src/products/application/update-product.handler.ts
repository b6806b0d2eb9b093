import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type ProductView, toCentavos } from '@tiendita/contracts';
import { randomUUID } from 'node:crypto';
import { CategoryGuard } from '../../categories/application/category-guard';
import { InventoryClient, PRODUCT_FORM_STOCK_REASON } from '../../shared/inventory-client';
import { ProjectionHost } from '../../shared/projection-host';
import { roundDiscount } from './create-product.handler';
import { UpdateProductCommand } from './product.commands';
import { ProductCommandRunner } from './product-command-runner';
import { ProductReader } from './product-reader';

/**
 * Updates the product's own fields (price history on a price or discount change), then, when the
 * form sent a stock, asks inventory to record it as a 'correction' adjustment (idempotent on the
 * adjustment id). Answers once the read model shows both.
 */
@CommandHandler(UpdateProductCommand)
export class UpdateProductHandler implements ICommandHandler<UpdateProductCommand, ProductView> {
  constructor(
    private readonly runner: ProductCommandRunner,
    private readonly categories: CategoryGuard,
    private readonly inventory: InventoryClient,
    private readonly readModels: ProjectionHost,
    private readonly reader: ProductReader,
  ) {}

  async execute({ owner, productId, body }: UpdateProductCommand): Promise<ProductView> {
    await this.categories.assertBelongs(body.categoryId, owner.storeId);
    const { newState } = await this.runner.run(owner, {
      type: 'UpdateProduct',
      productId,
      storeId: owner.storeId,
      actor: owner.userId,
      changes: {
        name: body.name,
        description: body.description,
        sku: body.sku,
        priceCentavos: body.price === undefined ? undefined : toCentavos(body.price),
        discountPercentage: body.discountPercentage === undefined ? undefined : roundDiscount(body.discountPercentage),
        categoryId: body.categoryId,
        images: body.images,
        isActive: body.isActive,
      },
      changeReason: body.changeReason ?? null,
    });
    if (body.stock !== undefined && (newState.status === 'active' || newState.status === 'inactive')) {
      const { position } = await this.inventory.setStock(owner, productId, {
        adjustmentId: randomUUID(),
        newStock: body.stock,
        adjustmentType: 'correction',
        reason: PRODUCT_FORM_STOCK_REASON,
        openingStock: newState.initialStock,
      });
      if (position) await this.readModels.waitForPosition('inventory', position);
    }
    return this.reader.get(owner.storeId, productId);
  }
}
