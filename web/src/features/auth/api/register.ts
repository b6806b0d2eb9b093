import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { authKeys } from './keys';

/** POST /api/auth/register: creates the owner's account together with the store. */
export async function register(body: RegisterRequest): Promise<void> {
  await apiRequest('POST', '/api/auth/register', body);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
