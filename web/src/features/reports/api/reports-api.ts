import { keepPreviousData, type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CashCloseResponse, ReportPeriod, ReportResponse } from '@tiendita/contracts';
import { apiRequest, getQueryFn } from '../../../lib/query-client';

/** GET /api/reports?period=: the period's figures, series and recent activity. */
export function useReport(period: ReportPeriod) {
  return useQuery({ queryKey: [`/api/reports?period=${period}`], queryFn: getQueryFn<ReportResponse>({ on401: 'throw' }), placeholderData: keepPreviousData });
}

/** GET /api/reports/cash-close?date=YYYY-MM-DD. */
export function useCashClose(date: string) {
  return useQuery({ queryKey: [`/api/reports/cash-close?date=${date}`], queryFn: getQueryFn<CashCloseResponse>({ on401: 'throw' }) });
}

/** POST /api/reports/cash-close { date, countedCash, note }. */
export function useRecordCashCount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: { date: string; countedCash: number; note: string | null }) => (await (await apiRequest('POST', '/api/reports/cash-close', body)).json()) as CashCloseResponse,
    onSuccess: (data) => client.setQueryData([`/api/reports/cash-close?date=${data.date}`], data),
  });
}

/** Downloads an export of the period (the browser saves the file the server names). */
export function exportUrl(kind: 'xlsx' | 'pdf', period: ReportPeriod): string {
  return `/api/reports/export.${kind}?period=${period}`;
}

/**
 * Marks every figure reporting serves stale (the stat cards, every period's report, the sales
 * analysis), so the screens showing them fetch again: after a sale or an order's status change.
 */
export function invalidateSalesFigures(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && /^\/api\/(stats|reports|ai\/sales-insights)/.test(q.queryKey[0]) });
}
