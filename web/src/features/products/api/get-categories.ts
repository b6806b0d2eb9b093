import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CategoryView } from '@tiendita/contracts';
import { categoryKeys } from './keys';

/** GET /api/categories: the store's categories (default query function). */
export const categoriesQueryOptions = () => queryOptions<CategoryView[]>({ queryKey: categoryKeys.all });

export function useCategories() {
  return useQuery(categoriesQueryOptions());
}
