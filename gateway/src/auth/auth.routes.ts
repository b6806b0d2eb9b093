import { AuthMessages, ForgotPasswordRequest, LoginRequest, ResetPasswordRequest, type CurrentUser } from '@tiendita/contracts';
import { UnauthorizedError } from '@tiendita/eventsourcing';
import { parse } from '@tiendita/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayConfig } from '../config';
import type { ServiceClient } from '../proxy/service-client';
import { ownOrigin } from '../security/csrf';
import { keyOf, type RateLimiter } from '../security/rate-limiter';
import type { PgSessionStore } from '../sessions/pg-session-store';
import { SESSION_COOKIE, TOUCHED_AT, type PassportAuthenticator, type SessionUser } from '../sessions/sessions';

export interface AuthRoutesOptions {
  config: GatewayConfig;
  services: ServiceClient;
  limiter: RateLimiter;
  sessions: PgSessionStore;
  passport: PassportAuthenticator;
}

const anonymous = { userId: null, storeId: null };
const minutes = (n: number) => n * 60;

/** Ends the current session (row and cookie). */
async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const session = request.session as { sessionId?: string; destroy?: () => Promise<void> } | null;
  if (session?.sessionId && typeof session.destroy === 'function') await session.destroy();
  (request as { user?: unknown }).user = null;
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

/**
 * The /api/auth calls the gateway owns: login (passport-local against identity), logout, and
 * register / forgot / reset (rate-limited here, decided by identity). Their paths and bodies are
 * spec 000 §7's.
 */
export function registerAuthRoutes(app: FastifyInstance, options: AuthRoutesOptions): void {
  const { config, services, limiter, sessions, passport } = options;

  app.post('/api/auth/login', async (request, reply) => {
    const perIp = { bucket: `login:ip:${request.ip}`, limit: config.RATE_LOGIN_PER_IP, windowSeconds: minutes(config.RATE_LOGIN_IP_WINDOW_MIN) };
    const credentials = LoginRequest.safeParse(request.body);
    if (!credentials.success) {
      await limiter.hit([perIp]);
      throw credentials.error;
    }
    request.body = credentials.data;
    const failures = { bucket: `login:fail:${keyOf(credentials.data.email)}`, limit: config.RATE_LOGIN_FAILURES_PER_ACCOUNT, windowSeconds: minutes(config.RATE_LOGIN_ACCOUNT_WINDOW_MIN) };
    // One round trip: count this attempt for the address, and refuse if the account's failures are full.
    await limiter.hitAndCheck([perIp], [failures]);

    let outcome: { user: CurrentUser | false; error: Error | null } = { user: false, error: null };
    await passport.authenticate('local', { session: false }, async (_request: FastifyRequest, _reply: FastifyReply, error: Error | null, user?: unknown) => {
      outcome = { user: (user as CurrentUser | undefined) || false, error };
    }).call(app, request, reply);
    if (outcome.error) throw outcome.error;
    if (!outcome.user) {
      await limiter.hit([failures]);
      throw new UnauthorizedError(AuthMessages.invalidCredentials);
    }
    // logIn regenerates the session: a new id (≥ 128 bits) replaces whatever the browser had.
    await request.logIn(outcome.user);
    request.session.set(TOUCHED_AT, Date.now());
    return outcome.user;
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await endSession(request, reply);
    return { message: 'Sesión cerrada' };
  });

  app.get('/api/logout', async (request, reply) => {
    await endSession(request, reply);
    return reply.redirect('/', 302);
  });

  // Spec 001 sends logged-out owners to /api/login: it leads to the login screen.
  app.get('/api/login', async (_request, reply) => reply.redirect('/login', 302));

  app.post('/api/auth/register', async (request, reply) => {
    const email = typeof (request.body as { email?: unknown } | null)?.email === 'string' ? (request.body as { email: string }).email : '';
    const window = minutes(config.RATE_REGISTER_WINDOW_MIN);
    await limiter.hit([
      { bucket: `register:ip:${request.ip}`, limit: config.RATE_REGISTER_PER_IP, windowSeconds: window },
      ...(email ? [{ bucket: `register:acct:${keyOf(email)}`, limit: config.RATE_REGISTER_PER_ACCOUNT, windowSeconds: window }] : []),
    ]);
    const result = await services.json<{ user: CurrentUser; store: { id: string; name: string; subdomain: string } }>(
      'identity', 'POST', '/internal/auth/register', request.body ?? {}, anonymous, String(request.id),
    );
    reply.status(201);
    return result;
  });

  app.post('/api/auth/forgot-password', async (request) => {
    const window = minutes(config.RATE_FORGOT_WINDOW_MIN);
    await limiter.hit([{ bucket: `forgot:ip:${request.ip}`, limit: config.RATE_FORGOT_PER_IP, windowSeconds: window }]);
    const { email } = parse(ForgotPasswordRequest, request.body);
    await limiter.hit([{ bucket: `forgot:acct:${keyOf(email)}`, limit: config.RATE_FORGOT_PER_ACCOUNT, windowSeconds: window }]);
    return services.json<{ message: string }>('identity', 'POST', '/internal/auth/forgot-password', { email, origin: config.PUBLIC_URL ?? ownOrigin(request) }, anonymous, String(request.id));
  });

  app.post('/api/auth/reset-password', async (request, reply) => {
    const window = minutes(config.RATE_RESET_WINDOW_MIN);
    await limiter.hit([{ bucket: `reset:ip:${request.ip}`, limit: config.RATE_RESET_PER_IP, windowSeconds: window }]);
    const body = parse(ResetPasswordRequest, request.body);
    await limiter.hit([{ bucket: `reset:token:${keyOf(body.token)}`, limit: config.RATE_RESET_PER_TOKEN, windowSeconds: window }]);
    const { userId } = await services.json<{ userId: string }>('identity', 'POST', '/internal/auth/reset-password', body, anonymous, String(request.id));
    // A new password ends every session of that user, this browser's included.
    await sessions.destroyAllOfUser(userId);
    const current = (request as { user?: SessionUser | null }).user;
    if (current?.userId === userId) await endSession(request, reply);
    return { message: AuthMessages.passwordChanged };
  });
}
