import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SubdomainAvailability } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { settingsKeys } from './keys';

/** GET /api/store/subdomain-availability?subdomain=: whether the store could take that subdomain. */
export async function checkSubdomain(subdomain: string, signal?: AbortSignal): Promise<SubdomainAvailability> {
  return apiJson<SubdomainAvailability>('GET', `/api/store/subdomain-availability?subdomain=${encodeURIComponent(subdomain)}`, { signal });
}

export const subdomainQueryOptions = (subdomain: string) =>
  queryOptions({ queryKey: settingsKeys.subdomain(subdomain), queryFn: ({ signal }) => checkSubdomain(subdomain, signal), staleTime: 10_000 });

/** Asks only once the owner paused typing (the caller debounces) and for a value that differs from the saved one. */
export function useSubdomainAvailability(subdomain: string, enabled: boolean) {
  return useQuery({ ...subdomainQueryOptions(subdomain), enabled });
}

