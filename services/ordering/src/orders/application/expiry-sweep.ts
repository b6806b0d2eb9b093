import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ProjectionHost, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { OrderingConfig } from '../../config';
import { ExpirePendingOrdersCommand } from './order.commands';

/** Every ORDER_EXPIRY_SWEEP_MS, cancels the pending orders past their hold (one sweep at a time per process). */
@Injectable()
export class ExpirySweep implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  constructor(
    private readonly commands: CommandBus,
    private readonly host: ProjectionHost,
    @Inject(SERVICE_CONFIG) private readonly config: OrderingConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.host.started;
    this.timer = setInterval(() => void this.sweep().catch((err) => this.logger.error({ err }, 'No se pudieron cancelar los pedidos vencidos')), this.config.ORDER_EXPIRY_SWEEP_MS);
    this.timer.unref();
  }

  /** One sweep; a call while one runs shares it. Answers how many orders it cancelled. */
  sweep(): Promise<number> {
    this.running ??= this.commands.execute(new ExpirePendingOrdersCommand()).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }
}
