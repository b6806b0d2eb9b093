import { OrderLimitMessages } from '@tiendita/contracts';
import { createPool, TooManyRequestsError } from '@tiendita/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { registerAuthRoutes } from '../auth/auth.routes';
import { registerProfileRoutes } from '../auth/profile.routes';
import type { GatewayConfig } from '../config';
import { GATEWAY_SCHEMA } from '../migrations';
import { ServiceAdmission } from '../proxy/admission';
import { createForwarder, RAW_BODY, type RequestWithRaw } from '../proxy/forward';
import { ServiceClient } from '../proxy/service-client';
import { acceptsRawBody } from '../routes';
import { createOriginCheck, createSameSiteNavigationCheck } from '../security/csrf';
import { PooledRateCounter } from '../security/pooled-rate-counter';
import { RateLimiter } from '../security/rate-limiter';
import { PgSessionStore } from '../sessions/pg-session-store';
import { registerSessions } from '../sessions/sessions';
import { errorHandler, refuseNonJsonBody } from './errors';

export interface ApiPluginOptions {
  config: GatewayConfig;
  logger: Logger;
  /** The gateway's ordinary pool (durable commits): session deletes go through it. */
  pool: Pool;
}

// HEAD comes with GET (fastify exposes HEAD routes for GET ones).
const ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const WRITE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Everything the gateway answers besides the web build, in one encapsulated scope:
 * - the shared error body for every error (413, bad JSON, 401, 403, 429, a service's own errors);
 * - CSRF by origin on every state-changing call;
 * - public routes (/api/public/*, GET /objects/*): forwarded with no session work at all;
 * - a nested scope with cookie sessions + passport for the auth calls and every owner route.
 */
export async function apiPlugin(api: FastifyInstance, options: ApiPluginOptions): Promise<void> {
  const { config, logger, pool } = options;
  const services = new ServiceClient(
    {
      identity: config.IDENTITY_URL,
      catalog: config.CATALOG_URL,
      ordering: config.ORDERING_URL,
      inventory: config.INVENTORY_URL,
      reporting: config.REPORTING_URL,
      fel: config.FEL_URL,
    },
    config.INTERNAL_SECRET,
  );
  // Sessions and rate-limit counters are written on a pool whose commits do not wait for the WAL
  // flush. Every login writes both, and every attempt from one address updates the same counter
  // row, so concurrent logins queued on that row each waited for the previous one's disk flush.
  // A database crash can lose the last few hundred ms of them: sessions made in that window sign
  // in again, and a few attempts go uncounted. Nothing else is written on this pool.
  const ephemeral = createPool(config.DATABASE_URL, { applicationName: 'tiendita-gateway-sesiones', max: 10, synchronousCommit: false });
  // Deletes (logout, password reset, expiry) go through the durable pool: once the answer says a
  // session ended, no database crash brings it back.
  const sessions = new PgSessionStore({
    pool: ephemeral,
    durablePool: pool,
    table: `${GATEWAY_SCHEMA}.sessions`,
    defaultMaxAgeMs: config.SESSION_MAX_AGE_HOURS * 3600 * 1000,
    absoluteMaxAgeMs: config.SESSION_ABSOLUTE_HOURS * 3600 * 1000,
  });
  const limiter = new RateLimiter(ephemeral, `${GATEWAY_SCHEMA}.rate_limits`);
  // Public orders count one per request: pooled in memory and written every 200 ms (no round trip on the checkout's path).
  const orderCounter = new PooledRateCounter(ephemeral, `${GATEWAY_SCHEMA}.rate_limits`);
  sessions.startSweeping();
  limiter.startSweeping();
  api.addHook('onClose', async () => {
    sessions.stopSweeping();
    limiter.stopSweeping();
    await orderCounter.close();
    await services.close();
    await ephemeral.end();
  });

  api.setErrorHandler(errorHandler(logger));

  // JSON: parsed here (tenant check, validation) and forwarded as the exact bytes received.
  api.removeAllContentTypeParsers();
  api.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: config.BODY_LIMIT_BYTES }, (request, body, done) => {
    const raw = body as Buffer;
    if (raw.length === 0) return done(null, undefined);
    (request as RequestWithRaw)[RAW_BODY] = raw;
    try {
      done(null, JSON.parse(raw.toString('utf8')));
    } catch (error) {
      done(error as SyntaxError, undefined);
    }
  });
  // Anything else: streamed through (cut at UPLOAD_LIMIT_BYTES) only to an upload route; every
  // other route, public or not, takes JSON alone: 415, or 413 above the JSON limit. What is left
  // of a refused body is drained by service-kit before the answer, which closes the connection.
  api.addContentTypeParser('*', (request, payload, done) => {
    if (acceptsRawBody(request.method, request.url.split('?', 1)[0])) return done(null, payload);
    refuseNonJsonBody(request.headers, payload, config.BODY_LIMIT_BYTES, done);
  });

  const originOptions = { publicUrl: config.PUBLIC_URL, allowedOrigins: config.ALLOWED_ORIGINS };
  const checkOrigin = createOriginCheck(originOptions);
  api.addHook('onRequest', (request: FastifyRequest, _reply, done) => {
    try {
      checkOrigin(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });

  const forwardOptions = { services, uploadLimitBytes: config.UPLOAD_LIMIT_BYTES, admission: new ServiceAdmission(config.SERVICE_MAX_IN_FLIGHT) };
  const publicForward = createForwarder(forwardOptions, 'public');
  api.route({ method: ALL_METHODS, url: '/api/public/*', handler: publicForward });
  // Subscriptions send mail: counted per address so the shop's form cannot be used to flood inboxes.
  api.route({
    method: ['POST'],
    url: '/api/public/subscribe/*',
    handler: async (request, reply) => {
      await limiter.hit([{ bucket: `subscribe:ip:${request.ip}`, limit: config.RATE_SUBSCRIBE_PER_IP, windowSeconds: config.RATE_SUBSCRIBE_WINDOW_MIN * 60 }]);
      return publicForward(request, reply);
    },
  });
  // Public orders hold stock: counted per address and store (429 in Spanish past the limit).
  api.route({
    method: ['POST'],
    url: '/api/public/orders/*',
    handler: async (request, reply) => {
      const store = request.url.split('?', 1)[0].split('/')[4] ?? '';
      const bucket = `order:${store.toLowerCase().slice(0, 100)}:ip:${request.ip}`;
      const state = orderCounter.hit({ bucket, limit: config.RATE_ORDER_PER_IP, windowSeconds: config.RATE_ORDER_WINDOW_MIN * 60 });
      if (state.full) throw new TooManyRequestsError(OrderLimitMessages.addressRateLimited, state.retryAfterSeconds);
      return publicForward(request, reply);
    },
  });
  api.route({ method: ['GET'], url: '/objects/*', handler: publicForward });
  api.route({ method: ['GET'], url: '/temp-uploads/*', handler: publicForward });

  await api.register(async (owner) => {
    const passport = await registerSessions(owner, { config, store: sessions, services });
    registerAuthRoutes(owner, { config, services, limiter, sessions, passport, sameSiteNavigation: createSameSiteNavigationCheck(originOptions) });
    registerProfileRoutes(owner, { config, limiter, services, sessions });
    const ownerForward = createForwarder(forwardOptions, 'owner');
    owner.route({ method: ALL_METHODS, url: '/api/*', handler: ownerForward });
    owner.route({ method: WRITE_METHODS, url: '/objects/*', handler: ownerForward });
    owner.route({ method: WRITE_METHODS, url: '/temp-uploads/*', handler: ownerForward });
  });
}
