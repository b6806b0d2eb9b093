import { type ImportRow, type ImportRowResult, ImportMessages, toCentavos } from '@tiendita/contracts';
import { ConcurrencyError, DomainError, handleCommand, IllegalStateError, type Position, type PostgresEventStore, withTransaction } from '@tiendita/eventsourcing';
import { httpStatusOf, type OwnerIdentity } from '@tiendita/service-kit';
import type { Pool, PoolClient } from 'pg';
import { roundDiscount } from '../../products/application/create-product.handler';
import type { ProductCommand } from '../../products/domain/product.decide';
import { productDecider } from '../../products/domain/product.decider';
import { productStreamId } from '../../products/domain/product.events';
import { fold, namedUuid, type Plan } from './import-plan';

/** Product commands per transaction: one commit for many, short enough not to hold the readers back. */
const PRODUCT_BATCH = 50;

/** What one row's command did once its batch committed. */
export interface RowDone {
  plan: Plan;
  status: ImportRowResult['status'] | null;
  position: Position | null;
  message: string | null;
}

/** A row's product command, run inside its batch's transaction. */
export interface RowCommand {
  plan: Plan;
  run: (tx: PoolClient) => Promise<{ status: ImportRowResult['status']; position: Position | null }>;
}

/** A row answered without a command (an error, unchanged, or a stock count inventory refused). */
export interface RowSettled {
  row: ImportRow;
  status: ImportRowResult['status'];
  productId: string | null;
  message: string | null;
}

/** The id of a new row's product: named by the store, the import and the row, so a retried chunk creates it once. */
export const newProductId = (storeId: string, importId: string, row: ImportRow): string => namedUuid(storeId, importId, String(row.row));

/**
 * The product command of every planned row, as the product form would send it: CreateProduct for a
 * new row (its opening stock opens the stock item in inventory), UpdateProduct for a changed one (a
 * price change is a price-history entry). A row whose stock count inventory refused is not saved.
 */
export function productCommands(input: {
  store: PostgresEventStore;
  owner: OwnerIdentity;
  importId: string;
  plans: Plan[];
  categoryIds: Map<string, string>;
  stockRefused: Map<string, string>;
  stockAdjusted: Set<string>;
}): { commands: RowCommand[]; settled: RowSettled[] } {
  const { store, owner, importId, categoryIds, stockRefused, stockAdjusted } = input;
  const metadata = { storeId: owner.storeId, actor: owner.userId };
  const commands: RowCommand[] = [];
  const settled: RowSettled[] = [];
  for (const p of input.plans) {
    const { row } = p;
    if (p.kind === 'error') {
      settled.push({ row, status: 'error', productId: null, message: p.errors.join(' ') });
      continue;
    }
    if (p.kind === 'unchanged') {
      settled.push({ row, status: 'unchanged', productId: p.product.id, message: null });
      continue;
    }
    const categoryId = row.category ? (categoryIds.get(fold(row.category)) ?? null) : undefined;
    if (p.kind === 'new') {
      const productId = newProductId(owner.storeId, importId, row);
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
          const r = await handleCommand(store, productStreamId(productId), productDecider, command, { metadata, client: tx }).catch((error: unknown) => {
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
      settled.push({ row, status: 'error', productId: p.product.id, message: refused });
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
        const r = await handleCommand(store, productStreamId(productId), productDecider, command, { metadata, client: tx });
        return { status: r.newEvents.length > 0 || stockAdjusted.has(productId) ? 'updated' : 'unchanged', position: r.position };
      },
    });
  }
  return { commands, settled };
}

/**
 * Runs the commands in transactions of PRODUCT_BATCH rows: one commit for many, each command still
 * the usual load, decide, append at the expected version (a clash rolls the batch back and it runs
 * again on what is there now). `committed` gets each row of a batch once the batch has committed.
 */
export async function runInBatches(pool: Pool, commands: RowCommand[], committed: (done: RowDone) => void): Promise<void> {
  for (let i = 0; i < commands.length; i += PRODUCT_BATCH) {
    const batch = commands.slice(i, i + PRODUCT_BATCH);
    for (let attempt = 0; ; attempt++) {
      try {
        const done = await withTransaction(pool, async (tx) => {
          const statuses: RowDone[] = [];
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
        for (const d of done) committed(d);
        break;
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= 3) throw error;
      }
    }
  }
}
