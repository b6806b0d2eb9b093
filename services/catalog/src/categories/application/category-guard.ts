import { EVENT_STORE } from '@tiendita/service-kit';
import { Inject, Injectable } from '@nestjs/common';
import { CatalogMessages } from '@tiendita/contracts';
import { fold, type PostgresEventStore, ValidationError } from '@tiendita/eventsourcing';
import { categoryBelongsTo, categoryDecider, type CategoryEvent, categoryStreamId } from '../domain/category.decider';

/** A product may only use a category of its own store; checked on the write side (the category's stream). */
@Injectable()
export class CategoryGuard {
  constructor(@Inject(EVENT_STORE) private readonly store: PostgresEventStore) {}

  async assertBelongs(categoryId: string | null | undefined, storeId: string): Promise<void> {
    if (!categoryId) return;
    const events = await this.store.readStream(categoryStreamId(categoryId));
    const state = fold(categoryDecider, events.map((e) => ({ type: e.type, data: e.data }) as CategoryEvent));
    if (!categoryBelongsTo(state, storeId)) {
      throw new ValidationError(CatalogMessages.categoryNotFound, { fields: { categoryId: CatalogMessages.categoryNotFound } });
    }
  }
}
