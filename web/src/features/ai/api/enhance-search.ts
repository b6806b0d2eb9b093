import { useMutation } from '@tanstack/react-query';
import type { EnhanceSearchResponse } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';

/** POST /api/ai/enhance-search/{store} (public): intent, enhancedTerms and suggestedProducts. */
export async function enhanceSearch(store: string, query: string): Promise<EnhanceSearchResponse> {
  const res = await apiRequest('POST', `/api/ai/enhance-search/${encodeURIComponent(store)}`, { query });
  return (await res.json()) as EnhanceSearchResponse;
}

export function useEnhanceSearch(store: string) {
  return useMutation({ mutationFn: (query: string) => enhanceSearch(store, query) });
}
