import { Inject } from '@nestjs/common';
import { type IQueryHandler, Query, QueryHandler } from '@nestjs/cqrs';
import type { ListOrdersQuery as ListOrdersParams, OrderListResponse } from '@tiendita/contracts';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { OrderReader } from './order-reader';
import { type ListedRow, SearchMemo } from './search-memo';

/** GET /api/orders (its query already parsed: every key checked). */
export class ListOrdersQuery extends Query<OrderListResponse> {
  constructor(
    readonly storeId: string,
    readonly params: ListOrdersParams,
  ) {
    super();
  }
}

/** The columns the list sorts by, by sort key: a key not here never reaches SQL (the contract refuses it first). */
const SORT_COLUMNS = new Map<ListOrdersParams['sortBy'], string>([
  ['id', 'id'],
  ['total', 'total'],
  ['status', 'status'],
  ['createdAt', 'created_at'],
]);

/** Names of the list's prepared statements, one per text (a few hundred at most: filters × sorts × directions). */
const statementNames = new Map<string, string>();

/**
 * A query config that pg prepares once per connection under a name of its own (then only binds and
 * executes it); PostgreSQL switches to one generic plan after the first few calls when that plan
 * costs no more than the custom ones.
 */
function prepared(text: string, values: unknown[]): { name: string; text: string; values: unknown[] } {
  let name = statementNames.get(text);
  if (!name) {
    name = `ordering_list_${statementNames.size + 1}`;
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/**
 * The owner's list. The total of any filter but a search is a sum over order_totals (order_counts
 * with dates); the page's ids come from an index-only walk of the sort's covering index
 * (orders.projection.ts), which stops at the page; then only those rows are read, in the page's
 * order. A page past the middle is read from the far end of the index. A search's matches are kept
 * in memory while its store's orders do not change (SearchMemo), else counted in the statement
 * that reads its page.
 */
@QueryHandler(ListOrdersQuery)
export class ListOrdersHandler implements IQueryHandler<ListOrdersQuery, OrderListResponse> {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly host: ProjectionHost,
    private readonly memo: SearchMemo,
    private readonly reader: OrderReader,
  ) {}

  async execute({ storeId, params: q }: ListOrdersQuery): Promise<OrderListResponse> {
    // A public checkout answers before the list shows its order: a list read right after one waits for it.
    // A store with an order event the read model set aside answers 503 until it is retried or skipped.
    await this.host.fresh([{ projection: 'orders', source: 'ordering' }], undefined, storeId);
    // `where` filters the orders; `counted` is the same filter on the counts tables.
    const where = ['store_id = $1'];
    const counted = ['store_id = $1'];
    const values: unknown[] = [storeId];
    const add = (value: unknown, sql: (n: number) => string, countSql: (n: number) => string = sql) => {
      values.push(value);
      where.push(sql(values.length));
      counted.push(countSql(values.length));
    };
    if (q.search) {
      // search_key is the search text lower-cased by PostgreSQL; lower() of the pattern here makes this
      // ILIKE on that text (the same lower-casing of both sides), with % and _ typed taken literally.
      values.push(`%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
      where.push(`search_key LIKE lower($${values.length})`);
    }
    if (q.status) add(q.status, (n) => `status = $${n}`);
    if (q.paymentStatus) add(q.paymentStatus, (n) => `payment_status = $${n}`);
    if (q.orderType) add(q.orderType, (n) => `order_type = $${n}`);
    if (q.startDate) add(q.startDate, (n) => `created_at >= ($${n}::date::timestamp AT TIME ZONE 'America/Guatemala')`, (n) => `day >= $${n}::date`);
    if (q.endDate) add(q.endDate, (n) => `created_at < (($${n}::date + 1)::timestamp AT TIME ZONE 'America/Guatemala')`, (n) => `day <= $${n}::date`);
    const counts = q.startDate || q.endDate ? 'order_counts' : 'order_totals';
    const { limit, page } = q;
    const sortBy = SORT_COLUMNS.get(q.sortBy) ?? 'created_at';
    const desc = q.sortOrder === 'desc';
    const filter = `FROM ordering.orders WHERE ${where.join(' AND ')}`;
    // The tie-breaker follows the direction, so either direction is the sort's index read one way.
    const order = (descending: boolean) => (sortBy === 'id' ? ['id'] : [sortBy, 'id']).map((c) => `${c} ${descending ? 'DESC' : 'ASC'}`).join(', ');
    const offset = (page - 1) * limit;
    // A list without a search or dates is prepared once per connection with page size and offset as
    // its last two parameters, read through sub-selects (one generic plan for every page). A
    // search's pattern and a date range decide the plan, so those are planned on each call.
    const generic = !q.search && !q.startDate && !q.endDate;
    let l = String(limit);
    let o = String(offset);
    if (generic) {
      values.push(limit, offset);
      [l, o] = [`(SELECT $${values.length - 1}::int)`, `(SELECT $${values.length}::bigint)`];
    }
    const statement = (sql: string) => (generic ? prepared(sql, values) : { text: sql, values });
    let rows: ListedRow[];
    if (q.search) {
      const searched = `FROM ordering.order_search WHERE ${where.join(' AND ')}`;
      const memo = await this.memo.page(`SELECT id ${searched} ORDER BY ${order(desc)}`, values, offset, limit);
      if (memo) rows = memo;
      else {
        // One walk of the matches: the page's ids with the number of matches beside them, then the page's rows.
        rows = (
          await this.pool.query<ListedRow>(
            statement(
              `WITH m AS (SELECT id, count(*) OVER () AS matches ${searched} ORDER BY ${order(desc)} LIMIT ${l} OFFSET ${o})
               SELECT o.*, m.matches AS list_total FROM m JOIN ordering.orders o ON o.id = m.id ORDER BY ${order(desc).replace(/(^|, )/g, '$1o.')}`,
            ),
          )
        ).rows;
        if (rows.length === 0 && offset > 0) {
          const total = await this.pool.query<{ list_total: number }>(`SELECT count(*)::int AS list_total ${searched}`, values);
          rows = [{ ...total.rows[0], id: null } as unknown as ListedRow];
        }
      }
    } else {
      // One round trip: the total, the page's ids from the sort's index (past the middle, from its
      // far end, put back in order after), then those rows; a row with a null id when the page is empty.
      const flip = `2 * ${o} + ${l} > t.n`;
      rows = (
        await this.pool.query<ListedRow>(
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
    const orders = await this.reader.views(rows.filter((row) => row.id !== null));
    return { orders, total, totalPages: Math.max(1, Math.ceil(total / limit)), currentPage: page };
  }
}
