import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SalesInsightsResponse } from '@tiendita/contracts';
import { aiKeys } from './keys';

/** GET /api/ai/sales-insights (served by reporting): fresh for 5 minutes, no refetch on focus (spec 000 §7). */
export const salesInsightsQueryOptions = () =>
  queryOptions<SalesInsightsResponse>({ queryKey: aiKeys.salesInsights(), staleTime: 5 * 60_000, refetchOnWindowFocus: false });

/** On error the card shows 'No se pudo cargar el análisis' (AiMessages.insightsFailed) with a retry. */
export function useSalesInsights() {
  return useQuery(salesInsightsQueryOptions());
}
