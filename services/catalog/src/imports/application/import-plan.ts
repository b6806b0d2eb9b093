import { type ImportChange, ImportMessages, type ImportRow, toCentavos } from '@tiendita/contracts';
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { roundDiscount } from '../../products/application/create-product.handler';
import type { ParsedRow } from './import-rows';

/** A product of the store as the import compares it (catalog's read model; stock is available units). */
export interface Existing {
  id: string;
  name: string;
  sku: string | null;
  price_centavos: string;
  discount_percentage: string;
  stock: number;
  category_name: string | null;
  description: string | null;
}

/** What the import will do with one row. */
export type Plan =
  | { kind: 'error'; row: ImportRow; errors: string[] }
  | { kind: 'new'; row: ImportRow }
  | { kind: 'update' | 'unchanged'; row: ImportRow; product: Existing; changes: ImportChange[] };

/** A UUID named by its parts (sha256, version 5 bits): the same parts always give the same id. */
export function namedUuid(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\u0000')).digest();
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

/** How the import compares names, SKUs and categories: trimmed, lower case. */
export const fold = (s: string): string => s.trim().toLowerCase();
const money = (centavos: number): string => `Q${(centavos / 100).toLocaleString('es-GT', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const percent = (n: number): string => `${n.toLocaleString('es-GT', { maximumFractionDigits: 2 })} %`;
const short = (s: string | null): string => (!s ? '—' : s.length > 60 ? `${s.slice(0, 57)}…` : s);

/** The store's categories by folded name → id. */
export async function storeCategories(pool: Pool, storeId: string): Promise<Map<string, string>> {
  const r = await pool.query<{ id: string; name: string }>({
    name: 'catalog_import_categories',
    text: 'SELECT id, name FROM catalog.categories WHERE store_id = $1 ORDER BY created_at, id',
    values: [storeId],
  });
  const byName = new Map<string, string>();
  for (const c of r.rows) if (!byName.has(fold(c.name))) byName.set(fold(c.name), c.id);
  return byName;
}

/**
 * Plans every row: a row whose SKU (or, without one, whose name) repeats an earlier row is an
 * error; a SKU found once in the catalogue is that product; a SKU not found falls back to a
 * product of the same name that has no SKU yet; nothing found is a new product, which needs a
 * name and a price.
 */
export async function planRows(pool: Pool, storeId: string, parsed: ParsedRow[]): Promise<Plan[]> {
  const skus = new Set<string>();
  const names = new Set<string>();
  for (const { row } of parsed) {
    if (row.sku) skus.add(fold(row.sku));
    if (row.name) names.add(fold(row.name));
  }
  const found = await pool.query<Existing>({
    name: 'catalog_import_match',
    // Semi-joins on the folded keys (indexed, see catalog-tables.ts): thousands of keys stay one cheap query.
    text: `SELECT p.id, p.name, p.sku, p.price_centavos, p.discount_percentage, p.stock, p.category_name, p.description
           FROM catalog.products p
           WHERE p.store_id = $1 AND lower(p.sku) IN (SELECT unnest($2::text[]))
           UNION
           SELECT p.id, p.name, p.sku, p.price_centavos, p.discount_percentage, p.stock, p.category_name, p.description
           FROM catalog.products p
           WHERE p.store_id = $1 AND lower(p.name) IN (SELECT unnest($3::text[]))`,
    values: [storeId, [...skus], [...names]],
  });
  const bySku = new Map<string, Existing[]>();
  const byName = new Map<string, Existing[]>();
  for (const p of found.rows) {
    if (p.sku) bySku.set(fold(p.sku), [...(bySku.get(fold(p.sku)) ?? []), p]);
    byName.set(fold(p.name), [...(byName.get(fold(p.name)) ?? []), p]);
  }

  const seen = new Map<string, number>();
  return parsed.map(({ row, errors: readErrors }): Plan => {
    const errors = [...readErrors];
    const key = row.sku ? `sku:${fold(row.sku)}` : row.name ? `name:${fold(row.name)}` : null;
    if (key) {
      const first = seen.get(key);
      if (first !== undefined) errors.push(row.sku ? ImportMessages.duplicateSku(row.sku, first) : ImportMessages.duplicateName(row.name!, first));
      else seen.set(key, row.row);
    }
    let match: Existing | null = null;
    if (row.sku) {
      const hits = bySku.get(fold(row.sku)) ?? [];
      if (hits.length > 1) errors.push(ImportMessages.ambiguousSku(row.sku, hits.length));
      else match = hits[0] ?? null;
    }
    if (!match && row.name && !errors.length) {
      // A row with a SKU may only take over a product that has none; a row without one prefers those too.
      const named = byName.get(fold(row.name)) ?? [];
      const withoutSku = named.filter((p) => p.sku === null);
      const hits = row.sku || withoutSku.length > 0 ? withoutSku : named;
      if (hits.length > 1) errors.push(ImportMessages.ambiguousName(row.name, hits.length));
      else match = hits[0] ?? null;
    }
    if (!match) {
      if (!row.name) errors.push(ImportMessages.nameRequired);
      if (row.price === undefined && !readErrors.some((e) => e === ImportMessages.priceInvalid || e === ImportMessages.priceDecimals)) errors.push(ImportMessages.priceRequired);
    }
    if (errors.length > 0) return { kind: 'error', row, errors };
    if (!match) return { kind: 'new', row };
    const changes = changesOf(row, match);
    return { kind: changes.length > 0 ? 'update' : 'unchanged', row, product: match, changes };
  });
}

/** The fields a row would change on its product, as the owner reads them. */
function changesOf(row: ImportRow, p: Existing): ImportChange[] {
  const changes: ImportChange[] = [];
  if (row.name !== undefined && row.name !== p.name) changes.push({ field: 'Nombre', from: p.name, to: row.name });
  if (row.sku !== undefined && row.sku !== p.sku) changes.push({ field: 'SKU', from: p.sku ?? '—', to: row.sku });
  const price = Number(p.price_centavos);
  if (row.price !== undefined && toCentavos(row.price) !== price) changes.push({ field: 'Precio', from: money(price), to: money(toCentavos(row.price)) });
  const discount = Number(p.discount_percentage);
  if (row.discountPercentage !== undefined && roundDiscount(row.discountPercentage) !== discount) {
    changes.push({ field: 'Descuento', from: percent(discount), to: percent(row.discountPercentage) });
  }
  if (row.stock !== undefined && row.stock !== p.stock) changes.push({ field: 'Stock', from: String(p.stock), to: String(row.stock) });
  if (row.category !== undefined && fold(row.category) !== fold(p.category_name ?? '')) changes.push({ field: 'Categoría', from: p.category_name ?? 'Sin categoría', to: row.category });
  if (row.description !== undefined && row.description !== p.description) changes.push({ field: 'Descripción', from: short(p.description), to: short(row.description) });
  return changes;
}
