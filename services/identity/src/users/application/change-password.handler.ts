import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityStreams } from '@tiendita/contracts';
import { handleCommand, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { CLOCK, type Clock } from '../../shared/clock';
import { hashPassword, verifyPassword } from '../../shared/passwords';
import { EVENT_STORE } from '../../shared/tokens-di';
import { userDecider } from '../domain/user.decider';
import { ChangePasswordCommand } from './change-password.command';
import { loadUser } from './load-user';

/**
 * Checks the current password against the stored hash (argon2, off the event loop) and hashes the
 * new one; the User decider refuses a wrong current password. A concurrent change clashes on the
 * stream version.
 */
@CommandHandler(ChangePasswordCommand)
export class ChangePasswordHandler implements ICommandHandler<ChangePasswordCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ userId, storeId, currentPassword, newPassword, correlationId }: ChangePasswordCommand): Promise<{ userId: string }> {
    const user = await loadUser(this.events, userId);
    if (user.status !== 'registered' || user.storeId !== storeId) throw new NotFoundError('Usuario no encontrado');
    const currentPasswordMatches = await verifyPassword(user.passwordHash, currentPassword);
    const passwordHash = currentPasswordMatches ? await hashPassword(newPassword) : '';
    const at = this.clock.now().toISOString();
    await handleCommand(
      this.events,
      IdentityStreams.user(userId),
      userDecider,
      { type: 'ChangePassword', data: { currentPasswordMatches, passwordHash, now: at } },
      { metadata: { storeId, actor: userId, correlationId, occurredAt: at } },
    );
    // The reset links died with the old password (the decider already refuses them): their lookup rows go too.
    await this.pool.query('DELETE FROM identity.reset_token_lookup WHERE user_id = $1', [userId]);
    return { userId };
  }
}
