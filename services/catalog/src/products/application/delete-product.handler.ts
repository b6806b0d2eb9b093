import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CatalogMessages, type ProductView } from '@tiendita/contracts';
import { DeleteProductCommand, SetProductActiveCommand } from './product.commands';
import { ProductCommandRunner } from './product-command-runner';
import { ProductReader } from './product-reader';

@CommandHandler(DeleteProductCommand)
export class DeleteProductHandler implements ICommandHandler<DeleteProductCommand, { message: string; id: string }> {
  constructor(
    private readonly runner: ProductCommandRunner,
  ) {}

  async execute({ owner, productId }: DeleteProductCommand): Promise<{ message: string; id: string }> {
    await this.runner.run(owner, { type: 'DeleteProduct', productId, storeId: owner.storeId });
    return { message: CatalogMessages.productDeleted, id: productId };
  }
}

@CommandHandler(SetProductActiveCommand)
export class SetProductActiveHandler implements ICommandHandler<SetProductActiveCommand, ProductView> {
  constructor(
    private readonly runner: ProductCommandRunner,
    private readonly reader: ProductReader,
  ) {}

  async execute({ owner, productId, active }: SetProductActiveCommand): Promise<ProductView> {
    await this.runner.run(owner, { type: active ? 'ActivateProduct' : 'DeactivateProduct', productId, storeId: owner.storeId });
    return this.reader.get(owner.storeId, productId);
  }
}
