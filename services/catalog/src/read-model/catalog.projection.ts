import { type Projection, type RecordedEventWithTx, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import { productJsonSql } from '../shared/sql';
import { CATALOG_TABLES, type CatalogTable, createCatalogTables } from './catalog-tables';
import { onCategoryCreated } from './handlers/category-created';
import { type EventContext, type EventHandler, TouchedProducts } from './handlers/context';
import { onProductActivation } from './handlers/product-activation';
import { onProductDeleted } from './handlers/product-deleted';
import { onProductPriceChanged } from './handlers/product-price-changed';
import { onProductUpdated } from './handlers/product-updated';
import { onProductsCreated } from './handlers/products-created';
import { onReviewModerated } from './handlers/review-moderated';
import { onCommentSubmitted, onRatingSubmitted } from './handlers/review-submitted';
import { onStockItemOpened, onStockMinimumSet, onStockMoves, STOCK_MOVES } from './handlers/stock-changed';

export { type CatalogTable, NO_CATEGORY } from './catalog-tables';

/** The handler of each event type this projection reads (ProductCreated and the stock moves run in batches, below). */
const HANDLERS: Record<string, EventHandler> = {
  ProductUpdated: onProductUpdated,
  ProductPriceChanged: onProductPriceChanged,
  ProductActivated: onProductActivation,
  ProductDeactivated: onProductActivation,
  ProductDeleted: onProductDeleted,
  CategoryCreated: onCategoryCreated,
  RatingSubmitted: onRatingSubmitted,
  CommentSubmitted: onCommentSubmitted,
  ReviewApproved: onReviewModerated,
  ReviewRejected: onReviewModerated,
  StockItemOpened: onStockItemOpened,
  StockMinimumSet: onStockMinimumSet,
};

/**
 * The read side of the catalog: product list (with stock from inventory's events and the
 * approved-rating totals), categories, price history and reviews. Rows depend only on the
 * events (timestamps from occurredAt, ids from event ids), so a rebuild yields identical rows.
 * product_counts keeps the number of active products per store and category, so the shop's
 * list answers its total without counting thousands of rows on every request.
 *
 * The tables are in catalog-tables.ts; each event's handler is in handlers/.
 */
/**
 * What a read of the product views waits for (ProjectionHost.fresh): stock comes from inventory's
 * events (a POS sale, a checkout's hold, an adjustment), so a list read right after one shows it.
 */
export const FRESH_PRODUCT_VIEWS = [
  { projection: 'catalog_views', source: 'catalog' },
  { projection: 'catalog_views', source: 'inventory' },
] as const;

export const catalogProjection: Projection<CatalogTable> = {
  name: 'catalog_views',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 6: products.stock_minimum and stock_levels.minimum (StockMinimumSet), folded SKU/name indexes (import).
  version: 6,
  sources: ['catalog', 'inventory'],
  tables: CATALOG_TABLES,

  setup: createCatalogTables,

  async apply(tx, events, t) {
    const touched = new TouchedProducts();
    // Runs of ProductCreated (bulk loads, rebuilds) go in one statement, runs of stock moves (a
    // checkout's holds, one per line) in two; everything else one by one, in order. An event this
    // projection does not read (StockSold) does not end a run of stock moves.
    const inMoves = (type: string) => STOCK_MOVES.has(type) || !(type in HANDLERS || type === 'ProductCreated');
    for (let i = 0; i < events.length; ) {
      if (events[i].type === 'ProductCreated') {
        let j = i;
        while (j < events.length && events[j].type === 'ProductCreated') j++;
        await onProductsCreated({ tx, t, events: events.slice(i, j), touched });
        i = j;
      } else if (STOCK_MOVES.has(events[i].type)) {
        let j = i;
        while (j < events.length && inMoves(events[j].type)) j++;
        await onStockMoves({ tx, t, events: events.slice(i, j), touched });
        i = j;
      } else {
        await applyOne({ tx, t, event: events[i], touched });
        i++;
      }
    }
    const stale = touched.stale();
    if (stale.length > 0) {
      await tx.query(`UPDATE ${t.products} p SET public_json = ${productJsonSql('public')}::text WHERE p.id = ANY($1::uuid[])`, [stale]);
    }
    // A rebuild writes shadow tables that nobody reads until the swap: only live changes are announced.
    if (!t.products.endsWith(SHADOW_SUFFIX)) await announceProductChanges(tx, events, touched);
  },
};

/** What the runner appends to a table's name while it rebuilds it (see libs/eventsourcing's ProjectionRunner). */
const SHADOW_SUFFIX = '__rebuild';

/**
 * NOTIFY channel on which the projection names the products a committed batch changed, so that
 * readers holding products in memory (the AI search's per-store index, in every catalog process)
 * reload just those rows. Payload: `storeId:id,id,…`, or `storeId` alone when the ids do not fit
 * (reload the whole store).
 */
export const PRODUCTS_CHANGED_CHANNEL = 'catalog_products_changed';
/** NOTIFY payloads must stay under 8000 bytes. */
const MAX_PAYLOAD = 7900;

/**
 * One pg_notify per store whose products the batch changed (`touched`, whose shop JSON was made
 * again, and the deleted ones), delivered when the batch commits (never for a rolled-back one). A
 * stock event that left the row as it was announces nothing.
 */
async function announceProductChanges(tx: EventContext['tx'], events: RecordedEventWithTx[], touched: Set<string>): Promise<void> {
  const byStore = new Map<string, Set<string>>();
  for (const event of events) {
    const data = event.data as { productId?: unknown; storeId?: unknown };
    if (typeof data?.productId !== 'string') continue;
    if (!touched.has(data.productId) && event.type !== 'ProductDeleted') continue;
    const storeId = event.metadata.storeId ?? (typeof data.storeId === 'string' ? data.storeId : null);
    if (!storeId) continue;
    let ids = byStore.get(storeId);
    if (!ids) byStore.set(storeId, (ids = new Set()));
    ids.add(data.productId);
  }
  if (byStore.size === 0) return;
  const payloads = [...byStore].map(([storeId, ids]) => {
    const full = `${storeId}:${[...ids].join(',')}`;
    return full.length <= MAX_PAYLOAD ? full : storeId;
  });
  await tx.query(`SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p`, [PRODUCTS_CHANGED_CHANNEL, payloads]);
}

/** Applies one event with its handler; events this projection does not read are skipped. */
async function applyOne(context: EventContext): Promise<void> {
  const { event, touched } = context;
  const data = event.data as { productId?: unknown };
  // Product events change the shop's JSON; stock events only when the stock really changed (their handler says).
  if (typeof data?.productId === 'string' && event.type.startsWith('Product') && event.type !== 'ProductDeleted') touched.add(data.productId);
  await HANDLERS[event.type]?.(context);
}
