import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CatalogMessages, ErrorCode, type ProductView, toCentavos } from '@tiendita/contracts';
import { DomainError } from '@tiendita/eventsourcing';
import { HttpError, httpStatusOf, ProjectionHost, ServiceUnavailableError } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import { CategoryGuard } from '../../categories/application/category-guard';
import { InventoryClient, PRODUCT_FORM_STOCK_REASON } from '../../shared/inventory-client';
import type { UpdateProduct } from '../domain/product.decide';
import { roundDiscount } from './create-product.handler';
import { UpdateProductCommand } from './product.commands';
import { ProductCommandRunner } from './product-command-runner';
import { ProductImages } from './product-images';
import { ProductReader } from './product-reader';

/**
 * PUT /api/products/{id}, all or nothing for the owner. Every check runs first (the product is the
 * store's, the category, the images, the fields). Then the stock goes to inventory (a 'correction',
 * idempotent on the adjustment id): it is the part another service may refuse or fail, so when it
 * does nothing has been saved and the owner is told so. Only then are the catalog's own events
 * appended (price history on a price or discount change); if that part fails the answer says the
 * stock was saved and the rest was not. Answers once the read model shows both.
 */
@CommandHandler(UpdateProductCommand)
export class UpdateProductHandler implements ICommandHandler<UpdateProductCommand, ProductView> {
  constructor(
    private readonly runner: ProductCommandRunner,
    private readonly categories: CategoryGuard,
    private readonly images: ProductImages,
    private readonly inventory: InventoryClient,
    private readonly readModels: ProjectionHost,
    private readonly reader: ProductReader,
  ) {}

  async execute({ owner, productId, body }: UpdateProductCommand): Promise<ProductView> {
    const command: UpdateProduct = {
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
    };
    const current = await this.runner.check(command);
    await this.categories.assertBelongs(body.categoryId, owner.storeId);
    await this.images.assertOwned(owner.storeId, body.images, current.status === 'active' || current.status === 'inactive' ? current.images : []);
    if (body.stock !== undefined && (current.status === 'active' || current.status === 'inactive')) {
      await this.setStock(owner, productId, body.stock, current.initialStock);
    }
    try {
      await this.runner.run(owner, command);
    } catch (error) {
      if (body.stock === undefined) throw error;
      const reason = error instanceof DomainError ? error.message : 'el catálogo no pudo guardarlos; inténtalo de nuevo.';
      const status = error instanceof DomainError ? httpStatusOf(error) : 503;
      const code = error instanceof DomainError ? error.code : ErrorCode.unavailable;
      throw new HttpError(CatalogMessages.productEditOnlyStockSaved(body.stock, reason), status, code, { saved: { stock: body.stock } });
    }
    return this.reader.get(owner.storeId, productId);
  }

  /** Inventory records the form's stock; when inventory cannot answer, nothing was saved: 503 saying so. */
  private async setStock(owner: UpdateProductCommand['owner'], productId: string, stock: number, openingStock: number): Promise<void> {
    let position;
    try {
      ({ position } = await this.inventory.setStock(owner, productId, {
        adjustmentId: randomUUID(),
        newStock: stock,
        adjustmentType: 'correction',
        reason: PRODUCT_FORM_STOCK_REASON,
        openingStock,
      }));
    } catch (error) {
      if (error instanceof DomainError && httpStatusOf(error) >= 500) {
        throw new ServiceUnavailableError(CatalogMessages.productEditNothingSaved);
      }
      throw error;
    }
    if (position) await this.readModels.waitForPosition(position, { source: 'inventory', streamId: `stock-${productId}` });
  }
}
