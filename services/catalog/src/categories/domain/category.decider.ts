import { CatalogMessages, type CategoryCreated } from '@tiendita/contracts';
import { assertNever, type Decider, IllegalStateError, ValidationError } from '@tiendita/eventsourcing';

/** Events of the Category aggregate (stream `category-<id>`). */
export type CategoryEvent = { type: 'CategoryCreated'; data: CategoryCreated };

export type CategoryState = { status: 'none' } | { status: 'created'; categoryId: string; storeId: string; name: string };

export interface CreateCategory {
  type: 'CreateCategory';
  categoryId: string;
  storeId: string;
  name: string;
  description: string | null;
}

export type CategoryCommand = CreateCategory;

export const categoryStreamId = (categoryId: string): string => `category-${categoryId}`;

export function evolveCategory(state: CategoryState, event: CategoryEvent): CategoryState {
  switch (event.type) {
    case 'CategoryCreated':
      if (state.status !== 'none') return state;
      return { status: 'created', categoryId: event.data.categoryId, storeId: event.data.storeId, name: event.data.name };
    default:
      return state;
  }
}

export function decideCreateCategory(command: CreateCategory, state: CategoryState): CategoryEvent[] {
  if (state.status !== 'none') throw new IllegalStateError(CatalogMessages.categoryExists);
  const name = command.name.trim();
  if (name.length === 0) throw new ValidationError(CatalogMessages.categoryNameRequired, { fields: { name: CatalogMessages.categoryNameRequired } });
  return [{ type: 'CategoryCreated', data: { categoryId: command.categoryId, storeId: command.storeId, name, description: command.description } }];
}

export function decideCategory(command: CategoryCommand, state: CategoryState): CategoryEvent[] {
  switch (command.type) {
    case 'CreateCategory':
      return decideCreateCategory(command, state);
    default:
      return assertNever(command.type);
  }
}

/** The Category aggregate as a pure decider. */
export const categoryDecider: Decider<CategoryState, CategoryCommand, CategoryEvent> = {
  initialState: () => ({ status: 'none' }),
  evolve: evolveCategory,
  decide: decideCategory,
};

/** True when the category exists and belongs to the store (a product may only use its own store's categories). */
export function categoryBelongsTo(state: CategoryState, storeId: string): boolean {
  return state.status === 'created' && state.storeId === storeId;
}
