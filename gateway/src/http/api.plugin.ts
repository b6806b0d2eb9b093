import { createPool } from '@tiendita/service-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { registerAuthRoutes } from '../auth/auth.routes';
import type { GatewayConfig } from '../config';
import { GATEWAY_SCHEMA } from '../migrations';
import { createForwarder, RAW_BODY, type RequestWithRaw } from '../proxy/forward';
import { ServiceClient } from '../proxy/service-client';
import { createOriginCheck } from '../security/csrf';
import { RateLimiter } from '../security/rate-limiter';
import { PgSessionStore } from '../sessions/pg-session-store';
import { registerSessions } from '../sessions/sessions';
import { errorHandler } from './errors';

export interface ApiPluginOptions {
  config: GatewayConfig;
  logger: Logger;
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
  const { config, logger } = options;
  const services = new ServiceClient(
    {
      identity: config.IDENTITY_URL,
      catalog: config.CATALOG_URL,
      ordering: config.ORDERING_URL,
      inventory: config.INVENTORY_URL,
      reporting: config.REPORTING_URL,
    },
    config.INTERNAL_SECRET,
  );
  // Sessions and rate-limit counters are written on a pool whose commits do not wait for the WAL
  // flush. Every login writes both, and every attempt from one address updates the same counter
  // row, so concurrent logins queued on that row each waited for the previous one's disk flush.
  // A database crash can lose the last few hundred ms of them: sessions made in that window sign
  // in again, and a few attempts go uncounted. Nothing else is written on this pool.
  const ephemeral = createPool(config.DATABASE_URL, { applicationName: 'tiendita-gateway-sesiones', max: 10, synchronousCommit: false });
  const sessions = new PgSessionStore(ephemeral, `${GATEWAY_SCHEMA}.sessions`, config.SESSION_MAX_AGE_HOURS * 3600 * 1000);
  const limiter = new RateLimiter(ephemeral, `${GATEWAY_SCHEMA}.rate_limits`);
  sessions.startSweeping();
  limiter.startSweeping();
  api.addHook('onClose', async () => {
    sessions.stopSweeping();
    limiter.stopSweeping();
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
  // Anything else (image uploads): streamed through, cut at UPLOAD_LIMIT_BYTES.
  api.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const checkOrigin = createOriginCheck({ publicUrl: config.PUBLIC_URL, allowedOrigins: config.ALLOWED_ORIGINS });
  api.addHook('onRequest', async (request: FastifyRequest) => checkOrigin(request));

  const forwardOptions = { services, uploadLimitBytes: config.UPLOAD_LIMIT_BYTES };
  const publicForward = createForwarder(forwardOptions, 'public');
  api.route({ method: ALL_METHODS, url: '/api/public/*', handler: publicForward });
  api.route({ method: ['GET'], url: '/objects/*', handler: publicForward });
  api.route({ method: ['GET'], url: '/temp-uploads/*', handler: publicForward });

  await api.register(async (owner) => {
    const passport = await registerSessions(owner, { config, store: sessions, services });
    registerAuthRoutes(owner, { config, services, limiter, sessions, passport });
    const ownerForward = createForwarder(forwardOptions, 'owner');
    owner.route({ method: ALL_METHODS, url: '/api/*', handler: ownerForward });
    owner.route({ method: WRITE_METHODS, url: '/objects/*', handler: ownerForward });
    owner.route({ method: WRITE_METHODS, url: '/temp-uploads/*', handler: ownerForward });
  });
}
