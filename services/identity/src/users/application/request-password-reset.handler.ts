import { Inject, type OnApplicationShutdown } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityStreams } from '@tiendita/contracts';
import { handleCommand, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../../config';
import { CLOCK, type Clock } from '../../shared/clock';
import { hashResetToken, newResetToken, RESET_TOKEN_TTL_MS } from '../../shared/tokens';
import { EVENT_STORE, IDENTITY_CONFIG, RESET_MAILER } from '../../shared/tokens-di';
import { userDecider } from '../domain/user.decider';
import type { ResetMailer } from '../mail/reset-mail';
import { loadUser, userIdByEmail } from './load-user';
import { RequestPasswordResetCommand } from './request-password-reset.command';

/**
 * Token: 32 random bytes, base64url, only in the mailed link. Its sha256 goes into the
 * PasswordResetRequested event and into reset_token_lookup (to find the user from a link).
 * The mail is sent after the answer, so a known e-mail does not take visibly longer than an unknown one.
 */
@CommandHandler(RequestPasswordResetCommand)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordResetCommand>, OnApplicationShutdown {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RESET_MAILER) private readonly mailer: ResetMailer,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ email, origin, correlationId }: RequestPasswordResetCommand): Promise<void> {
    const userId = await userIdByEmail(this.pool, email);
    if (!userId) return;
    const user = await loadUser(this.events, userId);
    if (user.status !== 'registered') return;

    const token = newResetToken();
    const tokenHash = hashResetToken(token);
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + RESET_TOKEN_TTL_MS);
    // The lookup row first: if the append below fails, it points at a token nobody ever received.
    await this.pool.query('INSERT INTO identity.reset_token_lookup (token_hash, user_id, expires_at) VALUES ($1, $2, $3)', [tokenHash, userId, expiresAt]);
    await handleCommand(
      this.events,
      IdentityStreams.user(userId),
      userDecider,
      { type: 'RequestPasswordReset', data: { tokenHash, expiresAt: expiresAt.toISOString(), now: now.toISOString() } },
      { metadata: { storeId: user.storeId, actor: userId, correlationId, occurredAt: now.toISOString() } },
    );

    const base = (this.config.PUBLIC_URL ?? origin ?? `http://localhost:${this.config.PORT}`).replace(/\/+$/, '');
    const link = `${base}/reset-password?token=${encodeURIComponent(token)}`;
    const sending = this.mailer
      .send({ to: user.email, firstName: user.firstName, link })
      .catch((error: unknown) => this.logger.error({ err: error, to: user.email }, 'no se pudo enviar el correo de recuperación'))
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  /** Lets mails already on their way finish before the process ends. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.sending]);
    this.mailer.close();
  }
}
