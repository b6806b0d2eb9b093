import { queryOptions, useQuery, keepPreviousData } from '@tanstack/react-query';
import type { SubscriptionList } from '@tiendita/contracts';
import { getQueryFn } from '../../../lib/query-client';
import { subscriptionKeys } from './keys';

const read = getQueryFn<SubscriptionList>({ on401: 'throw' });

/** GET /api/subscriptions?page=&limit=: active first, newest first. */
export const subscriptionsQueryOptions = (page = 1, limit = 10) =>
  queryOptions({
    queryKey: subscriptionKeys.list(page, limit),
    queryFn: (context) => read({ ...context, queryKey: [`/api/subscriptions?page=${page}&limit=${limit}`] }),
    placeholderData: keepPreviousData,
  });

export function useSubscriptions(page = 1, limit = 10) {
  return useQuery(subscriptionsQueryOptions(page, limit));
}
