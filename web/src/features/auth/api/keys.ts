/** Query keys of the auth feature; joined by '/' they are the GET paths (spec 000 §7). */
export const authKeys = {
  all: ['/api/auth'] as const,
  user: ['/api/auth', 'user'] as const,
};
