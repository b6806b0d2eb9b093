import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/query-client';
import type { SessionsEnded } from './change-password';

/** POST /api/auth/sessions/revoke-others: ends every session of the owner but this one. */
export async function revokeOtherSessions(): Promise<SessionsEnded> {
  const res = await apiRequest('POST', '/api/auth/sessions/revoke-others');
  return (await res.json()) as SessionsEnded;
}

export function useRevokeOtherSessions() {
  return useMutation({ mutationFn: revokeOtherSessions });
}
