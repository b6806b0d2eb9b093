import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PriceHistoryEntry } from '@tiendita/contracts';
import { productKeys } from './keys';

/** GET /api/products/{id}/price-history (default query function), newest first as the server answers. */
export const priceHistoryQueryOptions = (productId: string) =>
  queryOptions<PriceHistoryEntry[]>({ queryKey: productKeys.priceHistory(productId), staleTime: 0 });

export function usePriceHistory(productId: string, enabled: boolean) {
  return useQuery({ ...priceHistoryQueryOptions(productId), enabled });
}
