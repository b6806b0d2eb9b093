import { Command } from '@nestjs/cqrs';
import type { CategoryView, CreateCategoryRequest } from '@tiendita/contracts';
import type { OwnerIdentity } from '@tiendita/service-kit';

/** POST /api/categories: the store comes from the session, never from the body. */
export class CreateCategoryCommand extends Command<CategoryView> {
  constructor(
    readonly owner: OwnerIdentity,
    readonly body: CreateCategoryRequest,
  ) {
    super();
  }
}
