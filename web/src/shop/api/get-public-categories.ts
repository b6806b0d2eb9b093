import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CategoryView } from '../lib/contracts';
import { shopKeys } from './keys';

/** GET /api/public/categories/{store}: the categories for the shop's filter. */
export const publicCategoriesQueryOptions = (store: string) => queryOptions<CategoryView[]>({ queryKey: shopKeys.categories(store) });

export function usePublicCategories(store: string) {
  return useQuery(publicCategoriesQueryOptions(store));
}
