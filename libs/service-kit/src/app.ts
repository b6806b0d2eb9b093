import 'reflect-metadata';
import {
  Controller,
  type DynamicModule,
  Get,
  HttpException,
  Inject,
  Injectable,
  Module,
  type OnApplicationShutdown,
  type Type,
} from '@nestjs/common';
import { NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ErrorCode } from '@tiendita/contracts';
import { type FastifyServerOptions, LogController } from 'fastify';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import { createPool, describeDatabaseUrl, type Migration, runMigrations } from './database';
import { ErrorFilter } from './error-filter';
import { InternalCallerGuard, PublicEndpoint, RECEIVED_BODY_SHA256 } from './internal-auth';
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import { isDatabaseUnavailable } from './database-errors';
import { drainServer, registerDrainHooks } from './lifecycle';
import { createLogger, PinoNestLogger } from './logger';

/** Injection token of the service's pg Pool: `@Inject(PG_POOL) pool: Pool`. */
export const PG_POOL = 'TIENDITA_PG_POOL';
/** Injection token of the parsed configuration object. */
export const SERVICE_CONFIG = 'TIENDITA_SERVICE_CONFIG';
/** Injection token of the service name ('catalog', 'gateway', ...). */
export const SERVICE_NAME = 'TIENDITA_SERVICE_NAME';
/** Injection token of the pino logger. */
export const SERVICE_LOGGER = 'TIENDITA_SERVICE_LOGGER';

/** Default request body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** At most this much of a refused body is read and thrown away before the answer (see drainUnreadBody). */
export const DRAIN_LIMIT_BYTES = 32 * 1024 * 1024;
/** ... and for at most this long. */
export const DRAIN_TIMEOUT_MS = 10_000;

/**
 * Reads and throws away what is left of a request body nobody read (a 413 or 415, a 401 on an
 * upload, an upstream that answered early), so the client has finished sending when the answer
 * goes out and the connection then closes with nothing unread. A client that was cut off in the
 * middle of its upload would otherwise get a reset instead of the answer, and a keep-alive
 * connection would hold the rest of the old body in front of the next request. Past `maxBytes`
 * or `timeoutMs` it gives up: the answer goes out and the connection is closed anyway.
 */
export function drainUnreadBody(raw: IncomingMessage, maxBytes = DRAIN_LIMIT_BYTES, timeoutMs = DRAIN_TIMEOUT_MS): Promise<void> {
  // A body declared larger than the cap would be given up on anyway: answer at once.
  if (Number(raw.headers['content-length']) > maxBytes) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.removeListener('data', onData);
      raw.removeListener('end', finish);
      raw.removeListener('error', finish);
      raw.removeListener('close', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > maxBytes) finish();
    };
    const timer = setTimeout(finish, timeoutMs);
    timer.unref();
    // Whatever it was piped into (a body hash, an upstream call) is no longer listening.
    raw.unpipe();
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('error', finish);
    raw.once('close', finish);
    raw.resume();
  });
}

/** Whether a request declares a body (HTTP/1.1: a content-length above 0, or a transfer-encoding). */
export function hasBody(headers: IncomingMessage['headers']): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

/** API calls are logged at info, one line each; anything else (health checks, static files, images) at debug. */
export function requestLogLevel(url: string): 'info' | 'debug' {
  return url.startsWith('/api/') || url.startsWith('/internal/') ? 'info' : 'debug';
}

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

@Controller()
class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    @Inject(SERVICE_NAME) private readonly name: string,
  ) {}

  /** Up and able to reach its database; 503 otherwise. */
  @Get('health')
  @PublicEndpoint()
  async health(): Promise<{ status: 'ok'; service: string }> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.pool.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timeout')), 3000);
        }),
      ]);
    } catch {
      throw new HttpException({ message: 'Base de datos no disponible', code: ErrorCode.unavailable }, 503);
    } finally {
      clearTimeout(timer);
    }
    return { status: 'ok', service: this.name };
  }
}

@Injectable()
class PoolCloser implements OnApplicationShutdown {
  constructor(
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    @Inject('TIENDITA_OWNS_POOL') private readonly ownsPool: boolean,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }
}

/** Global providers of every service: pool, config, name, logger, and GET /health. */
@Module({})
export class ServiceKitModule {
  static forRoot(input: { name: string; config: BaseConfig; pool: pg.Pool; ownsPool: boolean; logger: Logger }): DynamicModule {
    return {
      module: ServiceKitModule,
      global: true,
      controllers: [HealthController],
      providers: [
        { provide: PG_POOL, useValue: input.pool },
        { provide: SERVICE_CONFIG, useValue: input.config },
        { provide: SERVICE_NAME, useValue: input.name },
        { provide: SERVICE_LOGGER, useValue: input.logger },
        { provide: 'TIENDITA_OWNS_POOL', useValue: input.ownsPool },
        PoolCloser,
      ],
      exports: [PG_POOL, SERVICE_CONFIG, SERVICE_NAME, SERVICE_LOGGER],
    };
  }
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

    // The SHA-256 of every body as it is read, for the internal signature's body hash.
    // The hooks below take fastify's `done` callback rather than being async: an async hook costs a
    // promise and a turn of the microtask queue on every request, even when it has nothing to do.
    app.getHttpAdapter().getInstance().addHook('preParsing', (request, _reply, payload, done) => {
      // Most calls (every GET) carry no body: no hash and no extra stream for them.
      if (!hasBody(request.headers)) return done(null, payload);
      const hash = createHash('sha256');
      const hashed = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
        flush(done) {
          (request as unknown as Record<symbol, string>)[RECEIVED_BODY_SHA256] = hash.digest('hex');
          done();
        },
      });
      payload.on('error', (error) => hashed.destroy(error));
      done(null, payload.pipe(hashed));
    });

    // An answer that goes out before its request body was read: the rest of the body is drained
    // first and the connection closes after the answer (a request still half-read must never
    // sit in front of the next one on a keep-alive connection). `complete` is false only on a
    // real socket whose body has not all arrived (an injected request has no such property).
    app.getHttpAdapter().getInstance().addHook('onSend', (request, reply, payload, done) => {
      const raw = request.raw;
      if (raw.complete !== false || raw.destroyed) return done(null, payload);
      reply.header('connection', 'close');
      void drainUnreadBody(raw).then(() => done(null, payload));
    });

    // One structured line per API call at info; health checks and static files at debug. The
    // logger hides tokens in URLs (see logger.ts).
    app.getHttpAdapter().getInstance().addHook('onResponse', (request, reply, done) => {
      const level = requestLogLevel(request.url);
      if (logger.isLevelEnabled(level)) logger[level]({ reqId: request.id, method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'solicitud');
      done();
    });

    if (options.configure) await options.configure(app, { pool, logger });
    await app.init();
    return app;
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw error;
  }
}

function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reason(error.errors[0]);
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

function fail(line: string): never {
  process.stderr.write(`${line}\n`);
  process.exit(1);
}

/**
 * Starts a service for real: checks the database (one line and exit 1 when unreachable),
 * builds the app, listens on HOST:PORT (one line and exit 1 when the port is busy), and
 * closes everything on SIGINT/SIGTERM.
 */
export async function startService<C extends BaseConfig>(options: ServiceAppOptions<C>): Promise<NestFastifyApplication> {
  const { name, config } = options;
  const logger = options.logger ?? createLogger(name, config.LOG_LEVEL);
  const pool = options.pool ?? createPool(config.DATABASE_URL, { applicationName: `tiendita-${name}` });
  // Under npm start (TIENDITA_SUPERVISED) a restart may meet PostgreSQL restarting too: wait for it
  // (at most 30 s) rather than exit and count a crash; started by hand, a wrong URL fails at once.
  const waitUntil = Date.now() + (process.env.TIENDITA_SUPERVISED === '1' ? 30_000 : 0);
  for (;;) {
    try {
      await pool.query('SELECT 1');
      break;
    } catch (error) {
      if (isDatabaseUnavailable(error) && Date.now() < waitUntil) {
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      fail(`No se puede conectar a la base de datos ${describeDatabaseUrl(config.DATABASE_URL)}: ${reason(error)}`);
    }
  }

  let app: NestFastifyApplication;
  try {
    app = await createServiceApp({ ...options, logger, pool });
  } catch (error) {
    logger.fatal({ err: error }, 'no pudo iniciar');
    fail(`${name} no pudo iniciar: ${reason(error)}`);
  }

  try {
    await app.listen({ port: config.PORT, host: config.HOST, listenTextResolver: (address) => `${name} escuchando en ${address}` });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') fail(`El puerto ${config.PORT} ya está en uso`);
    if ((error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') fail(`La dirección ${config.HOST} no está disponible en esta máquina`);
    fail(`${name} no pudo escuchar en ${config.HOST}:${config.PORT}: ${reason(error)}`);
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'deteniendo');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Stop accepting and let the requests in flight finish first; only then do the modules close
    // their clients, projections and pools (Nest's close() alone would close them under the requests).
    drainServer(app)
      .then(() => app.close())
      .then(() => (options.pool ? undefined : pool.end()))
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'error al detener');
          process.exit(1);
        },
      );
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  // Under `npm start` the supervisor holds our stdin open; if it dies, we stop too instead of
  // lingering on the port.
  if (process.env.TIENDITA_SUPERVISED === '1') {
    process.stdin.on('end', () => shutdown('supervisor-gone'));
    process.stdin.on('error', () => shutdown('supervisor-gone'));
    process.stdin.resume();
  }

  return app;
}
