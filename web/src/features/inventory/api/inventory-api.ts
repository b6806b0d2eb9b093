import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdjustInventoryRequest, InventoryItem, LedgerEntry } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { apiRequest } from '../../../lib/query-client';

export interface InventoryParams {
  search?: string;
  categoryId?: string;
  lowStock?: 'true';
  outOfStock?: 'true';
  sortBy?: 'name' | 'stock' | 'category';
  sortOrder?: 'asc' | 'desc';
  page?: number;
  limit?: number;
}
export interface InventoryPage {
  products: InventoryItem[];
  total: number;
  totalPages: number;
  currentPage: number;
}
export interface HistoryParams {
  type?: string;
  from?: string;
  to?: string;
  page?: number;
  limit?: number;
}
export interface HistoryPage {
  history: LedgerEntry[];
  total: number;
  totalPages: number;
  currentPage: number;
}
export interface StockAlerts {
  count: number;
  products: { id: string; name: string; available: number; minimum: number }[];
  /** Units offline sales took that the stock lacked ('Vendido sin existencias: …'), until the product is counted. */
  shortfalls?: { productId: string; name: string; missing: number; message: string }[];
}

/** Query keys of the inventory feature (the first part is the GET path). */
export const inventoryKeys = {
  all: ['/api/inventory'] as const,
  list: (p: InventoryParams) => ['/api/inventory', 'list', p] as const,
  history: (p: HistoryParams) => ['/api/inventory', 'history', p] as const,
  productHistory: (productId: string) => ['/api/inventory', 'history', productId] as const,
  alerts: ['/api/inventory', 'alerts'] as const,
};

function toQuery(params: object): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  return q.toString();
}

function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  return apiJson<T>('GET', url, { signal });
}

/** GET /api/inventory?search&categoryId&lowStock&outOfStock&sortBy&sortOrder&page&limit. */
export function useInventory(params: InventoryParams) {
  return useQuery(
    queryOptions({
      queryKey: inventoryKeys.list(params),
      queryFn: ({ signal }) => getJson<InventoryPage>(`/api/inventory?${toQuery(params)}`, signal),
      placeholderData: keepPreviousData,
    }),
  );
}

/** GET /api/inventory/history?type&from&to&page&limit: the store's ledger, newest first. */
export function useStoreHistory(params: HistoryParams, enabled = true) {
  return useQuery({
    queryKey: inventoryKeys.history(params),
    queryFn: ({ signal }) => getJson<HistoryPage>(`/api/inventory/history?${toQuery(params)}`, signal),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** GET /api/inventory/history/{productId}: one product's ledger. */
export function useProductHistory(productId: string | null) {
  return useQuery({
    queryKey: inventoryKeys.productHistory(productId ?? ''),
    queryFn: ({ signal }) => getJson<HistoryPage>(`/api/inventory/history/${encodeURIComponent(productId!)}?page=1&limit=100`, signal),
    enabled: Boolean(productId),
  });
}

/** GET /api/inventory/alerts, polled every minute (the bell): one small indexed query. */
export function useStockAlerts() {
  return useQuery({
    queryKey: inventoryKeys.alerts,
    queryFn: ({ signal }) => getJson<StockAlerts>('/api/inventory/alerts', signal),
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
  });
}

/** POST /api/inventory/adjust. */
export function useAdjustInventory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: AdjustInventoryRequest) => (await apiRequest('POST', '/api/inventory/adjust', body)).json(),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: inventoryKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['/api/products'] });
    },
  });
}
