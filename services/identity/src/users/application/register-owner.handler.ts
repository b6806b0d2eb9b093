import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AuthMessages, IdentityStreams } from '@tiendita/contracts';
import { handleCommand, IllegalStateError, ValidationError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { isReservedSubdomain, storeDecider } from '../../stores/domain/store.decider';
import { CLOCK, type Clock } from '../../shared/clock';
import { hashPassword } from '../../shared/passwords';
import { EVENT_STORE } from '../../shared/tokens-di';
import { userDecider } from '../domain/user.decider';
import { RegisterOwnerCommand, type RegisterOwnerResult } from './register-owner.command';

const emailTaken = () => new IllegalStateError(AuthMessages.emailTaken, { fields: { email: AuthMessages.emailTaken } });
const subdomainTaken = () => new IllegalStateError(AuthMessages.subdomainTaken, { fields: { subdomain: AuthMessages.subdomainTaken } });

/**
 * E-mail and subdomain are unique across aggregates. Each is reserved by a row under a primary key
 * in the same transaction that appends the new streams: of two racing registrations the second
 * waits on the first's row, then finds it taken, and nothing of it is written.
 */
@CommandHandler(RegisterOwnerCommand)
export class RegisterOwnerHandler implements ICommandHandler<RegisterOwnerCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input, correlationId }: RegisterOwnerCommand): Promise<RegisterOwnerResult> {
    if (isReservedSubdomain(input.subdomain)) {
      throw new ValidationError(AuthMessages.subdomainReserved, { fields: { subdomain: AuthMessages.subdomainReserved } });
    }
    // Cheap early answers before the costly hash; the inserts below are what decides.
    const taken = await this.pool.query<{ email: boolean; subdomain: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM identity.email_reservations WHERE email = $1) AS email,
              EXISTS (SELECT 1 FROM identity.subdomain_reservations WHERE subdomain = $2)
              -- A subdomain a store left less than 90 days ago still leads to that store.
              OR EXISTS (SELECT 1 FROM identity.subdomain_redirects WHERE subdomain = $2 AND expires_at > now()) AS subdomain`,
      [input.email, input.subdomain],
    );
    if (taken.rows[0].email) throw emailTaken();
    if (taken.rows[0].subdomain) throw subdomainTaken();

    const passwordHash = await hashPassword(input.password);
    const userId = randomUUID();
    const storeId = randomUUID();
    const now = this.clock.now().toISOString();
    const metadata = { storeId, actor: userId, correlationId, occurredAt: now };

    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await this.reserve(client, 'INSERT INTO identity.email_reservations (email, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [input.email, userId], emailTaken);
      await this.reserve(client, 'INSERT INTO identity.subdomain_reservations (subdomain, store_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [input.subdomain, storeId], subdomainTaken);
      await handleCommand(
        this.events,
        IdentityStreams.store(storeId),
        storeDecider,
        {
          type: 'CreateStore',
          data: {
            storeId,
            ownerId: userId,
            settingsId: randomUUID(),
            name: input.storeName,
            subdomain: input.subdomain,
            businessType: input.businessType,
            description: input.storeDescription ?? null,
            phone: input.storePhone ?? null,
            email: input.storeEmail ?? null,
            address: input.storeAddress ?? null,
            department: input.storeDepartment,
            website: input.website ?? null,
            whatsappNumber: input.whatsappNumber ?? null,
            businessHours: input.businessHours ?? null,
            now,
          },
        },
        { client, metadata },
      );
      await handleCommand(
        this.events,
        IdentityStreams.user(userId),
        userDecider,
        {
          type: 'RegisterUser',
          data: { userId, email: input.email, passwordHash, firstName: input.firstName, lastName: input.lastName, storeId, now },
        },
        { client, metadata },
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
    return {
      user: { id: userId, email: input.email, firstName: input.firstName, lastName: input.lastName, profileImageUrl: null, storeId },
      store: { id: storeId, name: input.storeName, subdomain: input.subdomain },
    };
  }

  private async reserve(client: PoolClient, sql: string, values: unknown[], taken: () => Error): Promise<void> {
    const result = await client.query(sql, values);
    if (result.rowCount !== 1) throw taken();
  }
}
