import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type CategoryView, CreateCategoryRequest } from '@tiendita/contracts';
import { Owner, type OwnerIdentity, parse } from '@tiendita/service-kit';
import { CreateCategoryCommand } from '../application/create-category.command';
import { ListCategoriesQuery } from '../application/list-categories.query';

/** Owner calls of spec §7 for categories. */
@Controller('api/categories')
export class CategoriesController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  list(@Owner() owner: OwnerIdentity): Promise<CategoryView[]> {
    return this.queries.execute(new ListCategoriesQuery(owner.storeId));
  }

  @Post()
  @HttpCode(201)
  create(@Owner() owner: OwnerIdentity, @Body() body: unknown): Promise<CategoryView> {
    return this.commands.execute(new CreateCategoryCommand(owner, parse(CreateCategoryRequest, body)));
  }
}
