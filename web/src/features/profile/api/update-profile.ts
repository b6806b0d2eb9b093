import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CurrentUser, UpdateProfileRequest } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';
import { authKeys } from '../../auth/api/keys';

/** PUT /api/auth/user: the owner's first and last name; answers the user with the new name. */
export async function updateProfile(body: UpdateProfileRequest): Promise<CurrentUser> {
  const res = await apiRequest('PUT', '/api/auth/user', body);
  return (await res.json()) as CurrentUser;
}

/** The new name shows at once everywhere the signed-in user is read (the header, the drawer, the dashboard). */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (user) => queryClient.setQueryData(authKeys.user, user),
  });
}
