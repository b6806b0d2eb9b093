import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type ProductView, toCentavos } from '@tiendita/contracts';
import { randomUUID } from 'node:crypto';
import { CategoryGuard } from '../../categories/application/category-guard';
import { CreateProductCommand } from './product.commands';
import { ProductImages } from './product-images';
import { ProductCommandRunner } from './product-command-runner';
import { ProductReader } from './product-reader';

/** Discounts are decimal(5,2): two decimals, rounded once. */
export const roundDiscount = (d: number): number => Math.round(d * 100) / 100;

/**
 * Creates the product. Its opening stock travels in ProductCreated: inventory opens the stock
 * item from that event (see docs/architecture.md, "Stock and the product form").
 */
@CommandHandler(CreateProductCommand)
export class CreateProductHandler implements ICommandHandler<CreateProductCommand, ProductView> {
  constructor(
    private readonly runner: ProductCommandRunner,
    private readonly categories: CategoryGuard,
    private readonly images: ProductImages,
    private readonly reader: ProductReader,
  ) {}

  async execute({ owner, body }: CreateProductCommand): Promise<ProductView> {
    const productId = randomUUID();
    await this.categories.assertBelongs(body.categoryId, owner.storeId);
    await this.images.assertOwned(owner.storeId, body.images);
    await this.runner.run(owner, {
      type: 'CreateProduct',
      productId,
      storeId: owner.storeId,
      actor: owner.userId,
      name: body.name,
      description: body.description ?? null,
      sku: body.sku ?? null,
      priceCentavos: toCentavos(body.price),
      discountPercentage: roundDiscount(body.discountPercentage),
      categoryId: body.categoryId ?? null,
      images: body.images,
      isActive: body.isActive,
      initialStock: body.stock,
    });
    return this.reader.get(owner.storeId, productId);
  }
}
