import { Inject, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
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
 * Answers at once and does the work afterwards, so a known e-mail takes no longer to answer than
 * an unknown one: the lookup, the token, the PasswordResetRequested event and the mail all happen
 * after the answer. Requests for one address run one after another in this process, and one that
 * arrives while another for the same address still waits to start is dropped (it would do the same).
 *
 * Token: 32 random bytes, base64url, only in the mailed link. Its sha256 goes into the
 * PasswordResetRequested event and into reset_token_lookup (to find the user from a link). When the
 * User decider appends nothing (a request moments after the last one, or too many links still
 * valid), the lookup row goes again and no mail is sent.
 */
@CommandHandler(RequestPasswordResetCommand)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordResetCommand>, BeforeApplicationShutdown, OnApplicationShutdown {
  /** Per address (lower-case e-mail): the latest work queued, and whether it is still waiting to start. */
  private readonly work = new Map<string, { done: Promise<void>; waiting: boolean }>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RESET_MAILER) private readonly mailer: ResetMailer,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  execute(command: RequestPasswordResetCommand): Promise<void> {
    const key = command.email.toLowerCase();
    const current = this.work.get(key);
    // A request for this address that has not started yet will do the same work: nothing to add.
    if (current?.waiting) return Promise.resolve();
    const entry = { done: Promise.resolve(), waiting: true };
    entry.done = (current?.done ?? Promise.resolve())
      .then(() => {
        entry.waiting = false;
        return this.requestReset(command);
      })
      .catch((error: unknown) => this.logger.error({ err: error, correlationId: command.correlationId }, 'no se pudo atender la solicitud de recuperación de contraseña'))
      .finally(() => {
        if (this.work.get(key) === entry) this.work.delete(key);
      });
    this.work.set(key, entry);
    return Promise.resolve();
  }

  private async requestReset({ email, correlationId }: RequestPasswordResetCommand): Promise<void> {
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
    const { newEvents } = await handleCommand(
      this.events,
      IdentityStreams.user(userId),
      userDecider,
      { type: 'RequestPasswordReset', data: { tokenHash, expiresAt: expiresAt.toISOString(), now: now.toISOString() } },
      { metadata: { storeId: user.storeId, actor: userId, correlationId, occurredAt: now.toISOString() } },
    );
    if (newEvents.length === 0) {
      await this.pool.query('DELETE FROM identity.reset_token_lookup WHERE token_hash = $1', [tokenHash]);
      this.logger.info({ userId, correlationId }, 'recuperación de contraseña ya solicitada hace poco: no se envía otro enlace');
      return;
    }

    const link = `${this.config.PUBLIC_URL.replace(/\/+$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
    try {
      await this.mailer.send({ to: user.email, firstName: user.firstName, link });
    } catch (error) {
      this.logger.error({ err: error, to: user.email }, 'no se pudo enviar el correo de recuperación');
    }
  }

  /** Lets the work already queued (lookups, events, mails) finish while the database is still open. */
  async beforeApplicationShutdown(): Promise<void> {
    while (this.work.size > 0) await Promise.allSettled([...this.work.values()].map((w) => w.done));
  }

  onApplicationShutdown(): void {
    this.mailer.close();
  }
}
