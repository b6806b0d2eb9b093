import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicProductDetails } from '../lib/contracts';
import { shopKeys } from './keys';

/** GET /api/public/products/{productId}/details: the product with its approved ratings and comments. */
export const productDetailsQueryOptions = (productId: string) =>
  queryOptions<PublicProductDetails>({ queryKey: shopKeys.productDetails(productId) });

export function useProductDetails(productId: string, enabled = true) {
  return useQuery({ ...productDetailsQueryOptions(productId), enabled });
}
