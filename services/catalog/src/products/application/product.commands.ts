import { Command } from '@nestjs/cqrs';
import type { CreateProductRequest, ProductView, UpdateProductRequest } from '@tiendita/contracts';
import type { OwnerIdentity } from '@tiendita/service-kit';

/** POST /api/products. */
export class CreateProductCommand extends Command<ProductView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly body: CreateProductRequest,
  ) {
    super();
  }
}

/** PUT /api/products/{id}: any subset of the fields; a stock value becomes an inventory correction. */
export class UpdateProductCommand extends Command<ProductView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly productId: string,
    readonly body: UpdateProductRequest,
  ) {
    super();
  }
}

/** DELETE /api/products/{id}. */
export class DeleteProductCommand extends Command<{ message: string; id: string }> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly productId: string,
  ) {
    super();
  }
}

/** POST /api/products/{id}/activate and /deactivate. */
export class SetProductActiveCommand extends Command<ProductView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly productId: string,
    readonly active: boolean,
  ) {
    super();
  }
}
