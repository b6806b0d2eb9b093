import { AuthMessages, ChangePasswordRequest } from '@tiendita/contracts';
import { parse, UnauthorizedError } from '@tiendita/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import type { ServiceClient } from '../proxy/service-client';
import type { RateLimiter, RateRule } from '../security/rate-limiter';
import type { PgSessionStore } from '../sessions/pg-session-store';
import type { SessionUser } from '../sessions/sessions';

export interface ProfileRoutesOptions {
  config: GatewayConfig;
  limiter: RateLimiter;
  services: ServiceClient;
  sessions: PgSessionStore;
}

/** The signed-in owner and this browser's session id; 401 'No autenticado' without both. */
function signedIn(request: FastifyRequest): { user: SessionUser; sid: string } {
  const user = (request as { user?: SessionUser | null }).user;
  const sid = (request.session as { sessionId?: string } | null)?.sessionId;
  if (!user?.userId || !user.storeId || !sid) throw new UnauthorizedError(AuthMessages.notAuthenticated);
  return { user, sid };
}

/**
 * The profile page's session calls, owned by the gateway because it owns the sessions: changing
 * the password (identity checks the current one and the new one's rules) keeps this browser's
 * session and ends the others; 'sign out of other devices' ends the others only.
 */
export function registerProfileRoutes(owner: FastifyInstance, { config, limiter, services, sessions }: ProfileRoutesOptions): void {
  owner.post('/api/auth/change-password', async (request) => {
    const { user, sid } = signedIn(request);
    const body = parse(ChangePasswordRequest, request.body);
    // Wrong current passwords count per user with a login's allowance (RATE_LOGIN_FAILURES_PER_ACCOUNT
    // per RATE_LOGIN_ACCOUNT_WINDOW_MIN): a borrowed session cannot guess the password (429 once full).
    const failures: RateRule = { bucket: `change-password:fail:${user.userId}`, limit: config.RATE_LOGIN_FAILURES_PER_ACCOUNT, windowSeconds: config.RATE_LOGIN_ACCOUNT_WINDOW_MIN * 60 };
    await limiter.check([failures]);
    try {
      await services.json<{ userId: string }>('identity', 'POST', '/internal/auth/change-password', body, user, String(request.id));
    } catch (error) {
      if ((error as { message?: unknown }).message === AuthMessages.currentPasswordWrong) await limiter.count([failures], []);
      throw error;
    }
    const endedSessions = await sessions.destroyOthersOfUser(user.userId, sid);
    return { message: AuthMessages.passwordUpdated, endedSessions };
  });

  owner.post('/api/auth/sessions/revoke-others', async (request) => {
    const { user, sid } = signedIn(request);
    const endedSessions = await sessions.destroyOthersOfUser(user.userId, sid);
    return { message: AuthMessages.otherSessionsEnded, endedSessions };
  });
}
