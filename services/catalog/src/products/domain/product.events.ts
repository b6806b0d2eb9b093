import type {
  ProductActivated,
  ProductCreated,
  ProductDeactivated,
  ProductDeleted,
  ProductPriceChanged,
  ProductUpdated,
} from '@tiendita/contracts';

/** Events of the Product aggregate (stream `product-<id>`), payloads from contracts. */
export type ProductEvent =
  | { type: 'ProductCreated'; data: ProductCreated }
  | { type: 'ProductUpdated'; data: ProductUpdated }
  | { type: 'ProductPriceChanged'; data: ProductPriceChanged }
  | { type: 'ProductActivated'; data: ProductActivated }
  | { type: 'ProductDeactivated'; data: ProductDeactivated }
  | { type: 'ProductDeleted'; data: ProductDeleted };

export const productStreamId = (productId: string): string => `product-${productId}`;
