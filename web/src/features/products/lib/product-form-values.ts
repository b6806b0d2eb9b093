import type { ProductView, UpdateProductRequest } from '@tiendita/contracts';
import type { CreateProductBody } from '../api/create-product';
import type { ProductFormValues } from '../components/product-form-fields';
import { NO_CATEGORY } from '../components/category-field';

/** The empty form of 'Agregar Nuevo Producto'. */
export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  name: '',
  description: '',
  sku: '',
  categoryId: NO_CATEGORY,
  price: null,
  discountPercentage: 0,
  stock: 0,
  isActive: true,
  images: [],
};

export function formValuesOf(product: ProductView): ProductFormValues {
  return {
    name: product.name,
    description: product.description ?? '',
    sku: product.sku ?? '',
    categoryId: product.categoryId ?? NO_CATEGORY,
    price: product.price,
    discountPercentage: product.discountPercentage,
    stock: product.stock,
    isActive: product.isActive,
    images: product.images,
    changeReason: '',
  };
}

/** A stock that is not a number becomes 0 (spec 001 §5); any other value goes as it is (a negative one is refused, never clamped). */
function stockOf(value: unknown): number {
  const n = value === null || value === undefined || value === '' ? 0 : Number(value);
  return Number.isFinite(n) ? n : 0;
}

/** POST body: an empty SKU or description is left out, and 'none' means no category. */
export function createBodyOf(values: ProductFormValues): CreateProductBody {
  const description = values.description?.trim();
  const sku = values.sku?.trim();
  return {
    name: values.name.trim(),
    ...(description ? { description } : {}),
    ...(sku ? { sku } : {}),
    price: values.price ?? 0,
    discountPercentage: values.discountPercentage ?? 0,
    stock: stockOf(values.stock),
    ...(values.categoryId && values.categoryId !== NO_CATEGORY ? { categoryId: values.categoryId } : {}),
    images: values.images,
    isActive: values.isActive,
  };
}

/** PUT body: every field of the form; a cleared SKU or description is sent empty so the server clears it. */
export function updateBodyOf(values: ProductFormValues, before: ProductView): UpdateProductRequest {
  const priceChanged = (values.price ?? 0) !== before.price || (values.discountPercentage ?? 0) !== before.discountPercentage;
  const reason = values.changeReason?.trim();
  return {
    name: values.name.trim(),
    description: values.description?.trim() ?? '',
    sku: values.sku?.trim() ?? '',
    price: values.price ?? 0,
    discountPercentage: values.discountPercentage ?? 0,
    stock: stockOf(values.stock),
    categoryId: values.categoryId && values.categoryId !== NO_CATEGORY ? values.categoryId : null,
    images: values.images,
    isActive: values.isActive,
    ...(priceChanged && reason ? { changeReason: reason } : {}),
  };
}
