import { CatalogMessages } from '@tiendita/contracts';
import { IllegalStateError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import { categoryBelongsTo, categoryDecider, type CategoryEvent } from './category.decider';

const spec = deciderSpec(categoryDecider);
const categoryId = '11111111-1111-4111-8111-111111111111';
const storeId = '22222222-2222-4222-8222-222222222222';
const created: CategoryEvent = { type: 'CategoryCreated', data: { categoryId, storeId, name: 'Bebidas', description: null } };

describe('Category decider', () => {
  it('creates a category with a trimmed name', () => {
    spec.given([]).when({ type: 'CreateCategory', categoryId, storeId, name: ' Bebidas ', description: null }).then([created]);
  });
  it('refuses an empty name: El nombre de la categoría es requerido.', () => {
    spec
      .given([])
      .when({ type: 'CreateCategory', categoryId, storeId, name: '   ', description: null })
      .thenThrows(ValidationError, CatalogMessages.categoryNameRequired);
  });
  it('refuses to create it twice', () => {
    spec.given([created]).when({ type: 'CreateCategory', categoryId, storeId, name: 'Otra', description: null }).thenThrows(IllegalStateError);
  });
  it('belongs only to its own store', () => {
    const state = categoryDecider.evolve(categoryDecider.initialState(), created);
    expect(categoryBelongsTo(state, storeId)).toBe(true);
    expect(categoryBelongsTo(state, '33333333-3333-4333-8333-333333333333')).toBe(false);
    expect(categoryBelongsTo(categoryDecider.initialState(), storeId)).toBe(false);
  });
});
