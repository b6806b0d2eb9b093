import { CatalogMessages, MAX_PRODUCT_IMAGES } from '@tiendita/contracts';
import { assertNever, IllegalStateError, NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import type { ProductEvent } from './product.events';
import type { ProductFields, ProductState } from './product.state';

/** Creates a product; ids and the actor come in with the command. */
export interface CreateProduct {
  type: 'CreateProduct';
  productId: string;
  storeId: string;
  actor: string;
  name: string;
  description: string | null;
  sku: string | null;
  priceCentavos: number;
  discountPercentage: number;
  categoryId: string | null;
  images: string[];
  isActive: boolean;
  initialStock: number;
}

/** Changes any subset of the product's fields; undefined = unchanged. */
export interface UpdateProduct {
  type: 'UpdateProduct';
  productId: string;
  storeId: string;
  actor: string;
  changes: {
    name?: string;
    description?: string | null;
    sku?: string | null;
    priceCentavos?: number;
    discountPercentage?: number;
    categoryId?: string | null;
    images?: string[];
    isActive?: boolean;
  };
  /** Recorded in the price history when price or discount change. */
  changeReason: string | null;
}

export interface DeleteProduct {
  type: 'DeleteProduct';
  productId: string;
  storeId: string;
}

export interface ActivateProduct {
  type: 'ActivateProduct';
  productId: string;
  storeId: string;
}

export interface DeactivateProduct {
  type: 'DeactivateProduct';
  productId: string;
  storeId: string;
}

export type ProductCommand = CreateProduct | UpdateProduct | DeleteProduct | ActivateProduct | DeactivateProduct;

type Listed = Extract<ProductState, ProductFields>;

/** The product of this store, or 404: another tenant's product is indistinguishable from none. */
function listed(state: ProductState, storeId: string): Listed {
  if ((state.status === 'active' || state.status === 'inactive') && state.storeId === storeId) return state;
  throw new NotFoundError(CatalogMessages.productNotFound);
}

function checkName(name: string): void {
  if (name.trim().length === 0) throw new ValidationError(CatalogMessages.productNameRequired, { fields: { name: CatalogMessages.productNameRequired } });
}

function checkPrice(priceCentavos: number): void {
  if (!Number.isInteger(priceCentavos) || priceCentavos < 0) {
    throw new ValidationError(CatalogMessages.priceRequired, { fields: { price: CatalogMessages.priceRequired } });
  }
}

function checkDiscount(discount: number): void {
  if (!Number.isFinite(discount) || discount < 0 || discount > 100) {
    throw new ValidationError(CatalogMessages.discountRange, { fields: { discountPercentage: CatalogMessages.discountRange } });
  }
}

function checkImages(images: string[]): void {
  if (images.length > MAX_PRODUCT_IMAGES) {
    const message = CatalogMessages.maxImages(MAX_PRODUCT_IMAGES);
    throw new ValidationError(message, { fields: { images: message } });
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export function decideCreate(command: CreateProduct, state: ProductState): ProductEvent[] {
  if (state.status !== 'none') throw new IllegalStateError(CatalogMessages.productExists);
  checkName(command.name);
  checkPrice(command.priceCentavos);
  checkDiscount(command.discountPercentage);
  checkImages(command.images);
  if (!Number.isInteger(command.initialStock) || command.initialStock < 0) {
    throw new ValidationError(CatalogMessages.stockInvalid, { fields: { stock: CatalogMessages.stockInvalid } });
  }
  return [
    {
      type: 'ProductCreated',
      data: {
        productId: command.productId,
        storeId: command.storeId,
        name: command.name.trim(),
        description: command.description,
        sku: command.sku,
        priceCentavos: command.priceCentavos,
        discountPercentage: command.discountPercentage,
        categoryId: command.categoryId,
        images: [...command.images],
        isActive: command.isActive,
        initialStock: command.initialStock,
        createdBy: command.actor,
      },
    },
  ];
}

/**
 * Emits only what changed: ProductUpdated for the descriptive fields, ProductPriceChanged
 * (the price history entry) for price or discount, and ProductActivated/Deactivated.
 */
export function decideUpdate(command: UpdateProduct, state: ProductState): ProductEvent[] {
  const product = listed(state, command.storeId);
  const c = command.changes;
  const events: ProductEvent[] = [];
  const changes: Extract<ProductEvent, { type: 'ProductUpdated' }>['data']['changes'] = {};
  if (c.name !== undefined) {
    checkName(c.name);
    if (c.name.trim() !== product.name) changes.name = c.name.trim();
  }
  if (c.description !== undefined && c.description !== product.description) changes.description = c.description;
  if (c.sku !== undefined && c.sku !== product.sku) changes.sku = c.sku;
  if (c.categoryId !== undefined && c.categoryId !== product.categoryId) changes.categoryId = c.categoryId;
  if (c.images !== undefined) {
    checkImages(c.images);
    if (!sameList(c.images, product.images)) changes.images = [...c.images];
  }
  if (Object.keys(changes).length > 0) {
    events.push({ type: 'ProductUpdated', data: { productId: product.productId, storeId: product.storeId, changes } });
  }

  const newPrice = c.priceCentavos ?? product.priceCentavos;
  const newDiscount = c.discountPercentage ?? product.discountPercentage;
  checkPrice(newPrice);
  checkDiscount(newDiscount);
  if (newPrice !== product.priceCentavos || newDiscount !== product.discountPercentage) {
    events.push({
      type: 'ProductPriceChanged',
      data: {
        productId: product.productId,
        storeId: product.storeId,
        oldPriceCentavos: product.priceCentavos,
        newPriceCentavos: newPrice,
        oldDiscountPercentage: product.discountPercentage,
        newDiscountPercentage: newDiscount,
        changeReason: command.changeReason,
        changedBy: command.actor,
      },
    });
  }

  if (c.isActive === true && product.status === 'inactive') {
    events.push({ type: 'ProductActivated', data: { productId: product.productId, storeId: product.storeId } });
  }
  if (c.isActive === false && product.status === 'active') {
    events.push({ type: 'ProductDeactivated', data: { productId: product.productId, storeId: product.storeId } });
  }
  return events;
}

export function decideDelete(command: DeleteProduct, state: ProductState): ProductEvent[] {
  const product = listed(state, command.storeId);
  return [{ type: 'ProductDeleted', data: { productId: product.productId, storeId: product.storeId } }];
}

/** Activating an active product changes nothing (no event). */
export function decideActivate(command: ActivateProduct, state: ProductState): ProductEvent[] {
  const product = listed(state, command.storeId);
  if (product.status === 'active') return [];
  return [{ type: 'ProductActivated', data: { productId: product.productId, storeId: product.storeId } }];
}

export function decideDeactivate(command: DeactivateProduct, state: ProductState): ProductEvent[] {
  const product = listed(state, command.storeId);
  if (product.status === 'inactive') return [];
  return [{ type: 'ProductDeactivated', data: { productId: product.productId, storeId: product.storeId } }];
}

export function decideProduct(command: ProductCommand, state: ProductState): ProductEvent[] {
  switch (command.type) {
    case 'CreateProduct':
      return decideCreate(command, state);
    case 'UpdateProduct':
      return decideUpdate(command, state);
    case 'DeleteProduct':
      return decideDelete(command, state);
    case 'ActivateProduct':
      return decideActivate(command, state);
    case 'DeactivateProduct':
      return decideDeactivate(command, state);
    default:
      return assertNever(command);
  }
}
