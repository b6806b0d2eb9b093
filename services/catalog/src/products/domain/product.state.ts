import type { ProductEvent } from './product.events';

/** The product fields the rules need; money in centavos. */
export interface ProductFields {
  productId: string;
  storeId: string;
  name: string;
  description: string | null;
  sku: string | null;
  priceCentavos: number;
  discountPercentage: number;
  categoryId: string | null;
  images: string[];
  /** Stock asked for at creation: inventory opens the stock item with it. */
  initialStock: number;
}

export type ProductState =
  | { status: 'none' }
  | ({ status: 'active' } & ProductFields)
  | ({ status: 'inactive' } & ProductFields)
  | { status: 'deleted'; productId: string; storeId: string };

export const initialProductState = (): ProductState => ({ status: 'none' });

/** Folds one event; total and pure: an event that does not fit leaves the state as it is. */
export function evolveProduct(state: ProductState, event: ProductEvent): ProductState {
  switch (event.type) {
    case 'ProductCreated': {
      if (state.status !== 'none') return state;
      const d = event.data;
      return {
        status: d.isActive ? 'active' : 'inactive',
        productId: d.productId,
        storeId: d.storeId,
        name: d.name,
        description: d.description,
        sku: d.sku,
        priceCentavos: d.priceCentavos,
        discountPercentage: d.discountPercentage,
        categoryId: d.categoryId,
        images: [...d.images],
        initialStock: d.initialStock,
      };
    }
    case 'ProductUpdated': {
      if (state.status !== 'active' && state.status !== 'inactive') return state;
      const c = event.data.changes;
      return {
        ...state,
        ...(c.name !== undefined ? { name: c.name } : {}),
        ...(c.description !== undefined ? { description: c.description } : {}),
        ...(c.sku !== undefined ? { sku: c.sku } : {}),
        ...(c.categoryId !== undefined ? { categoryId: c.categoryId } : {}),
        ...(c.images !== undefined ? { images: [...c.images] } : {}),
      };
    }
    case 'ProductPriceChanged':
      if (state.status !== 'active' && state.status !== 'inactive') return state;
      return { ...state, priceCentavos: event.data.newPriceCentavos, discountPercentage: event.data.newDiscountPercentage };
    case 'ProductActivated':
      return state.status === 'inactive' ? { ...state, status: 'active' } : state;
    case 'ProductDeactivated':
      return state.status === 'active' ? { ...state, status: 'inactive' } : state;
    case 'ProductDeleted':
      if (state.status !== 'active' && state.status !== 'inactive') return state;
      return { status: 'deleted', productId: state.productId, storeId: state.storeId };
    default:
      return state;
  }
}
