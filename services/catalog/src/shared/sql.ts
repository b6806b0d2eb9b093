import { foldSearchSql } from '@tiendita/contracts';

/** SQL fragments shared by the catalog's queries: views are built as JSON by PostgreSQL, in one query. */

/** An ISO-8601 UTC timestamp string, as the API answers dates. */
export const isoSql = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Centavos → quetzales with 2 decimals (a JSON number). */
export const quetzalesSql = (column: string): string => `round(${column} / 100.0, 2)`;

/**
 * The product view (contracts ProductView) of the row aliased `p`, as compact JSON (row_to_json
 * writes no blanks, unlike json_build_object); the public view leaves out storeId and isActive.
 * `extra` adds fields after the product's own: [name, SQL expression] pairs.
 */
export function productJsonSql(view: 'owner' | 'public', extra: [string, string][] = []): string {
  const fields: [string, string][] = [
    ['id', 'p.id'],
    ...(view === 'owner' ? ([['storeId', 'p.store_id']] as [string, string][]) : []),
    ['name', 'p.name'],
    ['description', 'p.description'],
    ['sku', 'p.sku'],
    ['price', quetzalesSql('p.price_centavos')],
    ['discountPercentage', 'p.discount_percentage'],
    ['finalPrice', quetzalesSql('p.final_price_centavos')],
    ['stock', 'p.stock'],
    ...(view === 'owner' ? ([['stockMinimum', 'p.stock_minimum']] as [string, string][]) : []),
    ['categoryId', 'p.category_id'],
    ['categoryName', 'p.category_name'],
    ['imageUrl', 'p.images[1]'],
    ['images', 'p.images'],
    ...(view === 'owner' ? ([['isActive', 'p.is_active']] as [string, string][]) : []),
    ['createdAt', isoSql('p.created_at')],
    ['updatedAt', isoSql('p.updated_at')],
    ...extra,
  ];
  return `(SELECT row_to_json(v) FROM (SELECT ${fields.map(([name, expr]) => `${expr} AS "${name}"`).join(', ')}) v)`;
}

export const categoryJsonSql = `json_build_object('id', c.id, 'storeId', c.store_id, 'name', c.name, 'description', c.description, 'createdAt', ${isoSql('c.created_at')})`;

/** Escapes % and _ for a LIKE pattern that matches the text anywhere. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
}

/**
 * A product list's search: parameter `$n` (a containsPattern of the folded text, foldSearchText) anywhere
 * in the name, SKU or description, without accents or case ('cafe' finds 'Café de Antigua').
 */
export function searchMatchSql(n: number): string {
  return `(${['p.name', 'p.sku', 'p.description'].map((c) => `${foldSearchSql(c)} LIKE $${n}`).join(' OR ')})`;
}

export { foldSearchText, isUuid } from '@tiendita/contracts';
