import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StoreSettingsDetails, UpdateStoreSettingsRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { settingsKeys } from './keys';

/** PUT /api/store/settings: any subset; the tax regime sets the rate. Answers the saved record. */
export async function updateStoreSettings(body: UpdateStoreSettingsRequest): Promise<StoreSettingsDetails> {
  const res = await apiRequest('PUT', '/api/store/settings', body);
  return (await res.json()) as StoreSettingsDetails;
}

export function useUpdateStoreSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateStoreSettings,
    onSuccess: (settings) => {
      queryClient.setQueryData(settingsKeys.settings, settings);
      return queryClient.invalidateQueries({ queryKey: settingsKeys.all });
    },
  });
}
