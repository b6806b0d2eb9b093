import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { PostgresTransport, type Subscription } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../config';
import { IDENTITY_CONFIG } from '../shared/tokens-di';
import { identityProjection, type IdentityTable } from './identity.projection';

/** Physical names of the read-model tables. */
export const READ_TABLES: Record<IdentityTable, string> = {
  users: 'identity.users',
  stores: 'identity.stores',
  store_settings: 'identity.store_settings',
};

/**
 * Keeps identity's read models up to date: the projection follows identity's own events through
 * a catch-up subscription (checkpoint and rows in one transaction). Queries that must see a
 * write the same caller just made (the store right after registering) call waitUntilCurrent().
 */
@Injectable()
export class IdentityReadModels implements OnApplicationBootstrap, OnModuleDestroy {
  private transport: PostgresTransport | null = null;
  private subscription: Subscription | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', ['identity.accounts.setup']);
      await identityProjection.setup(client, READ_TABLES);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['identity.accounts.setup']).catch(() => undefined);
      client.release();
    }
    this.transport = new PostgresTransport({ pool: this.pool, schema: 'identity', connectionString: this.config.DATABASE_URL });
    this.subscription = await this.transport.subscribe({
      group: `identity.${identityProjection.name}`,
      source: 'identity',
      handle: (events, tx) => identityProjection.apply(tx, events, READ_TABLES),
      onError: (error) => this.logger.error({ err: error }, 'la proyección de identidad falló; se reintenta'),
    });
  }

  /** Resolves once every event committed before the call is in the read models (at most `timeoutMs`). */
  async waitUntilCurrent(timeoutMs = 3000): Promise<void> {
    if (!this.subscription) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.subscription.caughtUp(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
    clearTimeout(timer);
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.stop();
    await this.transport?.close();
  }
}
