import { Inject, Injectable } from '@nestjs/common';
import {
  CatalogMessages,
  type ImportChange,
  type ImportConfirmRequest,
  type ImportConfirmResponse,
  ImportMessages,
  type ImportPreviewResponse,
  type ImportPreviewRow,
  type ImportRow,
  type ImportRowResult,
  type ImportStockRequest,
  toCentavos,
} from '@tiendita/contracts';
import { ConcurrencyError, DomainError, handleCommand, IllegalStateError, type Position, type PostgresEventStore, withTransaction } from '@tiendita/eventsourcing';
import { EVENT_STORE, httpStatusOf, type OwnerIdentity, PG_POOL, ProjectionHost, SERVICE_CONFIG } from '@tiendita/service-kit';
import { createHash } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { categoryDecider, categoryStreamId } from '../../categories/domain/category.decider';
import type { CatalogConfig } from '../../config';
import { roundDiscount } from '../../products/application/create-product.handler';
import type { ProductCommand } from '../../products/domain/product.decide';
import { productDecider } from '../../products/domain/product.decider';
import { productStreamId } from '../../products/domain/product.events';
import { RateLimiter } from '../../reviews/application/rate-limiter';
import { InventoryClient } from '../../shared/inventory-client';
import { type ParsedRow, parseRows } from './import-rows';
import { readSheet } from './spreadsheet';

/** A product of the store as the import compares it (catalog's read model; stock is available units). */
interface Existing {
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
type Plan =
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

const fold = (s: string): string => s.trim().toLowerCase();
/** Product commands per transaction: one commit for many, short enough not to hold the readers back. */
const PRODUCT_BATCH = 50;
const money = (centavos: number): string => `Q${(centavos / 100).toLocaleString('es-GT', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const percent = (n: number): string => `${n.toLocaleString('es-GT', { maximumFractionDigits: 2 })} %`;
const short = (s: string | null): string => (!s ? '—' : s.length > 60 ? `${s.slice(0, 57)}…` : s);

/**
 * Bulk import of products (issue 12): a CSV or .xlsx file is read and every row planned against the
 * store's catalogue — new, update (matched by SKU, else by name), unchanged, or error — without
 * writing anything (preview). Confirmed rows come back in chunks and go through the same commands
 * as the product form: CreateProduct (its opening stock opens the stock item in inventory),
 * UpdateProduct (a price change is a price-history entry), CreateCategory for a category not in the
 * store yet, and inventory's internal command for the stock counts (restock or correction).
 * Product, category and adjustment ids are named by the store, the import and the row, so a
 * retried chunk creates nothing twice, and a second run of the same file finds nothing to change.
 */
@Injectable()
export class ProductImport {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_STORE) private readonly store: PostgresEventStore,
    private readonly readModels: ProjectionHost,
    private readonly inventory: InventoryClient,
    private readonly limiter: RateLimiter,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogConfig,
  ) {}

  /** Plans the file's rows without writing; IMPORT_PREVIEW_RATE_LIMIT previews per store per window (429 past it). */
  async preview(storeId: string, file: Buffer, fileName: string | null): Promise<ImportPreviewResponse> {
    await this.limiter.hit(`import-preview:${storeId}`, this.config.IMPORT_PREVIEW_RATE_LIMIT, this.config.IMPORT_PREVIEW_RATE_WINDOW_SECONDS, ImportMessages.previewRateLimited);
    const sheet = await readSheet(file);
    const parsed = parseRows(sheet);
    const plans = await this.plan(storeId, parsed);
    const summary = { new: 0, update: 0, unchanged: 0, error: 0 };
    const rows = plans.map((p): ImportPreviewRow => {
      const status = p.kind;
      summary[status] += 1;
      return {
        ...p.row,
        status,
        productId: p.kind === 'update' || p.kind === 'unchanged' ? p.product.id : null,
        changes: p.kind === 'update' ? p.changes : [],
        errors: p.kind === 'error' ? p.errors : [],
      };
    });
    const known = new Set((await this.categories(storeId)).keys());
    const newCategories = new Map<string, string>();
    for (const p of plans) {
      const name = p.kind !== 'error' ? p.row.category : undefined;
      if (name && !known.has(fold(name)) && !newCategories.has(fold(name))) newCategories.set(fold(name), name);
    }
    return { fileName, format: sheet.format, totalRows: rows.length, summary, newCategories: [...newCategories.values()], rows };
  }

  /** Applies a chunk of confirmed rows; rows are planned again against the catalogue as it is now. */
  async apply(owner: OwnerIdentity, { importId, rows }: ImportConfirmRequest): Promise<ImportConfirmResponse> {
    const plans = await this.plan(
      owner.storeId,
      rows.map((row) => ({ row, errors: [] })),
    );
    const results = new Map<number, ImportRowResult>();
    const result = (row: ImportRow, status: ImportRowResult['status'], productId: string | null, message: string | null = null) =>
      results.set(row.row, { row: row.row, status, productId, message });
    let catalogPosition: Position | null = null;
    const metadata = { storeId: owner.storeId, actor: owner.userId };

    // Categories first: every row below can then name its category by id.
    const categoryIds = await this.categories(owner.storeId);
    for (const p of plans) {
      const name = p.kind === 'new' || p.kind === 'update' ? p.row.category : undefined;
      if (!name || categoryIds.has(fold(name))) continue;
      const categoryId = namedUuid(owner.storeId, 'category', fold(name));
      try {
        const r = await handleCommand(this.store, categoryStreamId(categoryId), categoryDecider, { type: 'CreateCategory', categoryId, storeId: owner.storeId, name, description: null }, { metadata });
        catalogPosition = r.position ?? catalogPosition;
      } catch (error) {
        // Named by the store and the name: made by an earlier import whose view has not caught up.
        if (!(error instanceof IllegalStateError)) throw error;
      }
      categoryIds.set(fold(name), categoryId);
    }

    // Stock counts of products already in the catalogue go to inventory first, in one call: a count
    // inventory refuses (a product deleted meanwhile) leaves that whole row unsaved. Counts are of
    // available units, as the Products page shows stock: units held by orders stay held.
    const stockItems: ImportStockRequest['items'] = [];
    for (const p of plans) {
      if (p.kind === 'update' && p.row.stock !== undefined && p.row.stock !== p.product.stock) {
        stockItems.push({ productId: p.product.id, adjustmentId: namedUuid(owner.storeId, importId, String(p.row.row), 'stock'), newStock: p.row.stock, reason: ImportMessages.stockReason });
      }
    }
    const stockRefused = new Map<string, string>();
    const stockAdjusted = new Set<string>();
    if (stockItems.length > 0) {
      const answer = await this.inventory.importStock(owner, { items: stockItems });
      for (const r of answer.results) {
        if (!r.ok) stockRefused.set(r.productId, r.message ?? CatalogMessages.productNotFound);
        else if (r.adjusted) stockAdjusted.add(r.productId);
      }
      if (answer.position) await this.readModels.waitForPosition(answer.position, { source: 'inventory' });
    }

    // The product commands, in transactions of PRODUCT_BATCH rows: one commit for many, each command
    // still the usual load, decide, append at the expected version (a clash rolls the batch back and
    // it runs again on what is there now).
    type Done = { status: ImportRowResult['status']; position: Position | null };
    const commands: { plan: Plan; run: (tx: PoolClient) => Promise<Done> }[] = [];
    for (const p of plans) {
      const { row } = p;
      if (p.kind === 'error') {
        result(row, 'error', null, p.errors.join(' '));
        continue;
      }
      if (p.kind === 'unchanged') {
        result(row, 'unchanged', p.product.id);
        continue;
      }
      const categoryId = row.category ? (categoryIds.get(fold(row.category)) ?? null) : undefined;
      if (p.kind === 'new') {
        const productId = namedUuid(owner.storeId, importId, String(row.row));
        const command: ProductCommand = {
          type: 'CreateProduct',
          productId,
          storeId: owner.storeId,
          actor: owner.userId,
          name: row.name!,
          description: row.description ?? null,
          sku: row.sku ?? null,
          priceCentavos: toCentavos(row.price!),
          discountPercentage: roundDiscount(row.discountPercentage ?? 0),
          categoryId: categoryId ?? null,
          images: [],
          isActive: true,
          initialStock: row.stock ?? 0,
        };
        commands.push({
          plan: p,
          run: async (tx) => {
            const r = await handleCommand(this.store, productStreamId(productId), productDecider, command, { metadata, client: tx }).catch((error: unknown) => {
              // The id is named by this store, import and row: it exists because this chunk ran before.
              if (error instanceof IllegalStateError) return null;
              throw error;
            });
            return { status: 'created', position: r?.position ?? null };
          },
        });
        continue;
      }
      const refused = stockRefused.get(p.product.id);
      if (refused) {
        result(row, 'error', p.product.id, refused);
        continue;
      }
      const productId = p.product.id;
      const command: ProductCommand = {
        type: 'UpdateProduct',
        productId,
        storeId: owner.storeId,
        actor: owner.userId,
        changes: {
          name: row.name,
          description: row.description,
          sku: row.sku,
          priceCentavos: row.price === undefined ? undefined : toCentavos(row.price),
          discountPercentage: row.discountPercentage === undefined ? undefined : roundDiscount(row.discountPercentage),
          categoryId,
        },
        changeReason: ImportMessages.priceReason,
      };
      commands.push({
        plan: p,
        run: async (tx) => {
          const r = await handleCommand(this.store, productStreamId(productId), productDecider, command, { metadata, client: tx });
          return { status: r.newEvents.length > 0 || stockAdjusted.has(productId) ? 'updated' : 'unchanged', position: r.position };
        },
      });
    }
    for (let i = 0; i < commands.length; i += PRODUCT_BATCH) {
      const batch = commands.slice(i, i + PRODUCT_BATCH);
      for (let attempt = 0; ; attempt++) {
        try {
          const done = await withTransaction(this.pool, async (tx) => {
            const statuses: { plan: Plan; status: ImportRowResult['status'] | null; position: Position | null; message: string | null }[] = [];
            for (const c of batch) {
              try {
                statuses.push({ plan: c.plan, ...(await c.run(tx)), message: null });
              } catch (error) {
                // A rule the decider refused (thrown before anything was appended): that row only.
                if (!(error instanceof DomainError) || error instanceof ConcurrencyError || httpStatusOf(error) >= 500) throw error;
                statuses.push({ plan: c.plan, status: null, position: null, message: error.message });
              }
            }
            return statuses;
          });
          for (const d of done) {
            // Committed: its events are what the answer waits for (the batch's last is the furthest).
            catalogPosition = d.position ?? catalogPosition;
            const productId = d.plan.kind === 'update' ? d.plan.product.id : d.plan.kind === 'new' ? namedUuid(owner.storeId, importId, String(d.plan.row.row)) : null;
            result(d.plan.row, d.status ?? 'error', d.status === null && d.plan.kind === 'new' ? null : productId, d.message);
          }
          break;
        } catch (error) {
          if (!(error instanceof ConcurrencyError) || attempt >= 3) throw error;
        }
      }
    }
    // Answer once the product list shows the chunk (commands ran one after the other: the last position is the furthest).
    await this.readModels.waitForPosition(catalogPosition);
    const ordered = rows.map((r) => results.get(r.row)!);
    const summary = { created: 0, updated: 0, unchanged: 0, error: 0 };
    for (const r of ordered) summary[r.status] += 1;
    return { results: ordered, summary };
  }

  /** The store's categories by folded name → id. */
  private async categories(storeId: string): Promise<Map<string, string>> {
    const r = await this.pool.query<{ id: string; name: string }>({
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
  private async plan(storeId: string, parsed: ParsedRow[]): Promise<Plan[]> {
    const skus = new Set<string>();
    const names = new Set<string>();
    for (const { row } of parsed) {
      if (row.sku) skus.add(fold(row.sku));
      if (row.name) names.add(fold(row.name));
    }
    const found = await this.pool.query<Existing>({
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
