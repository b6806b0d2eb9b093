import 'reflect-metadata';
import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type FastifyServerOptions, LogController } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import { createPool, type Migration, runMigrations } from './database';
import { ErrorFilter } from './error-filter';
import { InternalCallerGuard } from './internal-auth';
import { registerDrainHooks } from './lifecycle';
import { createLogger, PinoNestLogger } from './logger';
import { registerRequestHooks } from './request-hooks';
import { ServiceKitModule } from './service-kit.module';

/** Default request body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface ServiceAppOptions<C extends BaseConfig = BaseConfig> {
  /** Service name: in logs, in /health and in the pool's application_name. */
  name: string;
  /** The service's root Nest module. */
  module: Type<unknown> | DynamicModule;
  /** The parsed configuration (parseConfig/loadConfig). */
  config: C;
  /** Migrations run before the app initialises, under the given schema. */
  migrations?: { schema: string; list: Migration[] };
  /** Largest accepted request body in bytes (default 1 MiB); larger → 413. */
  bodyLimit?: number;
  /** Check the gateway's signature on every route but @PublicEndpoint() ones (default true; the gateway sets false). */
  internalAuth?: boolean;
  /** Use this pool instead of creating one from DATABASE_URL; it is then not closed with the app. */
  pool?: pg.Pool;
  /** Use this logger instead of creating one. */
  logger?: Logger;
  /** Extra fastify options (e.g. trustProxy for the gateway). */
  fastify?: Omit<FastifyServerOptions, 'logger' | 'loggerInstance' | 'bodyLimit'>;
  /** Runs after the app is created and before it initialises: register fastify plugins, hooks, static files. */
  configure?: (app: NestFastifyApplication, context: { pool: pg.Pool; logger: Logger }) => void | Promise<void>;
}

@Module({})
class ServiceRootModule {}

/**
 * Builds a service's NestJS app on fastify: pino JSON logs, body limit, the one error filter,
 * the internal-caller guard, GET /health. Runs the migrations first. Returns the app
 * initialised but not listening: tests use app.inject() or app.listen(0); startService listens.
 */
export async function createServiceApp<C extends BaseConfig>(options: ServiceAppOptions<C>): Promise<NestFastifyApplication> {
  const { name, config } = options;
  const logger = options.logger ?? createLogger(name, config.LOG_LEVEL);
  const ownsPool = !options.pool;
  const pool = options.pool ?? createPool(config.DATABASE_URL, { applicationName: `tiendita-${name}` });
  try {
    if (options.migrations) await runMigrations(pool, options.migrations.schema, options.migrations.list);

    const adapter = new FastifyAdapter({
      ...options.fastify,
      bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
      loggerInstance: logger,
      logController: new LogController({ disableRequestLogging: true }),
      requestIdHeader: 'x-request-id',
      // A closing process answers in Spanish (registerDrainHooks), never Fastify's English 503.
      return503OnClosing: false,
    });
    const root: DynamicModule = {
      module: ServiceRootModule,
      imports: [ServiceKitModule.forRoot({ name, config, pool, ownsPool, logger }), options.module],
    };
    const app = await NestFactory.create<NestFastifyApplication>(root, adapter, { logger: new PinoNestLogger(logger), abortOnError: false });
    app.useGlobalFilters(new ErrorFilter(logger));
    if (options.internalAuth !== false) app.useGlobalGuards(new InternalCallerGuard(config.INTERNAL_SECRET, app.get(Reflector)));

    registerDrainHooks(app.getHttpAdapter().getInstance());
    registerRequestHooks(app.getHttpAdapter().getInstance(), logger);

    if (options.configure) await options.configure(app, { pool, logger });
    await app.init();
    return app;
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
}
