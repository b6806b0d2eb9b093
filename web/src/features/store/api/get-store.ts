import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StoreView } from '@tiendita/contracts';
import { getQueryFn } from '../../../lib/query-client';
import { storeKeys } from './keys';

/** GET /api/store: the signed-in owner's store. */
export const getStore = getQueryFn<StoreView>({ on401: 'throw' });

export const storeQueryOptions = () => queryOptions({ queryKey: storeKeys.current, queryFn: getStore });

export function useStore() {
  return useQuery(storeQueryOptions());
}
