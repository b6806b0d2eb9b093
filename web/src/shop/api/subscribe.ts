import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import type { SubscribeInput } from '../lib/contracts';

/** POST /api/public/subscribe/{store}: name and email required, phone optional, provider 'email'. */
export async function subscribe(store: string, body: SubscribeInput): Promise<void> {
  await apiRequest('POST', `/api/public/subscribe/${encodeURIComponent(store)}`, body);
}

export function useSubscribe(store: string) {
  return useMutation({ mutationFn: (body: SubscribeInput) => subscribe(store, body) });
}
