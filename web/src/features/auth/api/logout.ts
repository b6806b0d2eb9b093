import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/query-client';
import { authKeys } from './keys';

/** POST /api/auth/logout: ends the session (credentials included). */
export async function logout(): Promise<void> {
  await apiRequest('POST', '/api/auth/logout');
}

/** GET /api/logout: the address the mobile menu navigates to; the server ends the session and redirects to /. */
export const LOGOUT_NAVIGATION_URL = '/api/logout';

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
