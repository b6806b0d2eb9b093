import { Inject } from '@nestjs/common';
import { Command, CommandHandler, Query, QueryHandler, type ICommandHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  AuthMessages,
  IdentityStreams,
  OFFLINE_CARD_PAYMENTS_DEFAULT,
  ORDER_LIMITS_DEFAULTS,
  SettingsMessages,
  SubdomainSchema,
  TAX_REGIME_INFO,
  taxRegimeOfRate,
  type StoreSettingsDetails,
  type SubdomainAvailability,
  type UpdateStoreRequest,
  type UpdateStoreSettingsRequest,
} from '@tiendita/contracts';
import { handleCommand, NotFoundError, type PostgresEventStore } from '@tiendita/eventsourcing';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { READ_TABLES } from '../../read-model/read-models';
import { CLOCK, type Clock } from '../../shared/clock';
import { EVENT_STORE } from '../../shared/tokens-di';
import { isReservedSubdomain, storeDecider } from '../domain/store.decider';

interface SettingsRow {
  id: string;
  store_id: string;
  tax_rate: string;
  currency: string;
  kash_enabled: boolean;
  zigi_enabled: boolean;
  print_receipts: boolean;
  receipt_header: string | null;
  receipt_footer: string | null;
  order_max_units_per_line: number | null;
  order_max_units_per_order: number | null;
  order_hold_hours: number | null;
  blocked_phones: string[] | null;
  offline_card_payments: 'refuse' | 'pending' | null;
  updated_at: Date;
}

function toSettingsView(row: SettingsRow): StoreSettingsDetails {
  const taxRate = Number(row.tax_rate);
  const taxRegime = taxRegimeOfRate(taxRate);
  return {
    id: row.id,
    storeId: row.store_id,
    taxRate,
    currency: row.currency,
    kashEnabled: row.kash_enabled,
    zigiEnabled: row.zigi_enabled,
    printReceipts: row.print_receipts,
    receiptHeader: row.receipt_header,
    receiptFooter: row.receipt_footer,
    taxRegime,
    taxNote: TAX_REGIME_INFO[taxRegime].receiptNote,
    orderMaxUnitsPerLine: row.order_max_units_per_line ?? ORDER_LIMITS_DEFAULTS.orderMaxUnitsPerLine,
    orderMaxUnitsPerOrder: row.order_max_units_per_order ?? ORDER_LIMITS_DEFAULTS.orderMaxUnitsPerOrder,
    orderHoldHours: row.order_hold_hours ?? ORDER_LIMITS_DEFAULTS.orderHoldHours,
    blockedPhones: row.blocked_phones ?? [],
    offlineCardPayments: row.offline_card_payments ?? OFFLINE_CARD_PAYMENTS_DEFAULT,
  };
}

/** GET /api/store/settings: the session's store's settings record (404 when it has none). */
export class GetStoreSettingsQuery extends Query<StoreSettingsDetails> {
  constructor(
    readonly storeId: string,
    readonly since: string | null = null,
  ) {
    super();
  }
}

@QueryHandler(GetStoreSettingsQuery)
export class GetStoreSettingsHandler implements IQueryHandler<GetStoreSettingsQuery> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  async execute({ storeId, since }: GetStoreSettingsQuery): Promise<StoreSettingsDetails> {
    const find = async () =>
      (
        await this.pool.query<SettingsRow>(
          `SELECT id, store_id, tax_rate, currency, kash_enabled, zigi_enabled, print_receipts, receipt_header, receipt_footer,
                  order_max_units_per_line, order_max_units_per_order, order_hold_hours, blocked_phones, offline_card_payments, updated_at
           FROM ${READ_TABLES.store_settings} WHERE store_id = $1`,
          [storeId],
        )
      ).rows[0] ?? null;
    const row =
      (await this.readModels.waitFor(async () => {
        const found = await find();
        return found && (!since || found.updated_at.getTime() >= Date.parse(since)) ? found : null;
      })) ?? (await find());
    if (!row) throw new NotFoundError('La tienda aún no tiene configuración');
    return toSettingsView(row);
  }
}

/** PUT /api/store/settings. */
export class UpdateStoreSettingsCommand extends Command<{ now: string }> {
  constructor(
    readonly owner: { userId: string; storeId: string },
    readonly changes: UpdateStoreSettingsRequest,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

@CommandHandler(UpdateStoreSettingsCommand)
export class UpdateStoreSettingsHandler implements ICommandHandler<UpdateStoreSettingsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ owner, changes, correlationId }: UpdateStoreSettingsCommand): Promise<{ now: string }> {
    const now = this.clock.now().toISOString();
    await handleCommand(
      this.events,
      IdentityStreams.store(owner.storeId),
      storeDecider,
      { type: 'UpdateStoreSettings', data: { storeId: owner.storeId, changes, now } },
      { metadata: { storeId: owner.storeId, actor: owner.userId, correlationId, occurredAt: now } },
    );
    return { now };
  }
}

/**
 * POST /api/store: the spec's create call. Every owner's store is created at sign-up, so this only
 * adds the settings record of a store that lacks one (with any store fields sent); 409 otherwise.
 * A changed subdomain is refused here: it goes through PUT /api/store/{id}, which moves its reservation.
 */
export class CreateStoreSettingsCommand extends Command<{ now: string }> {
  constructor(
    readonly owner: { userId: string; storeId: string },
    readonly store: UpdateStoreRequest,
    readonly settings: UpdateStoreSettingsRequest,
    readonly correlationId: string | null = null,
  ) {
    super();
  }
}

@CommandHandler(CreateStoreSettingsCommand)
export class CreateStoreSettingsHandler implements ICommandHandler<CreateStoreSettingsCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: PostgresEventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ owner, store, settings, correlationId }: CreateStoreSettingsCommand): Promise<{ now: string }> {
    const now = this.clock.now().toISOString();
    const { subdomain: _subdomain, ...storeFields } = store;
    await handleCommand(
      this.events,
      IdentityStreams.store(owner.storeId),
      storeDecider,
      { type: 'CreateStoreSettings', data: { storeId: owner.storeId, ownerId: owner.userId, settingsId: randomUUID(), store: storeFields, settings, now } },
      { metadata: { storeId: owner.storeId, actor: owner.userId, correlationId, occurredAt: now } },
    );
    return { now };
  }
}

/** GET /api/store/subdomain-availability?subdomain=: what the settings form shows while the owner types. */
export class SubdomainAvailabilityQuery extends Query<SubdomainAvailability> {
  constructor(
    readonly storeId: string,
    readonly subdomain: string,
  ) {
    super();
  }
}

@QueryHandler(SubdomainAvailabilityQuery)
export class SubdomainAvailabilityHandler implements IQueryHandler<SubdomainAvailabilityQuery> {
  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  async execute({ storeId, subdomain }: SubdomainAvailabilityQuery): Promise<SubdomainAvailability> {
    const value = subdomain.trim().toLowerCase();
    const parsed = SubdomainSchema.safeParse(value);
    if (!parsed.success) return { subdomain: value, available: false, message: parsed.error.issues[0]?.message ?? AuthMessages.subdomainChars };
    if (isReservedSubdomain(value)) return { subdomain: value, available: false, message: AuthMessages.subdomainReserved };
    const r = await this.pool.query<{ taken: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM identity.subdomain_reservations WHERE subdomain = $1 AND store_id <> $2)
           OR EXISTS (SELECT 1 FROM identity.subdomain_redirects WHERE subdomain = $1 AND store_id <> $2 AND expires_at > now()) AS taken`,
      [value, storeId],
    );
    return r.rows[0].taken
      ? { subdomain: value, available: false, message: AuthMessages.subdomainTaken }
      : { subdomain: value, available: true, message: SettingsMessages.subdomainAvailable };
  }
}
