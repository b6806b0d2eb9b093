import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { IdentityStreams, type SubscribeAnswer, type SubscribeRequest, type SubscriptionLinkAnswer, SubscriptionMessages } from '@tiendita/contracts';
import { handleCommand, NotFoundError, ValidationError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost, SERVICE_LOGGER } from '@tiendita/service-kit';
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../../config';
import { CLOCK, type Clock } from '../../shared/clock';
import { EVENT_STORE, IDENTITY_CONFIG, RESET_MAILER } from '../../shared/tokens-di';
import { STORE_NOT_FOUND } from '../../stores/application/get-store.query';
import { findActiveStore } from '../../stores/application/find-store';
import type { ResetMailer } from '../../users/mail/reset-mail';
import { subscriptionDecider } from '../domain/subscription.decider';
import { composeSubscriptionMail, LINK_ACTION, linkToken, type LinkPurpose, subscriptionIdOf, verifyLinkToken } from '../mail/subscription-mail';

/** Links in mails come from the configured public address, never from a request's Host. */
export function publicBase(config: IdentityConfig): string {
  return config.PUBLIC_URL.replace(/\/+$/, '');
}

/** The shop page a mailed link opens: the store's home with the action and its token; its button does the rest. */
function shopPath(config: IdentityConfig, subdomain: string, purpose: LinkPurpose, subscriptionId: string): string {
  const token = linkToken(config.INTERNAL_SECRET, purpose, subscriptionId);
  return `/tienda/${encodeURIComponent(subdomain)}?suscripcion=${LINK_ACTION[purpose]}&token=${encodeURIComponent(token)}`;
}

const shopLink = (config: IdentityConfig, subdomain: string, purpose: LinkPurpose, subscriptionId: string): string =>
  `${publicBase(config)}${shopPath(config, subdomain, purpose, subscriptionId)}`;

/** Sends a subscription mail after the answer; a failure is logged, never the shopper's problem. Mails in flight finish at shutdown. */
@Injectable()
export class SubscriptionMails implements OnApplicationShutdown {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    @Inject(RESET_MAILER) private readonly mailer: ResetMailer,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  send(purpose: LinkPurpose, to: string, link: string): void {
    const sending = this.mailer
      .deliver(composeSubscriptionMail(purpose, to, link, this.config.MAIL_FROM), 'correo de suscripción')
      .catch((error: unknown) => this.logger.error({ err: error }, 'no se pudo enviar el correo de suscripción'))
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }
}

/** POST /api/public/subscribe/{store}: a request, confirmed later by its mailed link. */
export class SubscribeCommand extends Command<SubscribeAnswer> {
  constructor(
    readonly store: string,
    readonly input: SubscribeRequest,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

/**
 * Double opt-in: the request is recorded (SubscriptionRequested) and a fixed-text mail asks the
 * address to confirm. The answer is the same whether the address was new, pending or already
 * subscribed (then nothing is recorded or sent). Each address receives at most
 * SUBSCRIPTION_MAILS_PER_RECIPIENT confirmation mails per SUBSCRIPTION_MAIL_WINDOW_HOURS, whatever
 * the store: the counter is taken for every request, so the answer's timing tells nothing either.
 */
@CommandHandler(SubscribeCommand)
export class SubscribeHandler implements ICommandHandler<SubscribeCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly mails: SubscriptionMails,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ store, input, correlationId }: SubscribeCommand): Promise<SubscribeAnswer> {
    const row = await findActiveStore(this.pool, store, this.readModels);
    if (!row) throw new NotFoundError(STORE_NOT_FOUND);
    const subscriptionId = subscriptionIdOf(row.id, input.email);
    const now = this.clock.now().toISOString();
    const mailAllowed = await this.takeMailQuota(input.email);
    const result = await handleCommand(
      this.events,
      IdentityStreams.subscription(subscriptionId),
      subscriptionDecider,
      { type: 'Subscribe', data: { subscriptionId, storeId: row.id, email: input.email, name: input.name, phone: input.phone ?? null, now } },
      { metadata: { storeId: row.id, actor: null, correlationId, occurredAt: now } },
    );
    if (result.newEvents.length > 0) {
      if (mailAllowed) this.mails.send('confirm', input.email, shopLink(this.config, row.subdomain, 'confirm', subscriptionId));
      else this.logger.warn({ subscriptionId }, 'correo de confirmación no enviado: la dirección llegó a su límite de correos de suscripción');
    }
    return { message: SubscriptionMessages.requested };
  }

  /** One more confirmation mail for this address in its window; false once the window is full. */
  private async takeMailQuota(email: string): Promise<boolean> {
    const r = await this.pool.query<{ sent: number }>({
      name: 'identity_subscription_mail_quota',
      text: `INSERT INTO identity.subscription_mail_quota AS q (email_hash, window_start, sent) VALUES ($1, now(), 1)
             ON CONFLICT (email_hash) DO UPDATE SET
               sent = CASE WHEN q.window_start <= now() - make_interval(hours => $2) THEN 1 ELSE q.sent + 1 END,
               window_start = CASE WHEN q.window_start <= now() - make_interval(hours => $2) THEN now() ELSE q.window_start END
             RETURNING sent`,
      values: [createHash('sha256').update(email.toLowerCase()).digest('hex'), this.config.SUBSCRIPTION_MAIL_WINDOW_HOURS],
    });
    return r.rows[0].sent <= this.config.SUBSCRIPTION_MAILS_PER_RECIPIENT;
  }
}

/** The button of a mailed link's page: POST /api/public/subscription/confirm or POST /api/public/unsubscribe with its token. */
export class SubscriptionLinkCommand extends Command<SubscriptionLinkAnswer> {
  constructor(
    readonly purpose: LinkPurpose,
    readonly token: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

const invalidLink = () => new ValidationError(SubscriptionMessages.invalidLink, { fields: { token: SubscriptionMessages.invalidLink } });

/**
 * Confirms a requested subscription (then mails the unsubscribe link, fixed text) or ends one. Only
 * a POST does this: mail scanners open links with GET, and a GET never changes a subscription.
 */
@CommandHandler(SubscriptionLinkCommand)
export class SubscriptionLinkHandler implements ICommandHandler<SubscriptionLinkCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    private readonly mails: SubscriptionMails,
  ) {}

  async execute({ purpose, token, correlationId }: SubscriptionLinkCommand): Promise<SubscriptionLinkAnswer> {
    const subscriptionId = verifyLinkToken(this.config.INTERNAL_SECRET, purpose, token);
    if (!subscriptionId) throw invalidLink();
    const stream = await this.events.readStream(IdentityStreams.subscription(subscriptionId));
    const first = stream[0]?.data as { storeId: string; email: string } | undefined;
    if (!first) throw invalidLink();
    const now = this.clock.now().toISOString();
    const result = await handleCommand(
      this.events,
      IdentityStreams.subscription(subscriptionId),
      subscriptionDecider,
      purpose === 'confirm' ? { type: 'ConfirmSubscription', data: { now } } : { type: 'Unsubscribe', data: { now } },
      { metadata: { storeId: first.storeId, actor: null, correlationId, occurredAt: now } },
    );
    const store = await this.pool.query<{ name: string; subdomain: string }>('SELECT name, subdomain FROM identity.stores WHERE id = $1', [first.storeId]);
    const found = store.rows[0];
    if (purpose === 'confirm' && result.newEvents.length > 0 && found) this.mails.send('unsubscribe', first.email, shopLink(this.config, found.subdomain, 'unsubscribe', subscriptionId));
    return { message: purpose === 'confirm' ? SubscriptionMessages.confirmed : SubscriptionMessages.unsubscribed, storeName: found?.name ?? null };
  }
}

/**
 * Where an unsubscribe link of an earlier mail (GET /api/public/unsubscribe?token=) now leads: the
 * store's page with the button, or null for a token that is not valid. Nothing is changed.
 */
export async function unsubscribePagePath(pool: Pool, config: IdentityConfig, events: PostgresEventStore, token: string): Promise<string | null> {
  const subscriptionId = verifyLinkToken(config.INTERNAL_SECRET, 'unsubscribe', token);
  if (!subscriptionId) return null;
  const stream = await events.readStream(IdentityStreams.subscription(subscriptionId));
  const storeId = (stream[0]?.data as { storeId?: string } | undefined)?.storeId;
  if (!storeId) return null;
  const store = await pool.query<{ subdomain: string }>('SELECT subdomain FROM identity.stores WHERE id = $1', [storeId]);
  if (!store.rows[0]) return null;
  return shopPath(config, store.rows[0].subdomain, 'unsubscribe', subscriptionId);
}
