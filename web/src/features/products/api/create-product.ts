import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateProductRequest, ProductView } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { productKeys } from './keys';

/** The body of POST /api/products as the form sends it (defaults are the server's). */
export type CreateProductBody = Partial<CreateProductRequest> & Pick<CreateProductRequest, 'name' | 'price'>;

/** POST /api/products. */
export async function createProduct(body: CreateProductBody): Promise<ProductView> {
  const res = await apiRequest('POST', '/api/products', body);
  return (await res.json()) as ProductView;
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: productKeys.all }),
  });
}
