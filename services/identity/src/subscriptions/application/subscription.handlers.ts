import { Inject, type OnApplicationShutdown } from '@nestjs/common';
import { Command, CommandHandler, Query, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  IdentityStreams,
  SUBSCRIPTIONS_CSV_HEADER,
  type SubscribeRequest,
  type SubscriptionList,
  type SubscriptionView,
} from '@tiendita/contracts';
import { handleCommand, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost, SERVICE_LOGGER } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { IdentityConfig } from '../../config';
import { CLOCK, type Clock } from '../../shared/clock';
import { EVENT_STORE, IDENTITY_CONFIG, RESET_MAILER } from '../../shared/tokens-di';
import { STORE_NOT_FOUND } from '../../stores/application/get-store.query';
import { findActiveStore } from '../../stores/application/find-store';
import type { ResetMailer } from '../../users/mail/reset-mail';
import { subscriptionDecider } from '../domain/subscription.decider';
import { composeSubscriptionMail, subscriptionIdOf, unsubscribeToken, verifyUnsubscribeToken } from '../mail/subscription-mail';
import { SUBSCRIPTIONS_TABLE } from '../read-model/subscriptions.projection';

/** Links in mails come from the configured public address, never from a request's Host. */
export function publicBase(config: IdentityConfig): string {
  return config.PUBLIC_URL.replace(/\/+$/, '');
}

/** POST /api/public/subscribe/{store}. */
export class SubscribeCommand extends Command<SubscriptionView> {
  constructor(
    readonly store: string,
    readonly input: SubscribeRequest,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

/**
 * One stream per store and e-mail (its id derived from both), so "already subscribed and active"
 * is the decider's rule and two racing subscriptions of one address cannot both win. The mail goes
 * out after the answer, through the password-reset mail path.
 */
@CommandHandler(SubscribeCommand)
export class SubscribeHandler implements ICommandHandler<SubscribeCommand>, OnApplicationShutdown {
  private readonly sending = new Set<Promise<void>>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(RESET_MAILER) private readonly mailer: ResetMailer,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ store, input, correlationId }: SubscribeCommand): Promise<SubscriptionView> {
    const row = await findActiveStore(this.pool, store);
    if (!row) throw new NotFoundError(STORE_NOT_FOUND);
    const subscriptionId = subscriptionIdOf(row.id, input.email);
    const now = this.clock.now().toISOString();
    const phone = input.phone ?? null;
    await handleCommand(
      this.events,
      IdentityStreams.subscription(subscriptionId),
      subscriptionDecider,
      { type: 'Subscribe', data: { subscriptionId, storeId: row.id, email: input.email, name: input.name, phone, now } },
      { metadata: { storeId: row.id, actor: null, correlationId, occurredAt: now } },
    );
    const link = `${publicBase(this.config)}/api/public/unsubscribe?token=${encodeURIComponent(unsubscribeToken(this.config.INTERNAL_SECRET, subscriptionId))}`;
    const message = composeSubscriptionMail({ to: input.email, name: input.name, storeName: row.name, unsubscribeLink: link }, this.config.MAIL_FROM);
    const sending = this.mailer
      .deliver(message, 'correo de suscripción')
      .catch((error: unknown) => this.logger.error({ err: error, to: input.email }, 'no se pudo enviar el correo de suscripción'))
      .finally(() => this.sending.delete(sending));
    this.sending.add(sending);
    return {
      id: subscriptionId,
      storeId: row.id,
      name: input.name,
      email: input.email,
      phone,
      provider: 'email',
      providerId: null,
      profileImage: null,
      isActive: true,
      subscribedAt: now,
      unsubscribedAt: null,
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.sending]);
  }
}

/** GET /api/public/unsubscribe?token=: the signed link of a confirmation mail. */
export class UnsubscribeCommand extends Command<{ ok: boolean; storeName: string | null }> {
  constructor(
    readonly token: string,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

@CommandHandler(UnsubscribeCommand)
export class UnsubscribeHandler implements ICommandHandler<UnsubscribeCommand> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(IDENTITY_CONFIG) private readonly config: IdentityConfig,
  ) {}

  async execute({ token, correlationId }: UnsubscribeCommand): Promise<{ ok: boolean; storeName: string | null }> {
    const subscriptionId = verifyUnsubscribeToken(this.config.INTERNAL_SECRET, token);
    if (!subscriptionId) return { ok: false, storeName: null };
    const stream = await this.events.readStream(IdentityStreams.subscription(subscriptionId));
    const first = stream[0];
    if (!first) return { ok: false, storeName: null };
    const storeId = (first.data as { storeId: string }).storeId;
    const now = this.clock.now().toISOString();
    await handleCommand(
      this.events,
      IdentityStreams.subscription(subscriptionId),
      subscriptionDecider,
      { type: 'Unsubscribe', data: { now } },
      { metadata: { storeId, actor: null, correlationId, occurredAt: now } },
    );
    const store = await this.pool.query<{ name: string }>('SELECT name FROM identity.stores WHERE id = $1', [storeId]);
    return { ok: true, storeName: store.rows[0]?.name ?? null };
  }
}

interface SubscriptionRow {
  id: string;
  store_id: string;
  name: string | null;
  email: string;
  phone: string | null;
  provider: string;
  provider_id: string | null;
  profile_image: string | null;
  is_active: boolean;
  subscribed_at: Date;
  unsubscribed_at: Date | null;
}

const COLUMNS = 'id, store_id, name, email, phone, provider, provider_id, profile_image, is_active, subscribed_at, unsubscribed_at';

function toView(r: SubscriptionRow): SubscriptionView {
  return {
    id: r.id,
    storeId: r.store_id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    provider: r.provider,
    providerId: r.provider_id,
    profileImage: r.profile_image,
    isActive: r.is_active,
    subscribedAt: r.subscribed_at.toISOString(),
    unsubscribedAt: r.unsubscribed_at?.toISOString() ?? null,
  };
}

/** GET /api/subscriptions: the store's subscriptions, active first, newest first, a page at a time. */
export class ListSubscriptionsQuery extends Query<SubscriptionList> {
  constructor(
    readonly storeId: string,
    readonly page: number,
    /** null: every subscription of the store on one page. */
    readonly limit: number | null,
  ) {
    super();
  }
}

@QueryHandler(ListSubscriptionsQuery)
export class ListSubscriptionsHandler implements IQueryHandler<ListSubscriptionsQuery> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ storeId, page, limit }: ListSubscriptionsQuery): Promise<SubscriptionList> {
    // Lets the list see subscriptions committed just before (a subscribe, then the owner's look).
    await this.readModels.caughtUp(undefined, 1000);
    const counts = await this.pool.query<{ total: number; active: number }>(
      `SELECT count(*)::int AS total, (count(*) FILTER (WHERE is_active))::int AS active FROM ${SUBSCRIPTIONS_TABLE} WHERE store_id = $1`,
      [storeId],
    );
    const rows = await this.pool.query<SubscriptionRow>(
      `SELECT ${COLUMNS} FROM ${SUBSCRIPTIONS_TABLE} WHERE store_id = $1 ORDER BY is_active DESC, subscribed_at DESC, id LIMIT $2 OFFSET $3`,
      [storeId, limit, limit === null ? 0 : (page - 1) * limit],
    );
    const { total, active } = counts.rows[0];
    return { subscriptions: rows.rows.map(toView), total, active, totalPages: limit === null ? 1 : Math.max(1, Math.ceil(total / limit)), currentPage: limit === null ? 1 : page };
  }
}

/** A CSV cell: quoted, and a formula-looking start (=, +, -, @, tab, CR) neutralised with a quote. */
export function csvCell(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The subscription date as Guatemala reads it: yyyy-mm-dd hh:mm in America/Guatemala. */
function guatemalaDate(d: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Guatemala', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** GET /api/subscriptions/export.csv: every subscription of the store (spec 000 §2 columns), UTF-8 with a BOM. */
export class ExportSubscriptionsQuery extends Query<string> {
  constructor(readonly storeId: string) {
    super();
  }
}

@QueryHandler(ExportSubscriptionsQuery)
export class ExportSubscriptionsHandler implements IQueryHandler<ExportSubscriptionsQuery> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ storeId }: ExportSubscriptionsQuery): Promise<string> {
    await this.readModels.caughtUp(undefined, 1000);
    const rows = await this.pool.query<SubscriptionRow>(
      `SELECT ${COLUMNS} FROM ${SUBSCRIPTIONS_TABLE} WHERE store_id = $1 AND is_active ORDER BY subscribed_at DESC, id`,
      [storeId],
    );
    const lines = [SUBSCRIPTIONS_CSV_HEADER.map(csvCell).join(',')];
    for (const r of rows.rows) lines.push([r.name, r.email, r.phone, r.provider, guatemalaDate(r.subscribed_at)].map(csvCell).join(','));
    // The BOM tells Excel the file is UTF-8, so names with accents open correctly.
    return `\uFEFF${lines.join('\r\n')}\r\n`;
  }
}
