import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { FelDocumentsPage, FelStatus } from '@tiendita/contracts';
import { apiJson } from '../../../lib/api';
import { felKeys } from './keys';

export interface FelDocumentsFilter {
  status?: FelStatus;
  from?: string;
  to?: string;
  page: number;
}

export function documentsQuery(filter: FelDocumentsFilter): string {
  const q = new URLSearchParams();
  if (filter.status) q.set('status', filter.status);
  if (filter.from) q.set('from', filter.from);
  if (filter.to) q.set('to', filter.to);
  q.set('page', String(filter.page));
  q.set('limit', '20');
  return q.toString();
}

/** GET /api/fel/documents?status=&from=&to=&page=: the 'Facturas' list, newest first. */
export function useFelDocuments(filter: FelDocumentsFilter) {
  const query = documentsQuery(filter);
  return useQuery({
    queryKey: felKeys.documents(query),
    queryFn: () => apiJson<FelDocumentsPage>('GET', `/api/fel/documents?${query}`),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/fel/summary: documents pending and refused (the dashboard's notice). */
export function useFelSummary() {
  return useQuery({ queryKey: felKeys.summary, queryFn: () => apiJson<{ pending: number; failed: number }>('GET', '/api/fel/summary') });
}

/** The accountant's monthly book (the browser saves the file the server names). */
export function monthlyBookUrl(month: string, format: 'xlsx' | 'csv'): string {
  return `/api/fel/documents/export?month=${month}&format=${format}`;
}
