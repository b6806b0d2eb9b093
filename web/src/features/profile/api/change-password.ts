import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';

export interface SessionsEnded {
  message: string;
  /** How many of the owner's other sessions ended. */
  endedSessions: number;
}

/** POST /api/auth/change-password: this session stays, the owner's other sessions end. */
export async function changePassword(body: ChangePasswordRequest): Promise<SessionsEnded> {
  const res = await apiRequest('POST', '/api/auth/change-password', body);
  return (await res.json()) as SessionsEnded;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
