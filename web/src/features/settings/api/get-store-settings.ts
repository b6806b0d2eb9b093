import { queryOptions, useQuery } from '@tanstack/react-query';
import type { StoreSettingsDetails } from '@tiendita/contracts';
import { settingsKeys } from './keys';

/** GET /api/store/settings: tax regime and rate, currency, receipts, kash/zigi (default query function). */
export const storeSettingsQueryOptions = () => queryOptions<StoreSettingsDetails>({ queryKey: settingsKeys.settings });

export function useStoreSettings() {
  return useQuery(storeSettingsQueryOptions());
}
