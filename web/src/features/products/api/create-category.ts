import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CategoryView, CreateCategoryRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { categoryKeys } from './keys';

/** POST /api/categories: answers the created category, whose id the form then selects. */
export async function createCategory(body: CreateCategoryRequest): Promise<CategoryView> {
  const res = await apiRequest('POST', '/api/categories', body);
  return (await res.json()) as CategoryView;
}

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createCategory,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: categoryKeys.all }),
  });
}
