import { Inject, Injectable } from '@nestjs/common';
import {
  CatalogMessages,
  type ImportConfirmRequest,
  type ImportConfirmResponse,
  ImportMessages,
  type ImportPreviewResponse,
  type ImportPreviewRow,
  type ImportRow,
  type ImportRowResult,
  type ImportStockRequest,
} from '@tiendita/contracts';
import { handleCommand, IllegalStateError, type Position, type PostgresEventStore } from '@tiendita/eventsourcing';
import { EVENT_STORE, type OwnerIdentity, PG_POOL, ProjectionHost, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { categoryDecider, categoryStreamId } from '../../categories/domain/category.decider';
import type { CatalogConfig } from '../../config';
import { RateLimiter } from '../../reviews/application/rate-limiter';
import { InventoryClient } from '../../shared/inventory-client';
import { newProductId, productCommands, runInBatches } from './import-commands';
import { fold, namedUuid, type Plan, planRows, storeCategories } from './import-plan';
import { parseRows } from './import-rows';
import { readSheet } from './spreadsheet';

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
    const plans = await planRows(this.pool, storeId, parsed);
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
    const known = new Set((await storeCategories(this.pool, storeId)).keys());
    const newCategories = new Map<string, string>();
    for (const p of plans) {
      const name = p.kind !== 'error' ? p.row.category : undefined;
      if (name && !known.has(fold(name)) && !newCategories.has(fold(name))) newCategories.set(fold(name), name);
    }
    return { fileName, format: sheet.format, totalRows: rows.length, summary, newCategories: [...newCategories.values()], rows };
  }

  /** Applies a chunk of confirmed rows; rows are planned again against the catalogue as it is now. */
  async apply(owner: OwnerIdentity, { importId, rows }: ImportConfirmRequest): Promise<ImportConfirmResponse> {
    const plans = await planRows(
      this.pool,
      owner.storeId,
      rows.map((row) => ({ row, errors: [] })),
    );
    const results = new Map<number, ImportRowResult>();
    const result = (row: ImportRow, status: ImportRowResult['status'], productId: string | null, message: string | null = null) =>
      results.set(row.row, { row: row.row, status, productId, message });

    // Categories first: every row below can then name its category by id.
    const categories = await this.createCategories(owner, plans);
    let catalogPosition = categories.position;
    const { stockRefused, stockAdjusted } = await this.countStock(owner, importId, plans);

    const { commands, settled } = productCommands({ store: this.store, owner, importId, plans, categoryIds: categories.ids, stockRefused, stockAdjusted });
    for (const s of settled) result(s.row, s.status, s.productId, s.message);
    await runInBatches(this.pool, commands, (d) => {
      // Committed: its events are what the answer waits for (the batch's last is the furthest).
      catalogPosition = d.position ?? catalogPosition;
      const productId = d.plan.kind === 'update' ? d.plan.product.id : d.plan.kind === 'new' ? newProductId(owner.storeId, importId, d.plan.row) : null;
      result(d.plan.row, d.status ?? 'error', d.status === null && d.plan.kind === 'new' ? null : productId, d.message);
    });
    // Answer once the product list shows the chunk (commands ran one after the other: the last position is the furthest).
    await this.readModels.waitForPosition(catalogPosition);
    const ordered = rows.map((r) => results.get(r.row)!);
    const summary = { created: 0, updated: 0, unchanged: 0, error: 0 };
    for (const r of ordered) summary[r.status] += 1;
    return { results: ordered, summary };
  }

  /** Creates every category the rows name that the store lacks; the store's categories by folded name → id. */
  private async createCategories(owner: OwnerIdentity, plans: Plan[]): Promise<{ ids: Map<string, string>; position: Position | null }> {
    const metadata = { storeId: owner.storeId, actor: owner.userId };
    let position: Position | null = null;
    const ids = await storeCategories(this.pool, owner.storeId);
    for (const p of plans) {
      const name = p.kind === 'new' || p.kind === 'update' ? p.row.category : undefined;
      if (!name || ids.has(fold(name))) continue;
      const categoryId = namedUuid(owner.storeId, 'category', fold(name));
      try {
        const r = await handleCommand(this.store, categoryStreamId(categoryId), categoryDecider, { type: 'CreateCategory', categoryId, storeId: owner.storeId, name, description: null }, { metadata });
        position = r.position ?? position;
      } catch (error) {
        // Named by the store and the name: made by an earlier import whose view has not caught up.
        if (!(error instanceof IllegalStateError)) throw error;
      }
      ids.set(fold(name), categoryId);
    }
    return { ids, position };
  }

  /**
   * Stock counts of products already in the catalogue go to inventory first, in one call: a count
   * inventory refuses (a product deleted meanwhile) leaves that whole row unsaved. Counts are of
   * available units, as the Products page shows stock: units held by orders stay held.
   */
  private async countStock(owner: OwnerIdentity, importId: string, plans: Plan[]): Promise<{ stockRefused: Map<string, string>; stockAdjusted: Set<string> }> {
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
    return { stockRefused, stockAdjusted };
  }
}
