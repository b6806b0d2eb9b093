import { Inject, Injectable } from '@nestjs/common';
import { PG_POOL } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import type { OrderRow } from './order-view';

/** How much of the searches' matches each ordering process keeps: ~40 bytes an id. */
const LIMITS = { maxSearches: 200, maxIds: 50_000, maxTotalIds: 250_000 };

export type ListedRow = OrderRow & { list_total: number };

/**
 * A search's matches kept in memory: every match's id in the list's order, with the version of the
 * store's orders they were read at (order_versions, moved by the orders projection with every
 * order change, in the same transaction). A page's rows are read in one statement with the store's
 * version: the same version means no order of the store changed since the ids were read, so ids and
 * rows agree as one statement's would; another version reads the matches again.
 */
@Injectable()
export class SearchMemo {
  /** Matches by statement and values, oldest first; `ids` counts their ids. */
  private readonly searches = new Map<string, { version: string; ids: string[] }>();
  private ids = 0;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {}

  /** A page of a search, or null when the matches are too many to keep (the caller pages in SQL). */
  async page(idsSql: string, values: unknown[], offset: number, limit: number): Promise<ListedRow[] | null> {
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
        if (memo.ids.length > LIMITS.maxIds) return null;
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
      const total = memo.ids.length;
      if ((r.rows[0].list_version ?? '0') === memo.version) return r.rows.map((row) => ({ ...row, list_total: total }));
      this.forget(key);
    }
    return null;
  }

  private remember(key: string, memo: { version: string; ids: string[] }): void {
    this.forget(key);
    // The oldest searches go first once the memo holds too many ids.
    for (const [oldest] of this.searches) {
      if (this.searches.size < LIMITS.maxSearches && this.ids + memo.ids.length <= LIMITS.maxTotalIds) break;
      this.forget(oldest);
    }
    this.searches.set(key, memo);
    this.ids += memo.ids.length;
  }

  private forget(key: string): void {
    const memo = this.searches.get(key);
    if (!memo) return;
    this.searches.delete(key);
    this.ids -= memo.ids.length;
  }
}
