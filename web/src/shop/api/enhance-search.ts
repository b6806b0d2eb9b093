import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EnhanceSearchResponse } from '@tiendita/contracts';
import { apiJson } from '../../lib/api';
import { AI_SEARCH_MIN_CHARS } from '../lib/ai-search';
import { shopKeys } from './keys';

/** POST /api/ai/enhance-search/{store}: suggestions for what the shopper types (public, no model code here). */
export async function enhanceSearch(store: string, query: string, signal?: AbortSignal): Promise<EnhanceSearchResponse> {
  return apiJson<EnhanceSearchResponse>('POST', `/api/ai/enhance-search/${encodeURIComponent(store)}`, { json: { query }, signal });
}

/**
 * Products like a search that matched no product word for word (a typo, a plural, a price phrase):
 * the AI search's suggestions, for the grid's empty state.
 */
export const similarProductsQueryOptions = (store: string, search: string) =>
  queryOptions({
    queryKey: shopKeys.similar(store, search),
    queryFn: ({ signal }) => enhanceSearch(store, search, signal).then((r) => r.suggestedProducts),
  });

export function useSimilarProducts(store: string, search: string, enabled: boolean) {
  return useQuery({ ...similarProductsQueryOptions(store, search), enabled: enabled && search.trim().length >= AI_SEARCH_MIN_CHARS });
}
