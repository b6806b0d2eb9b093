import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Logger } from 'pino';
import type { FelConfig } from '../config';
import { SandboxCertifier } from './sandbox-certifier';

/**
 * Where the 'pruebas' certifier is: FEL_SANDBOX_URL when set (tests run their own, to make it slow,
 * down or refusing), else a sandbox this process runs on 127.0.0.1 (what `npm start` gets).
 */
@Injectable()
export class SandboxHost implements OnModuleInit, OnModuleDestroy {
  private sandbox: SandboxCertifier | null = null;
  private base: string;

  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: FelConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {
    this.base = config.FEL_SANDBOX_URL ?? '';
  }

  async onModuleInit(): Promise<void> {
    if (this.base) return;
    this.sandbox = new SandboxCertifier();
    if (this.config.FEL_SANDBOX_DELAY_MS > 0) {
      this.sandbox.mode = 'slow';
      this.sandbox.delayMs = this.config.FEL_SANDBOX_DELAY_MS;
    }
    this.base = await this.sandbox.start(this.config.FEL_SANDBOX_PORT);
    this.logger.info({ url: this.base }, 'Certificador de pruebas (FEL) escuchando');
  }

  url(): string {
    return this.base;
  }

  async onModuleDestroy(): Promise<void> {
    await this.sandbox?.stop();
  }
}
