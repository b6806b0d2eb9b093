import { Inject, Injectable } from '@nestjs/common';
import { foldSearchText, InventoryMessages, type InventoryItem, isLowStock, isUuid, type LedgerEntry, lowStockSql, ownerStockLevel, soldWithoutStockMessage } from '@tiendita/contracts';
import { NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import { type FreshSource, PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import { STOCK_ITEMS_REACTION } from '../stock/reactions/catalog-products.consumer';
import { ORDERS_REACTION } from '../stock/reactions/ordering-orders.consumer';
import type { Pool } from 'pg';
import { CATEGORY_SORT_KEY, NO_CATEGORY_KEY } from '../read-model/products.projection';

export interface ListQuery {
  search?: string;
  categoryId?: string;
  lowStock?: string;
  outOfStock?: string;
  sortBy?: string;
  sortOrder?: string;
  page?: string;
  limit?: string;
}

export interface HistoryQuery {
  productId?: string;
  type?: string;
  from?: string;
  to?: string;
  page?: string;
  limit?: string;
}

/** The list's sort keys, each served by an index of catalog_products (see products.projection.ts). */
const SORTS = new Map<string, string>([
  ['name', 'lower(p.name)'],
  ['stock', 'p.stock'],
  ['category', CATEGORY_SORT_KEY.replace('category_name', 'p.category_name')],
]);
const BY_NAME = SORTS.get('name')!;
/** Highest page a list or ledger serves: far past any store, and small enough that page × size stays an exact integer. */
const MAX_PAGE = 1_000_000;
const WHOLE = /^\d{1,7}$/;

const refuse = (field: string, message: string): never => {
  throw new ValidationError(message, { fields: { [field]: message } });
};

/** The list's sort key and direction: only the known keys (a Map: no inherited name reaches the SQL), else 400. */
function sortOf(q: ListQuery): { sort: string; desc: boolean } {
  const sort = SORTS.get(q.sortBy === undefined || q.sortBy === '' ? 'name' : q.sortBy) ?? refuse('sortBy', InventoryMessages.invalidSortBy);
  const order = q.sortOrder === undefined || q.sortOrder === '' ? 'asc' : typeof q.sortOrder === 'string' ? q.sortOrder.toLowerCase() : null;
  if (order !== 'asc' && order !== 'desc') refuse('sortOrder', InventoryMessages.invalidSortOrder);
  return { sort, desc: order === 'desc' };
}
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Names of the list's prepared statements, one per text (a few dozen at most: filters × sorts × directions). */
const statementNames = new Map<string, string>();

/**
 * A query config that pg prepares once per connection under a name of its own (then only binds and
 * executes it); PostgreSQL switches to one generic plan after the first few calls when that plan
 * costs no more than the custom ones.
 */
function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = statementNames.get(text);
  if (!name) {
    name = `inventory_list_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** Page and size as given (whole numbers, page 1 to MAX_PAGE, size 1 to `max`), else 400 in Spanish; neither: the first 1000 rows. */
function paging(q: { page?: string; limit?: string }, max = 200): { paged: boolean; page: number; limit: number } {
  const paged = q.page !== undefined || q.limit !== undefined;
  const given = (v: string | undefined) => (v === undefined || v === '' ? undefined : typeof v === 'string' && WHOLE.test(v) ? Number(v) : Number.NaN);
  const page = given(q.page) ?? 1;
  const limit = given(q.limit) ?? 50;
  if (!(page >= 1 && page <= MAX_PAGE)) refuse('page', InventoryMessages.invalidPage);
  if (!(limit >= 1 && limit <= max)) refuse('limit', InventoryMessages.invalidPageSize(max));
  return { paged, page, limit: paged ? limit : 1000 };
}

/**
 * What a read waits for (ProjectionHost.fresh), in order: the reactions that append inventory's own
 * events (a new product's stock item from catalog's events; a sale or a cancellation from ordering's),
 * then the views that read them. So a list read right after a POS sale, a checkout or a new product shows it.
 */
const REACTIONS: readonly FreshSource[] = [
  { projection: STOCK_ITEMS_REACTION, source: 'catalog' },
  { projection: ORDERS_REACTION, source: 'ordering' },
];
const FRESH_LIST: readonly FreshSource[] = [...REACTIONS, { projection: 'catalog_products', source: 'catalog' }, { projection: 'catalog_products', source: 'inventory' }];
const FRESH_LEDGER: readonly FreshSource[] = [...REACTIONS, { projection: 'stock', source: 'inventory' }, { projection: 'stock', source: 'ordering' }];

/** The owner's inventory reads: the product list with units and levels, and the stock ledger. */
@Injectable()
export class InventoryQueries {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  /**
   * One table, one index: every product's row holds its stock (products.projection.ts), so a filter
   * and a sort walk the sort's index and stop at the page. The total is a sum of a few rows of
   * catalog_product_counts (per category and stock level) for any filter but a search; a search
   * counts its matches in the same index-only walk that finds its page (each sort's index holds the
   * search key). A page past the middle is read from the other end of the index (page 200 of 200
   * walks 50 entries, not 10,000). Each statement is prepared once per connection (`prepared`):
   * page and size are parameters, so a text serves every page of its filter and sort, and PostgreSQL
   * stops parsing and planning each call after its first few.
   */
  async list(storeId: string, q: ListQuery): Promise<InventoryItem[] | { products: InventoryItem[]; total: number; totalPages: number; currentPage: number }> {
    await this.readModels.fresh(FRESH_LIST);
    const where = ['p.store_id = $1', 'p.listed', 'NOT p.deleted'];
    const counted = ['c.store_id = $1'];
    const args: unknown[] = [storeId];
    const search = q.search?.trim() ? foldSearchText(q.search.trim()) : '';
    if (search) {
      // A substring of the stored key (what `LIKE '%…%'` with the wildcards escaped matched): strpos
      // compares bytes, ~40% cheaper per row than LIKE's matcher on a search that reads the whole store.
      args.push(search);
      where.push(`strpos(p.search_key, $${args.length}) > 0`);
    }
    if (q.categoryId && q.categoryId !== 'all') {
      if (q.categoryId === 'none') {
        where.push('p.category_id IS NULL');
        counted.push(`c.category_key = '${NO_CATEGORY_KEY}'`);
      } else if (isUuid(q.categoryId)) {
        args.push(q.categoryId);
        where.push(`p.category_id = $${args.length}`);
        counted.push(`c.category_key = $${args.length}`);
      } else return q.page !== undefined || q.limit !== undefined ? { products: [], total: 0, totalPages: 1, currentPage: 1 } : [];
    }
    const available = '(p.stock - p.reserved)';
    if (q.outOfStock === 'true') {
      where.push(`${available} <= 0`);
      counted.push('c.level = 0');
    } else if (q.lowStock === 'true') {
      where.push(`${available} > 0 AND ${lowStockSql(available, 'p.minimum')}`);
      counted.push('c.level = 1');
    }
    const { sort, desc } = sortOf(q);
    const { paged, page, limit } = paging(q);
    const filter = `FROM inventory.catalog_products p WHERE ${where.join(' AND ')}`;
    // The tie-breakers follow the direction, so a descending page is the sort's index read backwards.
    const order = (descending: boolean) => [sort, ...(sort === BY_NAME ? [] : [BY_NAME]), 'p.product_id'].map((key) => `${key} ${descending ? 'DESC' : 'ASC'}`).join(', ');
    const offset = (page - 1) * limit;
    // Page size and offset are the last two parameters, so the statement's text does not change with
    // the page. Each is read through a sub-select, which hides its value from the planner: the plan
    // (the same index walk for any page) is then as cheap for every call of the statement, so
    // PostgreSQL keeps one generic plan instead of planning page 1 again on every call (~0.3-0.5 ms).
    args.push(limit, offset);
    const [l, o] = [`(SELECT $${args.length - 1}::int)`, `(SELECT $${args.length}::int)`];

    const columns = 'p.product_id AS id, p.name, p.sku, p.category_id, p.category_name, p.stock, p.reserved, p.minimum, p.adjustments_count, p.stock_updated_at AS updated_at';
    type Row = {
      id: string | null; name: string; sku: string | null; category_id: string | null; category_name: string | null;
      stock: number; reserved: number; minimum: number; adjustments_count: number; updated_at: Date | null; total: string | number;
    };
    let total: number | null = null;
    let rows: Row[];
    if (search) {
      // The matches are found by a walk of the sort's index either way (the filter's columns and the
      // search key are in it, so the table is not read): their number and the page's ids come from
      // that walk, then only the page's rows are read, and put back in the sort's order.
      rows = (
        await this.pool.query<Row>(
          prepared(
            `WITH m AS (SELECT p.product_id, count(*) OVER () AS n ${filter} ORDER BY ${order(desc)} LIMIT ${l} OFFSET ${o})
             SELECT ${columns}, m.n AS total FROM m JOIN inventory.catalog_products p ON p.product_id = m.product_id ORDER BY ${order(desc)}`,
            args,
          ),
        )
      ).rows;
      if (rows[0]) total = Number(rows[0].total);
      else if (offset === 0) total = 0;
    } else {
      // One round trip: the total from the counts (args are the store and the category, what
      // `counted` refers to), the page's ids from the sort's index (past the middle, from its far
      // end, reversed after), then those rows in order; a row with a null id when the page is empty.
      const flip = paged ? `2 * ${o} + ${l} > t.n` : 'false';
      rows = (
        await this.pool.query<Row>(
          prepared(
            `WITH total AS (SELECT COALESCE(sum(c.n), 0)::int AS n FROM inventory.catalog_product_counts c WHERE ${counted.join(' AND ')}),
             page AS (
               SELECT t.n, ${flip} AS flipped, CASE
                 WHEN ${o} >= t.n THEN '{}'::uuid[]
                 WHEN ${flip} THEN ARRAY(SELECT p.product_id ${filter} ORDER BY ${order(!desc)} LIMIT LEAST(${l}, t.n - ${o}) OFFSET GREATEST(0, t.n - ${o} - ${l}))
                 ELSE ARRAY(SELECT p.product_id ${filter} ORDER BY ${order(desc)} LIMIT ${l} OFFSET ${o})
               END AS ids
               FROM total t
             )
             SELECT ${columns}, g.n AS total
             FROM page g
             LEFT JOIN LATERAL unnest(g.ids) WITH ORDINALITY AS i(product_id, ord) ON true
             LEFT JOIN inventory.catalog_products p ON p.product_id = i.product_id
             ORDER BY CASE WHEN g.flipped THEN -i.ord ELSE i.ord END`,
            args,
          ),
        )
      ).rows;
      total = Number(rows[0].total);
    }
    const products = rows.filter((r): r is Row & { id: string } => r.id !== null).map((r): InventoryItem => {
      const avail = r.stock - r.reserved;
      return {
        id: r.id,
        name: r.name,
        sku: r.sku,
        categoryId: r.category_id,
        categoryName: r.category_name,
        stock: r.stock,
        reserved: r.reserved,
        available: avail,
        level: ownerStockLevel(avail, r.minimum),
        minimum: r.minimum,
        lowStock: isLowStock(avail, r.minimum),
        adjustmentsCount: r.adjustments_count,
        updatedAt: r.updated_at ? r.updated_at.toISOString() : null,
      };
    });
    if (!paged) return products;
    if (total === null) total = Number((await this.pool.query<{ n: string }>(`SELECT count(*) AS n ${filter}`, args.slice(0, -2))).rows[0].n); // a search's page past its last match
    return { products, total, totalPages: Math.max(1, Math.ceil(total / limit)), currentPage: page };
  }

  /** The store's products at or below their minimum (the bell), cheapest query: count and the first few. */
  async lowStock(storeId: string): Promise<{
    count: number;
    products: { id: string; name: string; available: number; minimum: number }[];
    shortfalls: { productId: string; name: string; missing: number; message: string }[];
  }> {
    await this.readModels.fresh(FRESH_LIST);
    // Offline sales that took units the stock lacked (issue 28), until a count of the product after them.
    const short = await this.pool.query<{ product_id: string; name: string; missing: string }>(
      `SELECT s.product_id, min(s.product_name) AS name, sum(s.missing) AS missing FROM inventory.stock_shortfalls s
       WHERE s.store_id = $1 AND NOT EXISTS (SELECT 1 FROM inventory.applied_adjustments a WHERE a.product_id = s.product_id AND a.applied_at > s.created_at)
       GROUP BY s.product_id ORDER BY max(s.created_at) DESC LIMIT 10`,
      [storeId],
    );
    const shortfalls = short.rows.map((x) => ({ productId: x.product_id, name: x.name, missing: Number(x.missing), message: soldWithoutStockMessage(x.name, Number(x.missing)) }));
    const r = await this.pool.query<{ id: string; name: string; available: number; minimum: number; total: string }>(
      `SELECT p.product_id AS id, p.name, p.stock - p.reserved AS available, p.minimum, count(*) OVER () AS total
       FROM inventory.catalog_products p
       WHERE p.store_id = $1 AND p.listed AND p.opened AND NOT p.deleted AND ${lowStockSql('p.stock - p.reserved', 'p.minimum')}
       ORDER BY p.stock - p.reserved, lower(p.name) LIMIT 10`,
      [storeId],
    );
    return { count: Number(r.rows[0]?.total ?? 0), products: r.rows.map(({ total: _t, ...x }) => x), shortfalls };
  }

  async history(storeId: string, q: HistoryQuery, productId?: string): Promise<LedgerEntry[] | { history: LedgerEntry[]; total: number; totalPages: number; currentPage: number }> {
    await this.readModels.fresh(FRESH_LEDGER);
    const where = ['m.store_id = $1'];
    const args: unknown[] = [storeId];
    const product = productId ?? q.productId;
    /** The product's number of ledger lines, when the history is one product's. */
    let lines = 0;
    if (product !== undefined) {
      if (!isUuid(product)) throw new ValidationError(InventoryMessages.invalidProductId, { fields: { productId: InventoryMessages.invalidProductId } });
      const known = await this.pool.query<{ movements: number | null; listed: boolean }>(
        `SELECT (SELECT movements FROM inventory.stock_items WHERE product_id = $1 AND store_id = $2) AS movements,
                EXISTS (SELECT 1 FROM inventory.catalog_products WHERE product_id = $1 AND store_id = $2) AS listed`,
        [product, storeId],
      );
      if (productId && known.rows[0].movements === null && !known.rows[0].listed) throw new NotFoundError(InventoryMessages.productNotFound);
      lines = known.rows[0].movements ?? 0;
      args.push(product);
      where.push(`m.product_id = $${args.length}`);
    }
    const filtered = (q.type && q.type !== 'all') || (q.from && DAY.test(q.from)) || (q.to && DAY.test(q.to));
    if (q.type && q.type !== 'all') {
      args.push(q.type);
      where.push(`(m.kind = $${args.length} OR m.adjustment_type = $${args.length})`);
    }
    if (q.from && DAY.test(q.from)) {
      args.push(q.from);
      where.push(`m.created_at >= ($${args.length}::date)::timestamp AT TIME ZONE 'America/Guatemala'`);
    }
    if (q.to && DAY.test(q.to)) {
      args.push(q.to);
      where.push(`m.created_at < ($${args.length}::date + 1)::timestamp AT TIME ZONE 'America/Guatemala'`);
    }
    const { paged, page, limit } = paging(q);
    // One product, no filter: page n is the lines numbered (lines − (n−1)·limit) and below, read from the
    // (product, ordinal) index; any page costs what the first does, and the total is the product's count.
    const byOrdinal = product !== undefined && !filtered;
    if (byOrdinal) where.push(`m.product_seq <= ${Math.max(0, lines - (page - 1) * limit)}`);
    const order = product !== undefined ? 'm.product_seq DESC' : 'm.seq DESC';
    const offset = byOrdinal ? 0 : (page - 1) * limit;
    const r = await this.pool.query<{
      event_id: string; product_id: string; product_name: string | null; store_id: string; kind: LedgerEntry['kind']; adjustment_type: LedgerEntry['adjustmentType'];
      old_stock: number; new_stock: number; adjustment: number; quantity: number | null; reserved: number; reason: string | null;
      adjusted_by: string | null; order_id: string | null; code: string | null; created_at: Date;
    }>(
      `SELECT m.event_id, m.product_id, NULLIF(p.name, '') AS product_name, m.store_id, m.kind, m.adjustment_type, m.old_stock, m.new_stock, m.adjustment,
              m.quantity, m.reserved, m.reason, m.adjusted_by, m.order_id, o.code, m.created_at
       FROM inventory.movements m
       LEFT JOIN inventory.catalog_products p ON p.product_id = m.product_id
       LEFT JOIN inventory.order_codes o ON o.order_id = m.order_id
       WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
      args,
    );
    const history = r.rows.map(
      (x): LedgerEntry => ({
        id: x.event_id,
        productId: x.product_id,
        productName: x.product_name ?? 'Producto',
        storeId: x.store_id,
        kind: x.kind,
        adjustmentType: x.adjustment_type,
        oldStock: x.old_stock,
        newStock: x.new_stock,
        adjustment: x.adjustment,
        quantity: x.quantity,
        reserved: x.reserved,
        reason: x.reason,
        adjustedBy: x.adjusted_by,
        orderId: x.order_id,
        orderCode: x.code,
        createdAt: x.created_at.toISOString(),
      }),
    );
    if (!paged) return history;
    const total = byOrdinal ? lines : Number((await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM inventory.movements m WHERE ${where.join(' AND ')}`, args)).rows[0].n);
    return { history, total, totalPages: Math.max(1, Math.ceil(total / limit)), currentPage: page };
  }

  async ownerName(userId: string): Promise<string> {
    const r = await this.pool.query<{ name: string }>('SELECT name FROM inventory.owner_names WHERE user_id = $1', [userId]);
    return r.rows[0]?.name || userId;
  }
}
