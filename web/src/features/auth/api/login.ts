import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { authKeys } from './keys';

/** POST /api/auth/login: starts a cookie session. */
export async function login(body: LoginRequest): Promise<void> {
  await apiRequest('POST', '/api/auth/login', body);
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
