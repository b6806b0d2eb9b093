import { AuthMessages, ForgotPasswordRequest, LoginRequest, ResetPasswordRequest, type CurrentUser } from '@tiendita/contracts';
import { parse, UnauthorizedError } from '@tiendita/service-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { GatewayConfig } from '../config';
import type { ServiceClient } from '../proxy/service-client';
import { KnownDevices } from '../security/known-devices';
import { keyOf, type RateLimiter, type RateRule } from '../security/rate-limiter';
import type { PgSessionStore } from '../sessions/pg-session-store';
import { cookieSecure, CREATED_AT, SESSION_COOKIE, sessionSecret, TOUCHED_AT, type PassportAuthenticator, type SessionUser } from '../sessions/sessions';

export interface AuthRoutesOptions {
  config: GatewayConfig;
  services: ServiceClient;
  limiter: RateLimiter;
  sessions: PgSessionStore;
  passport: PassportAuthenticator;
  /** True for a same-site navigation (GET /api/logout); see security/csrf.ts. */
  sameSiteNavigation: (request: FastifyRequest) => boolean;
}

const anonymous = { userId: null, storeId: null };
const minutes = (n: number) => n * 60;

/** A device cookie lasts a year from its last sign-in. */
const DEVICE_COOKIE_DAYS = 365;

/**
 * Ends the current session: the row is deleted (awaited, on the durable pool; a failure reaches
 * the caller as an error, never a "Sesión cerrada"), then the cookie is cleared.
 */
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
  const { config, services, limiter, sessions, passport, sameSiteNavigation } = options;
  const devices = new KnownDevices(sessionSecret(config), { secure: cookieSecure(config), maxAgeDays: DEVICE_COOKIE_DAYS });

  /**
   * No targeted lockout (docs/architecture.md, "Edge security"). Before the password is checked,
   * in one round trip:
   * - a browser that signed in to this account before (device cookie) is judged by its own failed
   *   logins only (RATE_LOGIN_FAILURES_PER_DEVICE), whatever its address and the account's state;
   * - any other browser counts an attempt for its address (RATE_LOGIN_PER_IP; an IPv6 /64 is one
   *   address, see RateLimiter) and looks at the account's failures from unknown browsers: once
   *   those are full, an address that has failed logins of its own is refused (429), and a clean
   *   address gets through after RATE_LOGIN_SLOWDOWN_MS. The guesser is stopped or slowed; the
   *   owner is never locked out.
   */
  app.post('/api/auth/login', async (request, reply) => {
    const perIp: RateRule = { bucket: `login:ip:${request.ip}`, limit: config.RATE_LOGIN_PER_IP, windowSeconds: minutes(config.RATE_LOGIN_IP_WINDOW_MIN) };
    const credentials = LoginRequest.safeParse(request.body);
    if (!credentials.success) {
      await limiter.hit([perIp]);
      throw credentials.error;
    }
    request.body = credentials.data;
    const { email } = credentials.data;
    const window = minutes(config.RATE_LOGIN_ACCOUNT_WINDOW_MIN);
    const device = devices.read(request, email);
    let failures: RateRule[];
    if (device.known) {
      failures = [{ bucket: `login:fail:dev:${keyOf(device.id ?? '')}`, limit: config.RATE_LOGIN_FAILURES_PER_DEVICE, windowSeconds: window }];
      await limiter.check(failures);
    } else {
      const account: RateRule = { bucket: `login:fail:${keyOf(email)}`, limit: config.RATE_LOGIN_FAILURES_PER_ACCOUNT, windowSeconds: window };
      // limit 1: "full" means this address has failed at least once in the window.
      const addressFailures: RateRule = { bucket: `login:fail:ip:${request.ip}`, limit: 1, windowSeconds: window };
      failures = [account, addressFailures];
      const states = await limiter.count([perIp], failures);
      const state = (rule: RateRule) => states.find((s) => s.bucket === rule.bucket && s.counted === (rule === perIp));
      const ipState = state(perIp);
      if (ipState?.full) limiter.raise([ipState]);
      const accountState = state(account);
      if (accountState?.full) {
        if (state(addressFailures)?.full) limiter.raise([accountState]);
        if (config.RATE_LOGIN_SLOWDOWN_MS > 0) await sleep(config.RATE_LOGIN_SLOWDOWN_MS);
      }
    }

    let outcome: { user: CurrentUser | false; error: Error | null } = { user: false, error: null };
    await passport.authenticate('local', { session: false }, async (_request: FastifyRequest, _reply: FastifyReply, error: Error | null, user?: unknown) => {
      outcome = { user: (user as CurrentUser | undefined) || false, error };
    }).call(app, request, reply);
    if (outcome.error) throw outcome.error;
    if (!outcome.user) {
      // Counted, never refused here: the answer to a wrong password is always 401.
      await limiter.count(failures, []);
      throw new UnauthorizedError(AuthMessages.invalidCredentials);
    }
    // logIn regenerates the session: a new id (≥ 128 bits) replaces whatever the browser had.
    await request.logIn(outcome.user);
    const now = Date.now();
    request.session.set(CREATED_AT, now);
    request.session.set(TOUCHED_AT, now);
    devices.remember(reply, device, email);
    return outcome.user;
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await endSession(request, reply);
    return { message: 'Sesión cerrada' };
  });

  // The menu's logout link. A GET cannot carry a CSRF check of its own, so only a same-site
  // navigation ends the session; from another site (an <img>, a link) it only leads home.
  app.get('/api/logout', async (request, reply) => {
    if (sameSiteNavigation(request)) await endSession(request, reply);
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
    // Identity answers at once and mails the link (built from its PUBLIC_URL, never from this request) afterwards.
    return services.json<{ message: string }>('identity', 'POST', '/internal/auth/forgot-password', { email }, anonymous, String(request.id));
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
