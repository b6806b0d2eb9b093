import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { type ServiceAppOptions, createServiceApp } from './app';
import type { BaseConfig } from './config';
import { createPool, describeDatabaseUrl } from './database';
import { isDatabaseUnavailable } from './database-errors';
import { drainServer } from './lifecycle';
import { createLogger } from './logger';

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
