import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  isUuid,
  ORDER_MAX_PAGE_SIZE,
  type OrderHistoryEntry,
  type OrderLine,
  type OrderListResponse,
  OrderMessages,
  type OrderPlaced,
  OrderStatus,
  type OrderView,
  type PosOrderRequest,
  type PublicOrderRequest,
  type PublicOrderResponse,
  toCentavos,
  toQuetzales,
} from '@tiendita/contracts';
import { ConcurrencyError, handleCommand, IllegalStateError, NotFoundError, type PostgresEventStore, ValidationError } from '@tiendita/eventsourcing';
import { EVENT_STORE, type OwnerIdentity, PG_POOL, ProjectionHost, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { OrderingConfig } from '../../config';
import { orderDecider, orderStreamId, type OrderState } from '../domain/order.decider';
import { InventoryClient } from './inventory-client';
import { DEFAULT_TAX_RATE, newOrderCode, priceLine, type ProductRow, totals, whatsappMessage, whatsappUrl } from './pricing';

export interface StoreRow {
  id: string;
  subdomain: string;
  name: string;
  address: string | null;
  phone: string | null;
  whatsapp_number: string | null;
  is_active: boolean;
  allow_online_orders: boolean;
  require_customer_info: boolean;
  logo_url: string | null;
  tax_rate: string;
  receipt_header: string | null;
  receipt_footer: string | null;
}

interface OrderRow {
  id: string;
  store_id: string;
  code: string;
  customer_name: string | null;
  customer_phone: string | null;
  customer_address: string | null;
  customer_email: string | null;
  customer_nit: string | null;
  subtotal: string;
  tax: string;
  total: string;
  status: OrderStatus;
  order_type: 'whatsapp' | 'pos';
  payment_method: OrderView['paymentMethod'];
  payment_status: OrderView['paymentStatus'];
  notes: string | null;
  whatsapp_message: string | null;
  items: OrderLine[];
  cash_received: string | null;
  change: string | null;
  created_at: Date;
  updated_at: Date;
}

const MAX_LINES = 100;

/** How much of the searches' matches each ordering process keeps (searchPage): ~40 bytes an id. */
const SEARCH_MEMO = { maxSearches: 200, maxIds: 50_000, maxTotalIds: 250_000 };

/** Names of the list's prepared statements, one per text (a few hundred at most: filters × sorts × directions). */
const statementNames = new Map<string, string>();

/**
 * A query config that pg prepares once per connection under a name of its own (then only binds and
 * executes it); PostgreSQL switches to one generic plan after the first few calls when that plan
 * costs no more than the custom ones (as inventory's list does).
 */
function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = statementNames.get(text);
  if (!name) {
    name = `ordering_list_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}
const SORT_COLUMNS: Record<string, string> = { id: 'id', total: 'total', status: 'status', createdAt: 'created_at' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const text = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');
const optionalText = (v: unknown): string | null => text(v) || null;

function tooLong(value: string | null, max: number, message: string, field: string): void {
  if (value && value.length > max) throw new ValidationError(message, { fields: { [field]: message } });
}

/** Order id of an Idempotency-Key: the same key in the same store and kind always names the same order. */
function orderIdFor(storeId: string, kind: string, key: string | undefined): string {
  if (!key) return randomUUID();
  const h = createHash('sha256').update(`${storeId}\u0000${kind}\u0000${key}`).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export function orderView(r: OrderRow): OrderView {
  return {
    id: r.id,
    storeId: r.store_id,
    code: r.code,
    customerName: r.customer_name,
    customerPhone: r.customer_phone,
    customerAddress: r.customer_address,
    customerEmail: r.customer_email,
    customerNit: r.customer_nit,
    subtotal: toQuetzales(Number(r.subtotal)),
    tax: toQuetzales(Number(r.tax)),
    total: toQuetzales(Number(r.total)),
    status: r.status,
    orderType: r.order_type,
    paymentMethod: r.payment_method,
    paymentStatus: r.payment_status,
    notes: r.notes,
    whatsappMessage: r.whatsapp_message,
    items: r.items.map(lineView),
    cashReceived: r.cash_received === null ? null : toQuetzales(Number(r.cash_received)),
    change: r.change === null ? null : toQuetzales(Number(r.change)),
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

function lineView(l: OrderLine) {
  return { productId: l.productId, productName: l.productName, sku: l.sku, quantity: l.quantity, price: toQuetzales(l.unitPrice), lineTotal: toQuetzales(l.lineTotal) };
}

function placedView(o: OrderPlaced, updatedAt: string, status: OrderStatus): OrderView {
  return orderView({
    id: o.orderId,
    store_id: o.storeId,
    code: o.code,
    customer_name: o.customerName,
    customer_phone: o.customerPhone,
    customer_address: o.customerAddress,
    customer_email: o.customerEmail,
    customer_nit: o.customerNit,
    subtotal: String(o.subtotal),
    tax: String(o.tax),
    total: String(o.total),
    status,
    order_type: o.orderType,
    payment_method: o.paymentMethod,
    payment_status: o.paymentStatus,
    notes: o.notes,
    whatsapp_message: o.whatsappMessage,
    items: o.items,
    cash_received: o.cashReceived === null ? null : String(o.cashReceived),
    change: o.change === null ? null : String(o.change),
    created_at: new Date(o.placedAt),
    updated_at: new Date(updatedAt),
  });
}

/**
 * The ordering application: public checkout, POS sales, the owner's list and status changes,
 * and the system's cancellation of pending orders past their hold.
 */
@Injectable()
export class OrdersService implements OnApplicationBootstrap, OnModuleDestroy {
  private sweepTimer: NodeJS.Timeout | null = null;
  /** Searches' matches by statement and values (see searchPage), oldest first; `searchIds` counts their ids. */
  private readonly searches = new Map<string, { version: string; ids: string[] }>();
  private searchIds = 0;
  private sweeping: Promise<number> | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    @Inject(SERVICE_CONFIG) private readonly config: OrderingConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    private readonly host: ProjectionHost,
    private readonly inventory: InventoryClient,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Codes are claimed here (unique per store, one per order) before the order's event is written.
    await this.pool.query(`
      CREATE TABLE IF NOT EXISTS ordering.order_codes (
        order_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        code varchar(12) NOT NULL,
        UNIQUE (store_id, code)
      )`);
    await this.host.started;
    this.sweepTimer = setInterval(() => void this.sweepExpired().catch((err) => this.logger.error({ err }, 'No se pudieron cancelar los pedidos vencidos')), this.config.ORDER_EXPIRY_SWEEP_MS);
    this.sweepTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    await this.sweeping?.catch(() => undefined);
  }

  // ---- public checkout -------------------------------------------------------------------

  async placePublic(storeParam: string, body: PublicOrderRequest, idempotencyKey: string | undefined): Promise<PublicOrderResponse> {
    const c = body.customerData ?? {};
    const name = text(c.name);
    const phone = text(c.phone);
    if (!name || !phone) throw new ValidationError(OrderMessages.customerRequired, { fields: { name: OrderMessages.customerRequired, phone: OrderMessages.customerRequired } });
    const address = optionalText(c.address);
    const notes = optionalText(c.notes);
    const email = optionalText(c.email);
    tooLong(name, 255, OrderMessages.nameTooLong, 'name');
    tooLong(phone, 20, OrderMessages.phoneTooLong, 'phone');
    tooLong(address, 1000, OrderMessages.addressTooLong, 'address');
    tooLong(notes, 1000, OrderMessages.notesTooLong, 'notes');
    tooLong(email, 255, 'El email no puede tener más de 255 caracteres.', 'email');
    const wanted = this.cartLines(body.items ?? body.cart);

    const { store, products } = await this.checkoutSources(storeParam, wanted);
    if (!store || !store.is_active) throw new NotFoundError(OrderMessages.storeNotFound);
    // Orders go to the store's WhatsApp: without a number there is nowhere to send them (issue 13).
    if (!store.allow_online_orders || !store.whatsapp_number?.trim()) throw new IllegalStateError(OrderMessages.onlineOrdersOff);
    if (store.require_customer_info && !address) {
      throw new ValidationError(OrderMessages.addressRequired, { fields: { address: OrderMessages.addressRequired } });
    }

    const orderId = orderIdFor(store.id, 'public', idempotencyKey);
    const existing = idempotencyKey ? await this.loadOrder(orderId) : null;
    if (existing) return this.publicAnswer(existing.order, store);

    const lines = this.priceLines(store.id, wanted, products);
    const sums = totals(lines, Number(store.tax_rate ?? DEFAULT_TAX_RATE));
    const code = await this.reserveAndClaimCode(orderId, store.id, { userId: 'public', storeId: store.id }, lines, false);
    const message = whatsappMessage({ code, lines, total: sums.total, name, phone, address, notes });
    const order: OrderPlaced = {
      orderId,
      storeId: store.id,
      code,
      orderType: 'whatsapp',
      status: 'pending',
      paymentMethod: 'whatsapp',
      paymentStatus: 'pending',
      customerName: name,
      customerPhone: phone,
      customerAddress: address,
      customerEmail: email,
      customerNit: null,
      notes,
      items: lines,
      ...sums,
      cashReceived: null,
      change: null,
      whatsappMessage: message,
      placedBy: name,
      placedAt: new Date().toISOString(),
    };
    // The shopper's answer is the event itself; the owner's list shows it once projected (a read of
    // this order before then waits for it, see row()), so checkout does not wait for the projection.
    const placed = await this.place(order, { storeId: store.id, actor: 'public' }, false);
    return this.publicAnswer(placed, store);
  }

  private publicAnswer(o: OrderPlaced, store: StoreRow): PublicOrderResponse {
    const message = o.whatsappMessage ?? '';
    return {
      id: o.orderId,
      code: o.code,
      status: 'pending',
      items: o.items.map(lineView),
      subtotal: toQuetzales(o.subtotal),
      tax: toQuetzales(o.tax),
      total: toQuetzales(o.total),
      whatsappMessage: message,
      whatsappUrl: whatsappUrl(store.whatsapp_number, message),
    };
  }

  // ---- point of sale ---------------------------------------------------------------------

  async placePos(owner: OwnerIdentity, body: PosOrderRequest, idempotencyKey: string | undefined): Promise<OrderView> {
    const method = text(body.paymentMethod) || 'cash';
    if (method === 'kash' || method === 'zigi') {
      const label = method === 'kash' ? 'Kash' : 'Zigi';
      throw new ValidationError(`${OrderMessages.comingSoon}: el pago con ${label} aún no está disponible.`, { fields: { paymentMethod: OrderMessages.comingSoon } });
    }
    if (method !== 'cash' && method !== 'card') throw new ValidationError(OrderMessages.invalidPaymentMethod, { fields: { paymentMethod: OrderMessages.invalidPaymentMethod } });
    const name = text(body.customerName) || OrderMessages.defaultPosCustomer;
    const phone = optionalText(body.customerPhone);
    const nit = (text(body.customerNit) || OrderMessages.defaultNit).toUpperCase();
    const email = optionalText(body.customerEmail);
    const notes = optionalText(body.notes);
    tooLong(name, 255, OrderMessages.nameTooLong, 'customerName');
    tooLong(phone, 20, OrderMessages.phoneTooLong, 'customerPhone');
    tooLong(nit, 20, 'El NIT no puede tener más de 20 caracteres.', 'customerNit');
    tooLong(notes, 1000, OrderMessages.notesTooLong, 'notes');
    const wanted = this.cartLines(body.items);

    const orderId = orderIdFor(owner.storeId, 'pos', idempotencyKey);
    const existing = idempotencyKey ? await this.loadOrder(orderId) : null;
    if (existing) return placedView(existing.order, existing.updatedAt, existing.current);

    const { store, products } = await this.checkoutSources(owner.storeId, wanted);
    const lines = this.priceLines(owner.storeId, wanted, products);
    const sums = totals(lines, Number(store?.tax_rate ?? DEFAULT_TAX_RATE));
    let cashReceived: number | null = null;
    let change: number | null = null;
    if (method === 'cash') {
      const raw = body.cashReceived;
      const given = raw === undefined || raw === null || raw === '' ? sums.total : Number(raw);
      if (!Number.isFinite(given) || given < 0) throw new ValidationError('El monto recibido no es válido.', { fields: { cashReceived: 'El monto recibido no es válido.' } });
      cashReceived = raw === undefined || raw === null || raw === '' ? sums.total : toCentavos(given);
      if (cashReceived < sums.total) throw new ValidationError(OrderMessages.insufficientPayment, { fields: { cashReceived: OrderMessages.insufficientPayment } });
      change = cashReceived - sums.total;
    }
    const code = await this.reserveAndClaimCode(orderId, owner.storeId, owner, lines, true);
    const order: OrderPlaced = {
      orderId,
      storeId: owner.storeId,
      code,
      orderType: 'pos',
      status: 'completed',
      paymentMethod: method,
      paymentStatus: 'paid',
      customerName: name,
      customerPhone: phone,
      customerAddress: null,
      customerEmail: email,
      customerNit: nit,
      notes,
      items: lines,
      ...sums,
      cashReceived,
      change,
      whatsappMessage: null,
      placedBy: owner.userId,
      placedAt: new Date().toISOString(),
    };
    const placed = await this.place(order, { storeId: owner.storeId, actor: owner.userId }, true);
    return placedView(placed, placed.placedAt, placed.status);
  }

  // ---- owner reads and status changes ----------------------------------------------------

  /**
   * The owner's list. The total of any filter but a search is a sum over order_counts; the page's
   * ids come from an index-only walk of the sort's covering index (orders.projection.ts), which stops
   * at the page; then only those rows are read from the table, in the page's order. A page past the
   * middle is read from the far end of the index, and no walk looks for more rows than the total
   * leaves (so a last page, or a rare status near either end, stops as soon as it is found). A
   * search's matches are counted in the statement that reads its page.
   */
  async list(owner: OwnerIdentity, query: Record<string, unknown>): Promise<OrderListResponse> {
    // A public checkout answers before the list shows its order: a list read right after one waits for it.
    await this.host.fresh([{ projection: 'orders', source: 'ordering' }]);
    // `where` filters the orders; `counted` is the same filter on order_counts (per store, day,
    // status, type and payment status), which answers the total without counting the orders.
    const where = ['store_id = $1'];
    const counted = ['store_id = $1'];
    const values: unknown[] = [owner.storeId];
    const add = (value: unknown, sql: (n: number) => string, countSql: (n: number) => string = sql) => {
      values.push(value);
      where.push(sql(values.length));
      counted.push(countSql(values.length));
    };
    const search = text(query.search);
    if (search) {
      // search_key is the search text lower-cased by PostgreSQL; lower() of the pattern here makes this
      // ILIKE on that text (the same lower-casing of both sides), with % and _ typed taken literally.
      values.push(`%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      where.push(`search_key LIKE lower($${values.length})`);
    }
    const status = text(query.status);
    if (status && status !== 'all') {
      if (!OrderStatus.safeParse(status).success) throw new ValidationError(OrderMessages.invalidStatus, { fields: { status: OrderMessages.invalidStatus } });
      add(status, (n) => `status = $${n}`);
    }
    const paymentStatus = text(query.paymentStatus);
    if (paymentStatus && paymentStatus !== 'all') add(paymentStatus, (n) => `payment_status = $${n}`);
    const orderType = text(query.orderType);
    if (orderType && orderType !== 'all') add(orderType, (n) => `order_type = $${n}`);
    const startDate = text(query.startDate).slice(0, 10);
    if (startDate) {
      if (!DAY.test(startDate)) throw new ValidationError('Fecha inicial inválida', { fields: { startDate: 'Fecha inicial inválida' } });
      add(
        startDate,
        (n) => `created_at >= ($${n}::date::timestamp AT TIME ZONE 'America/Guatemala')`,
        (n) => `day >= $${n}::date`,
      );
    }
    const endDate = text(query.endDate).slice(0, 10);
    if (endDate) {
      if (!DAY.test(endDate)) throw new ValidationError('Fecha final inválida', { fields: { endDate: 'Fecha final inválida' } });
      add(
        endDate,
        (n) => `created_at < (($${n}::date + 1)::timestamp AT TIME ZONE 'America/Guatemala')`,
        (n) => `day <= $${n}::date`,
      );
    }
    // order_counts has the day; order_totals, the same counts without it, answers a list without dates.
    const counts = startDate || endDate ? 'order_counts' : 'order_totals';
    const limit = query.limit === undefined || query.limit === '' ? 10 : Number(query.limit);
    // The Orders page offers 5, 10, 20 and 50 (ORDER_PAGE_SIZES); the API takes any whole size up to
    // ORDER_MAX_PAGE_SIZE, as the products list does, so a client may page by 3 or by 100.
    if (!Number.isInteger(limit) || limit < 1 || limit > ORDER_MAX_PAGE_SIZE) {
      throw new ValidationError(OrderMessages.invalidPageSize, { fields: { limit: OrderMessages.invalidPageSize } });
    }
    const page = query.page === undefined || query.page === '' ? 1 : Number(query.page);
    if (!Number.isInteger(page) || page < 1) throw new ValidationError('Página inválida', { fields: { page: 'Página inválida' } });
    const sortBy = SORT_COLUMNS[text(query.sortBy) || 'createdAt'] ?? 'created_at';
    const desc = text(query.sortOrder).toLowerCase() !== 'asc';
    const filter = `FROM ordering.orders WHERE ${where.join(' AND ')}`;
    // The tie-breaker follows the direction, so either direction is the sort's index read one way.
    const order = (descending: boolean) => (sortBy === 'id' ? ['id'] : [sortBy, 'id']).map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', ');
    const offset = Math.min((page - 1) * limit, Number.MAX_SAFE_INTEGER);
    // A list without a search or dates is prepared once per connection (`prepared`) with page size
    // and offset as its last two parameters, read through sub-selects: the text does not change with
    // the page and the planner never sees their values, so it keeps one generic plan for every page
    // (no planning per call). A search's pattern and a date range decide the plan (how many orders
    // match): a generic plan for them walked the whole store (146 ms for 120 days instead of 2), so
    // those are planned on each call with their values, page size and offset written in the text.
    const generic = !search && !startDate && !endDate;
    let l = String(limit);
    let o = String(offset);
    if (generic) {
      values.push(limit, offset);
      [l, o] = [`(SELECT $${values.length - 1}::int)`, `(SELECT $${values.length}::bigint)`];
    }
    const statement = (sql: string) => (generic ? prepared(sql, values) : { text: sql, values });
    let rows: (OrderRow & { list_total: number })[];
    if (search) {
      // A search counts every match and pages on order_search (the narrow copy with the trigram
      // index, orders.projection.ts). Its matches, in the list's order, are kept in memory while
      // the store's orders do not change (searchPage), so the next page of the same search reads
      // only its own rows. Otherwise, one walk of the matches: the page's ids with the number of
      // matches beside them (a window count before the LIMIT; counting in a second walk doubled the
      // cost of a broad search, 'Pérez': ~6,500 matches), then only the page's rows from orders. A
      // page past the last match has no row to carry the count, so it is counted on its own.
      const searched = `FROM ordering.order_search WHERE ${where.join(' AND ')}`;
      const memo = await this.searchPage(`SELECT id ${searched} ORDER BY ${order(desc)}`, values, offset, limit);
      if (memo) rows = memo;
      else {
        rows = (
          await this.pool.query<OrderRow & { list_total: number }>(
            statement(
              `WITH m AS (SELECT id, count(*) OVER () AS matches ${searched} ORDER BY ${order(desc)} LIMIT ${l} OFFSET ${o})
               SELECT o.*, m.matches AS list_total FROM m JOIN ordering.orders o ON o.id = m.id ORDER BY ${order(desc).replace(/(^|, )/g, '$1o.')}`,
            ),
          )
        ).rows;
        if (rows.length === 0 && offset > 0) {
          const counted = await this.pool.query<{ list_total: number }>(`SELECT count(*)::int AS list_total ${searched}`, values);
          rows = [{ ...counted.rows[0], id: null } as unknown as OrderRow & { list_total: number }];
        }
      }
    } else {
      // One round trip: the total summed from order_totals (order_counts with a date range), the
      // page's ids from the sort's index (past the middle, from its far end, put back in order
      // after), then those rows; a row with a null id when the page is empty.
      const flip = `2 * ${o} + ${l} > t.n`;
      rows = (
        await this.pool.query<OrderRow & { list_total: number }>(
          statement(
            `WITH t AS (SELECT COALESCE(sum(n), 0)::int AS n FROM ordering.${counts} WHERE ${counted.join(' AND ')}),
             g AS (
               SELECT t.n, ${flip} AS flipped, CASE
                 WHEN ${o} >= t.n THEN '{}'::uuid[]
                 WHEN ${flip} THEN ARRAY(SELECT id ${filter} ORDER BY ${order(!desc)} LIMIT LEAST(${l}, t.n - ${o}) OFFSET GREATEST(0, t.n - ${o} - ${l}))
                 ELSE ARRAY(SELECT id ${filter} ORDER BY ${order(desc)} LIMIT ${l} OFFSET ${o})
               END AS ids
               FROM t
             )
             SELECT o.*, g.n AS list_total
             FROM g
             LEFT JOIN LATERAL unnest(g.ids) WITH ORDINALITY AS page(id, n) ON true
             LEFT JOIN ordering.orders o ON o.id = page.id
             ORDER BY CASE WHEN g.flipped THEN -page.n ELSE page.n END`,
          ),
        )
      ).rows;
    }
    const total = rows[0] ? Number(rows[0].list_total) : 0;
    rows = rows.filter((row) => row.id !== null);
    return { orders: rows.map(orderView), total, totalPages: Math.max(1, Math.ceil(total / limit)), currentPage: page };
  }

  /**
   * A page of a search from its matches kept in memory (`searches`): every match's id in the list's
   * order, with the version of the store's orders they were read at (order_versions, moved by the
   * orders projection with every order placed or status changed, in the same transaction). The
   * page's rows are read in one statement with the store's version: the same version means no
   * order of the store changed since the ids were read, so ids and rows agree as one statement's
   * would; another version reads the matches again. Answers null when the matches are too many to
   * keep (the caller pages in SQL).
   */
  private async searchPage(idsSql: string, values: unknown[], offset: number, limit: number): Promise<(OrderRow & { list_total: number })[] | null> {
    const storeId = values[0] as string;
    const key = `${idsSql}\u0000${JSON.stringify(values)}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      let memo = this.searches.get(key);
      if (!memo) {
        const read = await this.pool.query<{ version: string | null; ids: string[] }>(
          `SELECT (SELECT version::text FROM ordering.order_versions WHERE store_id = $1) AS version, ARRAY(${idsSql}) AS ids`,
          values,
        );
        memo = { version: read.rows[0].version ?? '0', ids: read.rows[0].ids };
        if (memo.ids.length > SEARCH_MEMO.maxIds) return null;
        this.remember(key, memo);
      }
      const r = await this.pool.query<OrderRow & { list_version: string | null }>({
        name: 'ordering_search_page',
        text: `SELECT (SELECT version::text FROM ordering.order_versions WHERE store_id = $1) AS list_version, o.*
               FROM (SELECT 1) one
               LEFT JOIN (unnest($2::uuid[]) WITH ORDINALITY AS page(id, n) JOIN ordering.orders o ON o.id = page.id AND o.store_id = $1) ON true
               ORDER BY page.n`,
        values: [storeId, memo.ids.slice(offset, offset + limit)],
      });
      if ((r.rows[0].list_version ?? '0') === memo.version) return r.rows.map((row) => ({ ...row, list_total: memo.ids.length }));
      this.forget(key);
    }
    return null;
  }

  private remember(key: string, memo: { version: string; ids: string[] }): void {
    this.forget(key);
    // The oldest searches go first once the memo holds too many ids.
    for (const [oldest] of this.searches) {
      if (this.searches.size < SEARCH_MEMO.maxSearches && this.searchIds + memo.ids.length <= SEARCH_MEMO.maxTotalIds) break;
      this.forget(oldest);
    }
    this.searches.set(key, memo);
    this.searchIds += memo.ids.length;
  }

  private forget(key: string): void {
    const memo = this.searches.get(key);
    if (!memo) return;
    this.searches.delete(key);
    this.searchIds -= memo.ids.length;
  }

  async get(owner: OwnerIdentity, id: string): Promise<OrderView> {
    return orderView(await this.row(owner, id));
  }

  async row(owner: OwnerIdentity, id: string): Promise<OrderRow> {
    if (!isUuid(id)) throw new NotFoundError(OrderMessages.orderNotFound);
    const read = () => this.pool.query<OrderRow>(`SELECT * FROM ordering.orders WHERE id = $1 AND store_id = $2`, [id, owner.storeId]);
    let r = await read();
    if (!r.rows[0]) {
      // Placed a moment ago (a public order is answered before it is projected): wait for it once.
      await this.host.waitForStream(orderStreamId(id), 1, { projection: 'orders' });
      r = await read();
    }
    if (!r.rows[0]) throw new NotFoundError(OrderMessages.orderNotFound);
    return r.rows[0];
  }

  async history(owner: OwnerIdentity, id: string): Promise<OrderHistoryEntry[]> {
    await this.row(owner, id);
    const r = await this.pool.query<{ id: string; order_id: string; status: OrderStatus; previous_status: OrderStatus | null; notes: string | null; created_by: string; created_at: Date }>(
      `SELECT * FROM ordering.order_history WHERE order_id = $1 AND store_id = $2 ORDER BY created_at, id`,
      [id, owner.storeId],
    );
    return r.rows.map((h) => {
      const createdAt = h.created_at.toISOString();
      return { id: h.id, orderId: h.order_id, status: h.status, previousStatus: h.previous_status, notes: h.notes, createdBy: h.created_by, createdAt, action: h.status, timestamp: createdAt };
    });
  }

  async changeStatus(owner: OwnerIdentity, id: string, body: { status: string; notes?: string | null }): Promise<OrderView> {
    if (!isUuid(id)) throw new NotFoundError(OrderMessages.orderNotFound);
    const status = OrderStatus.safeParse(body.status);
    if (!status.success) throw new ValidationError(OrderMessages.invalidStatus, { fields: { status: OrderMessages.invalidStatus } });
    const result = await handleCommand(
      this.store,
      orderStreamId(id),
      orderDecider,
      { type: 'ChangeOrderStatus', orderId: id, storeId: owner.storeId, status: status.data, notes: optionalText(body.notes), changedBy: owner.userId, changedAt: new Date().toISOString() },
      { metadata: { storeId: owner.storeId, actor: owner.userId } },
    );
    await this.host.waitForPosition(result.position, { projection: 'orders' });
    // Inventory moves the order's units on this event (back on a cancellation, off the shelf on a
    // delivery): the owner's next stock read, in inventory or the catalog, shows it once this answers.
    if (result.position) {
      await this.inventory.settled(owner, result.position).catch((err: unknown) => this.logger.warn({ err, orderId: id }, 'Inventario no confirmó a tiempo el cambio de estado del pedido'));
    }
    return this.get(owner, id);
  }

  // ---- expiry ----------------------------------------------------------------------------

  /**
   * Cancels pending public orders older than ORDER_HOLD_HOURS, with a history note. Safe with
   * several ordering processes: the decider cancels only a pending order, and the event store's
   * expected-version check lets one append win; the others reload, see it cancelled, append nothing.
   */
  sweepExpired(): Promise<number> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.doSweep().finally(() => {
      this.sweeping = null;
    });
    return this.sweeping;
  }

  private async doSweep(): Promise<number> {
    const holdMs = Math.round(this.config.ORDER_HOLD_HOURS * 3600_000);
    const due = await this.pool.query<{ id: string; store_id: string }>(
      `SELECT id, store_id FROM ordering.orders WHERE status = 'pending' AND created_at < now() - ($1::bigint * interval '1 millisecond') ORDER BY created_at LIMIT 500`,
      [holdMs],
    );
    let cancelled = 0;
    const hours = this.config.ORDER_HOLD_HOURS;
    for (const o of due.rows) {
      const r = await handleCommand(
        this.store,
        orderStreamId(o.id),
        orderDecider,
        { type: 'ExpireOrder', orderId: o.id, notes: `Cancelado automáticamente: no se confirmó en ${hours} horas`, changedAt: new Date().toISOString() },
        { metadata: { storeId: o.store_id, actor: 'system' }, retries: 5 },
      );
      if (r.newEvents.length) cancelled++;
    }
    return cancelled;
  }

  // ---- helpers ---------------------------------------------------------------------------

  private cartLines(raw: unknown): Array<{ productId: string; quantity: number }> {
    if (!Array.isArray(raw) || raw.length === 0) throw new ValidationError(OrderMessages.emptyCart, { fields: { items: OrderMessages.emptyCart } });
    if (raw.length > MAX_LINES) throw new ValidationError(OrderMessages.tooManyLines, { fields: { items: OrderMessages.tooManyLines } });
    const merged = new Map<string, number>();
    for (const line of raw as Array<{ productId?: unknown; product?: { id?: unknown }; quantity?: unknown }>) {
      // The spec's cart line (§3: product, quantity, price) names its product by `product.id`.
      const productId = line?.productId !== undefined ? text(line.productId) : text(line?.product?.id);
      if (!productId) throw new ValidationError('Producto inválido', { fields: { productId: 'Producto inválido' } });
      const quantity = typeof line?.quantity === 'string' && line.quantity.trim() !== '' ? Number(line.quantity) : line?.quantity;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 1 || quantity > 100_000) {
        throw new ValidationError(OrderMessages.quantityInvalid, { fields: { quantity: OrderMessages.quantityInvalid } });
      }
      merged.set(productId, (merged.get(productId) ?? 0) + quantity);
    }
    return [...merged].map(([productId, quantity]) => ({ productId, quantity }));
  }

  /**
   * The store (by id or subdomain) and the cart's products from ordering's copy of them, in one
   * round trip (one prepared statement each way): what a checkout reads before it reserves.
   */
  private async checkoutSources(param: string, wanted: Array<{ productId: string }>): Promise<{ store: StoreRow | null; products: (ProductRow & { deleted: boolean })[] }> {
    const ids = wanted.map((w) => w.productId).filter(isUuid);
    const byId = isUuid(param);
    const r = await this.pool.query<{ store: StoreRow | null; products: (ProductRow & { deleted: boolean })[] | null }>({
      name: byId ? 'ordering_checkout_by_id' : 'ordering_checkout_by_subdomain',
      text: `SELECT (SELECT row_to_json(s) FROM ordering.stores s WHERE ${byId ? 's.id = $1::uuid' : 's.subdomain = $1 ORDER BY s.is_active DESC LIMIT 1'}) AS store,
                    (SELECT json_agg(p) FROM ordering.products p WHERE p.id = ANY($2::uuid[])) AS products`,
      values: [byId ? param : param.toLowerCase(), ids],
    });
    return { store: r.rows[0].store, products: r.rows[0].products ?? [] };
  }

  /** Prices every line from ordering's copy of the catalog; unknown, inactive or another store's products are refused. */
  private priceLines(storeId: string, wanted: Array<{ productId: string; quantity: number }>, products: (ProductRow & { deleted: boolean })[]): OrderLine[] {
    const byId = new Map(products.map((p) => [p.id, p]));
    return wanted.map((w) => {
      const p = byId.get(w.productId);
      if (!p || p.store_id !== storeId || p.deleted) {
        const message = `Producto no encontrado en esta tienda: ${w.productId}`;
        throw new ValidationError(message, { fields: { items: message }, productId: w.productId });
      }
      if (!p.is_active) {
        const message = `Producto no disponible: ${p.name}`;
        throw new ValidationError(message, { fields: { items: message }, productId: p.id, productName: p.name });
      }
      return priceLine(p, w.quantity);
    });
  }

  /**
   * Reserves the order's stock at inventory and claims its code at the same time (the claim is a
   * round trip of ours that overlaps the call). A code claimed for an order whose stock is refused
   * stays unused, as it did when the claim came first.
   */
  private async reserveAndClaimCode(orderId: string, storeId: string, caller: { userId: string; storeId: string }, lines: OrderLine[], sale: boolean): Promise<string> {
    const claimed = this.claimCode(orderId, storeId);
    claimed.catch(() => undefined); // awaited below; a refused reservation is the error to answer
    await this.inventory.reserve(caller, { orderId, lines: lines.map((l) => ({ productId: l.productId, quantity: l.quantity })), sale });
    return claimed;
  }

  async findStore(param: string): Promise<StoreRow | null> {
    const r = isUuid(param)
      ? await this.pool.query<StoreRow>(`SELECT * FROM ordering.stores WHERE id = $1`, [param])
      : await this.pool.query<StoreRow>(`SELECT * FROM ordering.stores WHERE subdomain = $1 ORDER BY is_active DESC LIMIT 1`, [param.toLowerCase()]);
    return r.rows[0] ?? null;
  }

  private async claimCode(orderId: string, storeId: string): Promise<string> {
    for (let attempt = 0; attempt < 20; attempt++) {
      // Committed without waiting for the WAL flush: the order's event, committed later and
      // synchronously, flushes this commit with it (one WAL); a claim lost in a crash before that
      // belonged to an order that was never answered, and a retry claims another code.
      const r = await this.pool.query<{ code: string }>({
        name: 'ordering_claim_code',
        text: `WITH cfg AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
                    ins AS (INSERT INTO ordering.order_codes (order_id, store_id, code) SELECT $1, $2, $3 FROM cfg ON CONFLICT DO NOTHING RETURNING code)
               SELECT code FROM ins UNION ALL SELECT code FROM ordering.order_codes WHERE order_id = $1`,
        values: [orderId, storeId, newOrderCode(randomBytes)],
      });
      if (r.rows[0]) return r.rows[0].code;
    }
    throw new Error('No se pudo asignar un código de pedido');
  }

  private async loadOrder(orderId: string): Promise<Extract<OrderState, { status: 'placed' }> | null> {
    const events = await this.store.readStream(orderStreamId(orderId));
    const state = events.reduce((s, e) => orderDecider.evolve(s, { type: e.type, data: e.data } as never), orderDecider.initialState());
    return state.status === 'placed' ? state : null;
  }

  /**
   * Appends OrderPlaced as the stream's first event (a new order's stream is empty: no read first;
   * the primary key refuses a second first event). When the stream exists already (the same
   * Idempotency-Key placed a moment ago), the order recorded there is the answer, as the decider
   * gives it (PlaceOrder on a placed order decides nothing).
   */
  private async place(order: OrderPlaced, metadata: { storeId: string; actor: string }, waitForList: boolean): Promise<OrderPlaced> {
    const events = orderDecider.decide({ type: 'PlaceOrder', order }, orderDecider.initialState());
    try {
      const result = await this.store.append(orderStreamId(order.orderId), events, 0, metadata);
      if (waitForList) await this.host.waitForPosition(result.position, { projection: 'orders' });
      return order;
    } catch (err) {
      if (!(err instanceof ConcurrencyError)) throw err;
      const existing = await this.loadOrder(order.orderId);
      if (!existing) throw new Error('pedido no registrado', { cause: err });
      if (waitForList) await this.host.waitForStream(orderStreamId(order.orderId), 1, { projection: 'orders' });
      return existing.order;
    }
  }
}
