import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/query-client';
import { productKeys } from './keys';

/** DELETE /api/products/{id}. */
export async function deleteProduct(id: string): Promise<void> {
  await apiRequest('DELETE', `/api/products/${encodeURIComponent(id)}`);
}

export function useDeleteProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
