import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ForgotPasswordRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { authKeys } from './keys';

/** POST /api/auth/forgot-password: mails a reset link when the address has an account. */
export async function forgotPassword(body: ForgotPasswordRequest): Promise<void> {
  await apiRequest('POST', '/api/auth/forgot-password', body);
}

export function useForgotPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: forgotPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
