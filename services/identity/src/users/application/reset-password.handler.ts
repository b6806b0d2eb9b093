import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { AuthMessages, IdentityStreams } from '@tiendita/contracts';
import { handleCommand, ValidationError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { CLOCK, type Clock } from '../../shared/clock';
import { hashPassword } from '../../shared/passwords';
import { hashResetToken } from '../../shared/tokens';
import { EVENT_STORE } from '../../shared/tokens-di';
import { userDecider } from '../domain/user.decider';
import { loadUser } from './load-user';
import { ResetPasswordCommand } from './reset-password.command';

const invalidToken = () => new ValidationError(AuthMessages.invalidResetToken, { fields: { token: AuthMessages.invalidResetToken } });

/**
 * The lookup only finds the user; the User decider decides (pending, unexpired, unused). Two
 * racing uses of one token clash on the stream version: the retry sees the token spent.
 */
@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, password, correlationId }: ResetPasswordCommand): Promise<{ userId: string }> {
    const tokenHash = hashResetToken(token);
    const now = this.clock.now();
    const found = await this.pool.query<{ user_id: string }>('SELECT user_id FROM identity.reset_token_lookup WHERE token_hash = $1 AND expires_at > $2', [tokenHash, now]);
    const userId = found.rows[0]?.user_id;
    if (!userId) throw invalidToken();

    const user = await loadUser(this.events, userId);
    if (user.status !== 'registered') throw invalidToken();
    const passwordHash = await hashPassword(password);
    const at = this.clock.now().toISOString();
    await handleCommand(
      this.events,
      IdentityStreams.user(userId),
      userDecider,
      { type: 'ResetPassword', data: { tokenHash, passwordHash, now: at } },
      { metadata: { storeId: user.storeId, actor: userId, correlationId, occurredAt: at } },
    );
    // Every link of this user died with the new password; expired rows of others go too.
    await this.pool.query('DELETE FROM identity.reset_token_lookup WHERE user_id = $1 OR expires_at < $2', [userId, now]);
    return { userId };
  }
}
