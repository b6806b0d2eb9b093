import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { SUBSCRIPTIONS_CSV_HEADER, type SubscriptionList, type SubscriptionView } from '@tiendita/contracts';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { SUBSCRIPTIONS_TABLE } from '../read-model/subscriptions.projection';

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
