import { CatalogMessages } from '@tiendita/contracts';
import { IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { deciderSpec } from '@tiendita/eventsourcing/testing';
import type { CreateProduct } from './product.decide';
import { productDecider } from './product.decider';
import type { ProductEvent } from './product.events';

const spec = deciderSpec(productDecider);
const productId = '11111111-1111-4111-8111-111111111111';
const storeId = '22222222-2222-4222-8222-222222222222';
const otherStore = '33333333-3333-4333-8333-333333333333';
const owner = '44444444-4444-4444-8444-444444444444';

const create: CreateProduct = {
  type: 'CreateProduct',
  productId,
  storeId,
  actor: owner,
  name: 'Café de Antigua 1 lb',
  description: 'Tostado medio',
  sku: 'CAF-001',
  priceCentavos: 7550,
  discountPercentage: 0,
  categoryId: null,
  images: ['/temp-uploads/products/a.png', '/temp-uploads/products/b.png'],
  isActive: true,
  initialStock: 12,
};

const created: ProductEvent = {
  type: 'ProductCreated',
  data: {
    productId,
    storeId,
    name: 'Café de Antigua 1 lb',
    description: 'Tostado medio',
    sku: 'CAF-001',
    priceCentavos: 7550,
    discountPercentage: 0,
    categoryId: null,
    images: ['/temp-uploads/products/a.png', '/temp-uploads/products/b.png'],
    isActive: true,
    initialStock: 12,
    createdBy: owner,
  },
};
const deactivated: ProductEvent = { type: 'ProductDeactivated', data: { productId, storeId } };
const deleted: ProductEvent = { type: 'ProductDeleted', data: { productId, storeId } };
const update = (changes: object, changeReason: string | null = null) =>
  ({ type: 'UpdateProduct', productId, storeId, actor: owner, changes, changeReason }) as const;

describe('Product decider', () => {
  describe('create', () => {
    it('creates a product with its opening stock for inventory', () => {
      spec.given([]).when(create).then([created]);
    });
    it('trims the name', () => {
      const [event] = spec.given([]).when({ ...create, name: '  Café  ' }).events();
      expect(event.type === 'ProductCreated' && event.data.name).toBe('Café');
    });
    it('refuses an empty name: El nombre del producto es requerido.', () => {
      spec.given([]).when({ ...create, name: '  ' }).thenThrows(ValidationError, CatalogMessages.productNameRequired);
    });
    it('refuses a negative price', () => {
      spec.given([]).when({ ...create, priceCentavos: -1 }).thenThrows(ValidationError, CatalogMessages.priceRequired);
    });
    it('refuses a discount above 100', () => {
      spec.given([]).when({ ...create, discountPercentage: 100.01 }).thenThrows(ValidationError, CatalogMessages.discountRange);
    });
    it('accepts exactly 10 images and refuses the 11th: Solo puedes tener máximo 10 imágenes por producto.', () => {
      const ten = Array.from({ length: 10 }, (_, i) => `/objects/${i}.png`);
      expect(spec.given([]).when({ ...create, images: ten }).events()).toHaveLength(1);
      spec
        .given([])
        .when({ ...create, images: [...ten, '/objects/10.png'] })
        .thenThrows(ValidationError, 'Solo puedes tener máximo 10 imágenes por producto.');
    });
    it('refuses a negative or fractional opening stock', () => {
      spec.given([]).when({ ...create, initialStock: -1 }).thenThrows(ValidationError, CatalogMessages.stockInvalid);
      spec.given([]).when({ ...create, initialStock: 1.5 }).thenThrows(ValidationError, CatalogMessages.stockInvalid);
    });
    it('refuses to create the same product twice', () => {
      spec.given([created]).when(create).thenThrows(IllegalStateError);
    });
  });

  describe('update', () => {
    it('emits only the descriptive fields that changed', () => {
      spec
        .given([created])
        .when(update({ name: 'Café de Antigua', sku: 'CAF-001', description: 'Tostado oscuro' }))
        .then([{ type: 'ProductUpdated', data: { productId, storeId, changes: { name: 'Café de Antigua', description: 'Tostado oscuro' } } }]);
    });
    it('changing nothing emits nothing', () => {
      spec.given([created]).when(update({ name: 'Café de Antigua 1 lb', priceCentavos: 7550, isActive: true })).then([]);
    });
    it('a price or discount change writes a price history entry with old and new values, reason and who', () => {
      spec
        .given([created])
        .when(update({ priceCentavos: 8000, discountPercentage: 10 }, 'Subió el proveedor'))
        .then([
          {
            type: 'ProductPriceChanged',
            data: {
              productId,
              storeId,
              oldPriceCentavos: 7550,
              newPriceCentavos: 8000,
              oldDiscountPercentage: 0,
              newDiscountPercentage: 10,
              changeReason: 'Subió el proveedor',
              changedBy: owner,
            },
          },
        ]);
    });
    it('a discount-only change also writes price history', () => {
      const events = spec.given([created]).when(update({ discountPercentage: 15 })).events();
      expect(events).toEqual([expect.objectContaining({ type: 'ProductPriceChanged', data: expect.objectContaining({ oldPriceCentavos: 7550, newPriceCentavos: 7550, newDiscountPercentage: 15 }) })]);
    });
    it('deactivating through the form emits ProductDeactivated', () => {
      spec.given([created]).when(update({ isActive: false })).then([deactivated]);
    });
    it('re-activating an inactive product emits ProductActivated', () => {
      spec.given([created, deactivated]).when(update({ isActive: true })).then([{ type: 'ProductActivated', data: { productId, storeId } }]);
    });
    it('replaces the images, the first being the main one, and refuses an 11th', () => {
      const images = ['/objects/x.webp', '/temp-uploads/products/a.png'];
      spec.given([created]).when(update({ images })).then([{ type: 'ProductUpdated', data: { productId, storeId, changes: { images } } }]);
      const eleven = Array.from({ length: 11 }, (_, i) => `/objects/${i}.png`);
      spec.given([created]).when(update({ images: eleven })).thenThrows(ValidationError, CatalogMessages.maxImages(10));
    });
    it('removes the category with null', () => {
      const withCategory: ProductEvent = { ...created, data: { ...(created.data as object), categoryId: '55555555-5555-4555-8555-555555555555' } } as ProductEvent;
      spec.given([withCategory]).when(update({ categoryId: null })).then([{ type: 'ProductUpdated', data: { productId, storeId, changes: { categoryId: null } } }]);
    });
    it('refuses an empty name', () => {
      spec.given([created]).when(update({ name: '' })).thenThrows(ValidationError, CatalogMessages.productNameRequired);
    });
    it("another store's product is not found", () => {
      spec.given([created]).when({ ...update({ name: 'x' }), storeId: otherStore }).thenThrows(NotFoundError, CatalogMessages.productNotFound);
    });
    it('a deleted or unknown product is not found', () => {
      spec.given([created, deleted]).when(update({ name: 'x' })).thenThrows(NotFoundError, CatalogMessages.productNotFound);
      spec.given([]).when(update({ name: 'x' })).thenThrows(NotFoundError, CatalogMessages.productNotFound);
    });
  });

  describe('delete, activate, deactivate', () => {
    it('deletes a product', () => {
      spec.given([created]).when({ type: 'DeleteProduct', productId, storeId }).then([deleted]);
    });
    it('deleting twice is not found', () => {
      spec.given([created, deleted]).when({ type: 'DeleteProduct', productId, storeId }).thenThrows(NotFoundError);
    });
    it("cannot delete another store's product", () => {
      spec.given([created]).when({ type: 'DeleteProduct', productId, storeId: otherStore }).thenThrows(NotFoundError);
    });
    it('deactivates and activates; repeating is a no-op', () => {
      spec.given([created]).when({ type: 'DeactivateProduct', productId, storeId }).then([deactivated]);
      spec.given([created, deactivated]).when({ type: 'DeactivateProduct', productId, storeId }).then([]);
      spec.given([created, deactivated]).when({ type: 'ActivateProduct', productId, storeId }).then([{ type: 'ProductActivated', data: { productId, storeId } }]);
      spec.given([created]).when({ type: 'ActivateProduct', productId, storeId }).then([]);
    });
  });

  it('evolve ignores events that do not fit the state', () => {
    const state = productDecider.evolve(productDecider.initialState(), deleted);
    expect(state).toEqual({ status: 'none' });
  });
});
