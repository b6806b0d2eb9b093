import fastifyStatic from '@fastify/static';
import { createLogger, createServiceApp, parseConfig, type ServiceAppOptions } from '@tiendita/service-kit';
import type { FastifyReply } from 'fastify';
import { existsSync } from 'node:fs';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { type GatewayConfig, gatewayConfigShape } from './config';
import { apiPlugin } from './http/api.plugin';
import { registerSecurityHeaders } from './http/security-headers';
import { GATEWAY_SCHEMA, gatewayMigrations } from './migrations';

/**
 * '1': trust the immediate peer only, so request.ip is the address our proxy saw and not what a
 * client wrote in X-Forwarded-For (fastify refuses a bare hop count); a list: those proxies.
 */
export function trustProxy(value: string): false | string | ((address: string, hop: number) => boolean) {
  if (value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return (_address, hop) => hop === 0;
  return value;
}

/**
 * How service-kit builds the gateway: no internal-caller guard (it is the edge), its own tables
 * (sessions, rate limits), security headers, the /api edge (http/api.plugin.ts) and the web build.
 */
export function serviceOptions(config: GatewayConfig): ServiceAppOptions<GatewayConfig> {
  return {
    name: 'gateway',
    module: AppModule,
    config,
    internalAuth: false,
    bodyLimit: config.BODY_LIMIT_BYTES,
    migrations: { schema: GATEWAY_SCHEMA, list: gatewayMigrations },
    fastify: { trustProxy: trustProxy(config.TRUST_PROXY) },
    configure: async (app, { logger, pool }) => {
      registerSecurityHeaders(app, config);
      await app.register(apiPlugin, { config, logger, pool });
      if (!existsSync(config.WEB_DIST_DIR)) return;
      // Files of the build only (wildcard: false registers one route per file found at start);
      // everything else falls through to WebController's index.html.
      await app.register(fastifyStatic, {
        root: config.WEB_DIST_DIR,
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders: (reply: FastifyReply, filePath: string) => {
          // Vite puts content-hashed names under assets/: cache them for good.
          reply.header('cache-control', filePath.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    },
  };
}

export interface CreateGatewayOptions {
  /** Where the log lines go instead of stdout (tests read them), at LOG_LEVEL. */
  logDestination?: DestinationStream;
}

/** The gateway, initialised but not listening: tests call app.inject() or app.listen({ port: 0 }). */
export async function createApp(env: Record<string, string | undefined> = process.env, options: CreateGatewayOptions = {}) {
  const config = parseConfig(gatewayConfigShape, env);
  const logger = options.logDestination ? createLogger('gateway', config.LOG_LEVEL, options.logDestination) : undefined;
  return createServiceApp({ ...serviceOptions(config), ...(logger ? { logger } : {}) });
}
