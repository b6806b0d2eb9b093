import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StoreView, UpdateStoreInput } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { storeKeys } from '../../store/api/keys';

/** PUT /api/store/{id}: any subset of the store's fields; answers the saved store. */
export async function updateStore(id: string, body: UpdateStoreInput): Promise<StoreView> {
  const res = await apiRequest('PUT', `/api/store/${encodeURIComponent(id)}`, body);
  return (await res.json()) as StoreView;
}

export function useUpdateStore() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateStoreInput }) => updateStore(id, body),
    onSuccess: (store) => {
      queryClient.setQueryData(storeKeys.current, store);
      return queryClient.invalidateQueries({ queryKey: storeKeys.all });
    },
  });
}
