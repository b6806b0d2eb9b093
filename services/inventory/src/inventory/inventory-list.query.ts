import { foldSearchText, InventoryMessages, type InventoryItem, isLowStock, isUuid, lowStockSql, ownerStockLevel } from '@tiendita/contracts';
import type { Pool } from 'pg';
import { CATEGORY_SORT_KEY, NO_CATEGORY_KEY } from '../read-model/products.projection';
import { paging, refuse } from './inventory-paging';

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

/** The list's sort keys, each served by an index of catalog_products (see products.projection.ts). */
const SORTS = new Map<string, string>([
  ['name', 'lower(p.name)'],
  ['stock', 'p.stock'],
  ['category', CATEGORY_SORT_KEY.replace('category_name', 'p.category_name')],
]);
const BY_NAME = SORTS.get('name')!;

/** The list's sort key and direction: only the known keys (a Map: no inherited name reaches the SQL), else 400. */
function sortOf(q: ListQuery): { sort: string; desc: boolean } {
  const sort = SORTS.get(q.sortBy === undefined || q.sortBy === '' ? 'name' : q.sortBy) ?? refuse('sortBy', InventoryMessages.invalidSortBy);
  const order = q.sortOrder === undefined || q.sortOrder === '' ? 'asc' : typeof q.sortOrder === 'string' ? q.sortOrder.toLowerCase() : null;
  if (order !== 'asc' && order !== 'desc') refuse('sortOrder', InventoryMessages.invalidSortOrder);
  return { sort, desc: order === 'desc' };
}

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
export async function listInventory(pool: Pool, storeId: string, q: ListQuery): Promise<InventoryItem[] | { products: InventoryItem[]; total: number; totalPages: number; currentPage: number }> {
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
      await pool.query<Row>(
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
      await pool.query<Row>(
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
  if (total === null) total = Number((await pool.query<{ n: string }>(`SELECT count(*) AS n ${filter}`, args.slice(0, -2))).rows[0].n); // a search's page past its last match
  return { products, total, totalPages: Math.max(1, Math.ceil(total / limit)), currentPage: page };
}
