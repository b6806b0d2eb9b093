import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ResetPasswordRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { authKeys } from './keys';

/** POST /api/auth/reset-password: sets a new password with the token of the mailed link. */
export async function resetPassword(body: ResetPasswordRequest): Promise<void> {
  await apiRequest('POST', '/api/auth/reset-password', body);
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: authKeys.all }),
  });
}
