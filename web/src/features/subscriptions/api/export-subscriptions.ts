import { apiRequest } from '../../../lib/query-client';

/** GET /api/subscriptions/export.csv, saved by the browser as suscriptores-<date>.csv. */
export async function exportSubscriptions(): Promise<void> {
  const res = await apiRequest('GET', '/api/subscriptions/export.csv');
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `suscriptores-${new Date().toLocaleDateString('en-CA', { timeZone: 'America/Guatemala' })}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
