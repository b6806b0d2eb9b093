import { ProjectionHost, EVENT_STORE } from '@tiendita/service-kit';
import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CategoryView } from '@tiendita/contracts';
import { handleCommand, type PostgresEventStore } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import { categoryDecider, categoryStreamId } from '../domain/category.decider';
import { CreateCategoryCommand } from './create-category.command';

@CommandHandler(CreateCategoryCommand)
export class CreateCategoryHandler implements ICommandHandler<CreateCategoryCommand, CategoryView> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ owner, body }: CreateCategoryCommand): Promise<CategoryView> {
    const categoryId = randomUUID();
    const occurredAt = new Date().toISOString();
    const { newEvents, version } = await handleCommand(
      this.store,
      categoryStreamId(categoryId),
      categoryDecider,
      { type: 'CreateCategory', categoryId, storeId: owner.storeId, name: body.name, description: body.description ?? null },
      { metadata: { storeId: owner.storeId, actor: owner.userId, occurredAt } },
    );
    await this.readModels.waitForStream(categoryStreamId(categoryId), version);
    const { data } = newEvents[0];
    return { id: data.categoryId, storeId: data.storeId, name: data.name, description: data.description, createdAt: occurredAt };
  }
}
