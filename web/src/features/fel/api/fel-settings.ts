import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FelSettingsView, UpdateFelSettingsBody } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { felKeys, isFelQuery } from './keys';

/** GET /api/fel/settings (default query function): never the credentials, only whether each is set. */
export const felSettingsQueryOptions = () => queryOptions<FelSettingsView>({ queryKey: felKeys.settings });

export function useFelSettings() {
  return useQuery(felSettingsQueryOptions());
}

/** PUT /api/fel/settings. */
export function useUpdateFelSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateFelSettingsBody) => apiJson<FelSettingsView>('PUT', '/api/fel/settings', { json: body }),
    onSuccess: (saved) => {
      client.setQueryData(felKeys.settings, saved);
      void client.invalidateQueries({ predicate: (q) => isFelQuery(q.queryKey) && q.queryKey[0] !== '/api/fel/settings' });
    },
  });
}
