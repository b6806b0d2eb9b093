import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AuthMessages, IdentityStreams, type UpdateStoreRequest } from '@tiendita/contracts';
import { handleCommand, IllegalStateError, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool, PoolClient } from 'pg';
import { CLOCK, type Clock } from '../../shared/clock';
import { EVENT_STORE } from '../../shared/tokens-di';
import { storeDecider } from '../domain/store.decider';
import { CatalogUploadsClient } from './catalog-uploads.client';
import { STORE_NOT_FOUND } from './get-store.query';

/** Days an old subdomain keeps leading to the new one (and stays taken). */
export const SUBDOMAIN_REDIRECT_DAYS = 90;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const subdomainTaken = () => new IllegalStateError(AuthMessages.subdomainTaken, { fields: { subdomain: AuthMessages.subdomainTaken } });

/** PUT /api/store/{id}: the owner's own store only (any other id answers 404). */
export class UpdateStoreCommand extends Command<{ changed: boolean; now: string }> {
  constructor(
    readonly storeId: string,
    readonly owner: { userId: string; storeId: string },
    readonly changes: UpdateStoreRequest,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

/**
 * A new subdomain is reserved in the same transaction as the StoreUpdated event, and the old one
 * moves to subdomain_redirects for 90 days: still taken, and /{old} still finds the store.
 */
@CommandHandler(UpdateStoreCommand)
export class UpdateStoreHandler implements ICommandHandler<UpdateStoreCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly uploads: CatalogUploadsClient,
  ) {}

  async execute({ storeId, owner, changes, correlationId }: UpdateStoreCommand): Promise<{ changed: boolean; now: string }> {
    if (!UUID.test(storeId) || storeId.toLowerCase() !== owner.storeId.toLowerCase()) throw new NotFoundError(STORE_NOT_FOUND);
    if (typeof changes.logoUrl === 'string') {
      // A new logo must be one of the store's own uploads (as product images); the logo it has stays accepted.
      const current = await this.pool.query<{ logo_url: string | null }>('SELECT logo_url FROM identity.stores WHERE id = $1', [storeId]);
      if (current.rows[0]?.logo_url !== changes.logoUrl) await this.uploads.assertLogoOwned(owner, changes.logoUrl);
    }
    const now = this.clock.now();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const current = await client.query<{ subdomain: string }>('SELECT subdomain FROM identity.subdomain_reservations WHERE store_id = $1 FOR UPDATE', [storeId]);
      const oldSubdomain = current.rows[0]?.subdomain;
      if (!oldSubdomain) throw new NotFoundError(STORE_NOT_FOUND);
      const result = await handleCommand(
        this.events,
        IdentityStreams.store(storeId),
        storeDecider,
        { type: 'UpdateStore', data: { storeId, ownerId: owner.userId, changes, now: now.toISOString() } },
        { client, metadata: { storeId, actor: owner.userId, correlationId, occurredAt: now.toISOString() } },
      );
      const event = result.newEvents[0];
      const newSubdomain = event?.type === 'StoreUpdated' ? event.data.changes.subdomain : undefined;
      if (newSubdomain !== undefined && newSubdomain !== oldSubdomain) await this.moveSubdomain(client, storeId, oldSubdomain, newSubdomain, now);
      await client.query('COMMIT');
      return { changed: result.newEvents.length > 0, now: now.toISOString() };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      // Two owners racing for the same new subdomain: the unique key decides, the loser hears it.
      if ((error as { code?: string }).code === '23505') throw subdomainTaken();
      throw error;
    } finally {
      client.release();
    }
  }

  private async moveSubdomain(client: PoolClient, storeId: string, from: string, to: string, now: Date): Promise<void> {
    const held = await client.query('SELECT 1 FROM identity.subdomain_redirects WHERE subdomain = $1 AND store_id <> $2 AND expires_at > $3', [to, storeId, now]);
    if (held.rowCount) throw subdomainTaken();
    // Taking back one's own old subdomain ends its redirect.
    await client.query('DELETE FROM identity.subdomain_redirects WHERE subdomain = $1', [to]);
    const moved = await client.query(
      `UPDATE identity.subdomain_reservations SET subdomain = $2, reserved_at = $3
       WHERE store_id = $1 AND NOT EXISTS (SELECT 1 FROM identity.subdomain_reservations WHERE subdomain = $2)`,
      [storeId, to, now],
    );
    if (moved.rowCount !== 1) throw subdomainTaken();
    const expires = new Date(now.getTime() + SUBDOMAIN_REDIRECT_DAYS * 24 * 3600 * 1000);
    await client.query(
      `INSERT INTO identity.subdomain_redirects (subdomain, store_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT (subdomain) DO UPDATE SET store_id = EXCLUDED.store_id, expires_at = EXCLUDED.expires_at`,
      [from, storeId, expires],
    );
  }
}

