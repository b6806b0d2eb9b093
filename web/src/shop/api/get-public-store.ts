import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicStoreView } from '../lib/contracts';
import { shopKeys } from './keys';

/** GET /api/public/store/{store}: the store's identity, contact data and colours (default query function). */
export const publicStoreQueryOptions = (store: string) => queryOptions<PublicStoreView>({ queryKey: shopKeys.store(store) });

export function usePublicStore(store: string) {
  return useQuery(publicStoreQueryOptions(store));
}
