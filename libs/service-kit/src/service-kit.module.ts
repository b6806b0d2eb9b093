import 'reflect-metadata';
import { Controller, type DynamicModule, Get, HttpException, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { ErrorCode } from '@tiendita/contracts';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { BaseConfig } from './config';
import { PublicEndpoint } from './internal-auth';

/** Injection token of the service's pg Pool: `@Inject(PG_POOL) pool: Pool`. */
export const PG_POOL = 'TIENDITA_PG_POOL';
/** Injection token of the parsed configuration object. */
export const SERVICE_CONFIG = 'TIENDITA_SERVICE_CONFIG';
/** Injection token of the service name ('catalog', 'gateway', ...). */
export const SERVICE_NAME = 'TIENDITA_SERVICE_NAME';
/** Injection token of the pino logger. */
export const SERVICE_LOGGER = 'TIENDITA_SERVICE_LOGGER';

/**
 * Work a service does once it has started (the demo shop's seed): /health says `ready: false`
 * until it has settled, so the supervisor opens the gateway only on a complete product.
 */
@Injectable()
export class StartupWork {
  private readonly pending = new Set<Promise<unknown>>();

  track(work: Promise<unknown>): void {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
  }

  get ready(): boolean {
    return this.pending.size === 0;
  }
}

@Controller()
class HealthController {
  constructor(
    @Inject(PG_POOL) private readonly pool: pg.Pool,
    @Inject(SERVICE_NAME) private readonly name: string,
    private readonly startup: StartupWork,
  ) {}

  /** Up and able to reach its database (503 otherwise); `ready` once its start-up work has settled. */
  @Get('health')
  @PublicEndpoint()
  async health(): Promise<{ status: 'ok'; service: string; ready: boolean }> {
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
    return { status: 'ok', service: this.name, ready: this.startup.ready };
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

/** Global providers of every service: pool, config, name, logger, start-up work, and GET /health. */
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
        StartupWork,
      ],
      exports: [PG_POOL, SERVICE_CONFIG, SERVICE_NAME, SERVICE_LOGGER, StartupWork],
    };
  }
}
