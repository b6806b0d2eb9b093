import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProductRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { productKeys } from './keys';

/** PUT /api/products/{id}: any subset of the product's fields. */
export async function updateProduct(id: string, body: UpdateProductRequest): Promise<void> {
  await apiRequest('PUT', `/api/products/${encodeURIComponent(id)}`, body);
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateProductRequest }) => updateProduct(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
