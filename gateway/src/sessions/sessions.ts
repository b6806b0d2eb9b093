import fastifyCookie from '@fastify/cookie';
import { Authenticator } from '@fastify/passport';
import fastifySession from '@fastify/session';
import { CurrentUser } from '@tiendita/contracts';
import { UnauthorizedError } from '@tiendita/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHmac, randomBytes } from 'node:crypto';
import { Strategy as LocalStrategy } from 'passport-local';
import type { GatewayConfig } from '../config';
import type { ServiceClient } from '../proxy/service-client';
import { MemoCookieSigner } from './cookie-signer';
import type { PgSessionStore } from './pg-session-store';

/** The passport instance of one gateway (not the package's shared singleton: tests run several). */
export type PassportAuthenticator = InstanceType<typeof Authenticator>;

/** Name of the session cookie. */
export const SESSION_COOKIE = 'tiendita.sid';

/** What a session keeps of its owner: who, and which store (the tenant of every call). */
export interface SessionUser {
  userId: string;
  storeId: string;
}

/** Refresh a session's expiry at most this often (a write), so each request costs only a read. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
/** Session key of the last expiry refresh (ms since the epoch). */
export const TOUCHED_AT = 'touchedAt';
/** Session key of the sign-in that opened the session (ms since the epoch): the absolute lifetime counts from it. */
export const CREATED_AT = 'createdAt';

/** 192-bit session ids (24 random bytes, base64url). */
function newSessionId(): string {
  return randomBytes(24).toString('base64url');
}

/** The cookie-signing secret: SESSION_SECRET, else one derived from INTERNAL_SECRET. */
export function sessionSecret(config: GatewayConfig): string {
  return config.SESSION_SECRET ?? createHmac('sha256', config.INTERNAL_SECRET).update('tiendita session cookie').digest('hex');
}

/** Secure cookies behind a TLS proxy (TRUST_PROXY): set whenever the request came over https. */
export function cookieSecure(config: GatewayConfig): 'auto' | false {
  return config.TRUST_PROXY !== '0' && config.TRUST_PROXY !== 'false' ? 'auto' : false;
}

/**
 * Cookie sessions in PostgreSQL, and passport-local asking identity to check the password.
 * Registered only in the scope of the calls that need a session, so the public shop and the
 * web build never touch the sessions table.
 */
export async function registerSessions(
  scope: FastifyInstance,
  options: { config: GatewayConfig; store: PgSessionStore; services: ServiceClient },
): Promise<PassportAuthenticator> {
  const { config, store, services } = options;
  const maxAge = config.SESSION_MAX_AGE_HOURS * 60 * 60 * 1000;
  const absoluteMs = config.SESSION_ABSOLUTE_HOURS * 60 * 60 * 1000;

  await scope.register(fastifyCookie);
  await scope.register(fastifySession, {
    // The same signature @fastify/session would make with the secret itself, remembered (see MemoCookieSigner).
    secret: new MemoCookieSigner(sessionSecret(config)),
    cookieName: SESSION_COOKIE,
    store,
    idGenerator: newSessionId,
    saveUninitialized: false,
    rolling: false,
    cookie: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      // Behind a TLS proxy (TRUST_PROXY) the cookie is Secure whenever the request came over https.
      secure: cookieSecure(config),
      maxAge,
    },
  });

  const passport = new Authenticator({ key: 'passport' });
  passport.use(
    'local',
    new LocalStrategy({ usernameField: 'email', passwordField: 'password', passReqToCallback: true }, (request, email, password, done) => {
      const req = request as unknown as FastifyRequest;
      services
        .json<unknown>('identity', 'POST', '/internal/auth/verify', { email, password }, { userId: null, storeId: null }, String(req.id))
        .then(
          (user) => done(null, CurrentUser.parse(user)),
          (error: unknown) => (error instanceof UnauthorizedError || (error as { status?: number }).status === 401 ? done(null, false) : done(error)),
        );
    }),
  );
  passport.registerUserSerializer(async (user: CurrentUser): Promise<SessionUser> => ({ userId: user.id, storeId: user.storeId }));
  // The session holds all a call needs (user and store ids): no lookup per request.
  passport.registerUserDeserializer(async (stored: unknown): Promise<SessionUser | null> => {
    const s = stored as Partial<SessionUser> | null;
    return typeof s?.userId === 'string' && typeof s.storeId === 'string' ? { userId: s.userId, storeId: s.storeId } : null;
  });
  await scope.register(passport.initialize());
  await scope.register(passport.secureSession());

  // Two lifetimes. Absolute: a session older than SESSION_ABSOLUTE_HOURS (or one without its
  // sign-in time) is deleted from the store, awaited, and the call goes on signed out (401 on an
  // owner route; the cookie is cleared). Sliding: the expiry is refreshed at most once an hour per
  // session; changing `touchedAt` makes @fastify/session save the row (expire = now + max age,
  // capped at the absolute end by the store) and send the cookie again.
  // (A callback hook, not an async one: no promise per call when, as almost always, nothing is due.)
  scope.addHook('preHandler', (request, _reply, done) => {
    if (!request.user) return done();
    const now = Date.now();
    const createdAt = Number(request.session.get(CREATED_AT) ?? 0);
    if (!(createdAt > 0) || now - createdAt >= absoluteMs) {
      // regenerate() deletes the old row first and leaves an empty session, which is never stored.
      request.session.regenerate().then(
        () => {
          (request as { user?: unknown }).user = null;
          done();
        },
        (error: Error) => done(error),
      );
      return;
    }
    const touchedAt = Number(request.session.get(TOUCHED_AT) ?? 0);
    if (now - touchedAt >= TOUCH_EVERY_MS) request.session.set(TOUCHED_AT, now);
    done();
  });
  return passport;
}
