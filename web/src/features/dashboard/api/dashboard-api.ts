import { useQuery } from '@tanstack/react-query';
import type { ReportResponse, SalesInsightsResponse, StatsResponse } from '@tiendita/contracts';
import { apiJson, isApiError } from '../../../lib/api';
import { getQueryFn } from '../../../lib/query-client';

/** Query keys of the dashboard; joined by '/' they are the GET paths. */
export const dashboardKeys = {
  stats: ['/api/stats'] as const,
  insights: ['/api/ai/sales-insights'] as const,
  subscriptions: ['/api/subscriptions'] as const,
  recent: ['/api/reports?period=year'] as const,
};

/** GET /api/stats: the stat cards (refreshed every 30 s). */
export function useStats() {
  return useQuery({ queryKey: dashboardKeys.stats, queryFn: getQueryFn<StatsResponse>({ on401: 'throw' }), refetchInterval: 30_000 });
}

/** GET /api/ai/sales-insights: fresh for 5 minutes, no refetch on window focus (spec 001 §7). */
export function useSalesInsights() {
  return useQuery({
    queryKey: dashboardKeys.insights,
    queryFn: getQueryFn<SalesInsightsResponse>({ on401: 'throw' }),
    staleTime: 5 * 60_000,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/** The newest orders (reporting's recent activity of the last year; the card shows 5). */
export function useRecentOrders() {
  return useQuery({ queryKey: dashboardKeys.recent, queryFn: getQueryFn<ReportResponse>({ on401: 'throw' }), select: (r) => r.recentOrders.slice(0, 5) });
}

export interface Subscription {
  id: string;
  name: string | null;
  email: string;
  phone: string | null;
  provider: string;
  subscribedAt: string;
}

/** GET /api/subscriptions; a 404 (the endpoint not deployed yet) reads as an empty list. */
export function useSubscriptions() {
  return useQuery({
    queryKey: dashboardKeys.subscriptions,
    queryFn: async ({ signal }): Promise<Subscription[]> => {
      try {
        const body = await apiJson<Subscription[] | { subscriptions: Subscription[] }>('GET', '/api/subscriptions', { signal });
        return Array.isArray(body) ? body : body.subscriptions;
      } catch (error) {
        if (isApiError(error) && error.status === 404) return [];
        throw error;
      }
    },
    retry: false,
  });
}

/** CSV of the subscriptions: name, email, phone, provider, subscription date (spec 000 §2). */
export function subscriptionsCsv(rows: Subscription[]): string {
  const cell = (v: string | null | undefined) => `"${(v ?? '').replace(/"/g, '""')}"`;
  const lines = [['Nombre', 'Email', 'Teléfono', 'Proveedor', 'Fecha de suscripción'].map(cell).join(',')];
  for (const r of rows) lines.push([r.name, r.email, r.phone, r.provider, r.subscribedAt ? new Date(r.subscribedAt).toISOString().slice(0, 10) : ''].map(cell).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
