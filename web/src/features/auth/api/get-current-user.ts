import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@tiendita/contracts';
import { getQueryFn } from '../../../lib/query-client';
import { authKeys } from './keys';

/** GET /api/auth/user: the signed-in owner, or null when the session is missing (401). */
export const getCurrentUser = getQueryFn<CurrentUser | null>({ on401: 'returnNull' });

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.user,
    queryFn: getCurrentUser,
    staleTime: 300_000,
    retry: false,
    refetchOnWindowFocus: false,
    // Offline the call is still made: the service worker answers the last known user, so the owner
    // app (the POS) opens without a connection (issue 28).
    networkMode: 'offlineFirst',
  });

/** Signed in when the current-user call answers with data and no error; any failure means signed out. */
export function useCurrentUser(): { user: CurrentUser | null; isLoading: boolean } {
  const query = useQuery(currentUserQueryOptions());
  return { user: query.isError ? null : (query.data ?? null), isLoading: query.isLoading };
}
