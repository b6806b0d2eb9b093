import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../lib/query-client';
import type { SubscriptionLinkAnswer } from '../lib/contracts';

/** What a mailed link asks for (?suscripcion=confirmar|cancelar&token=…). */
export type SubscriptionLinkAction = 'confirmar' | 'cancelar';

const PATHS: Record<SubscriptionLinkAction, string> = {
  confirmar: '/api/public/subscription/confirm',
  cancelar: '/api/public/unsubscribe',
};

/** POST the link's token: confirms a requested subscription, or ends one. Only this button does it, never the link itself. */
export async function sendSubscriptionLink(action: SubscriptionLinkAction, token: string): Promise<SubscriptionLinkAnswer> {
  const res = await apiRequest('POST', PATHS[action], { token });
  return (await res.json()) as SubscriptionLinkAnswer;
}

export function useSubscriptionLink(action: SubscriptionLinkAction, token: string) {
  return useMutation({ mutationFn: () => sendSubscriptionLink(action, token) });
}
