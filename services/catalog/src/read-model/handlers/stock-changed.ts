import { StockMinimumSet } from '@tiendita/contracts';
import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import type { CatalogTables } from '../catalog-tables';
import { type EventContext, parseInventory, type TouchedProducts } from './context';
import { productJsonSql } from '../../shared/sql';

interface StockLevel {
  tx: PoolClient;
  t: CatalogTables;
  productId: string;
  storeId: string;
  stock: number;
  /** An opening never overwrites a level already recorded (the item opens once; redelivery is harmless). */
  opening: boolean;
}

/** Records a stock level; answers whether the product row changed (a product created with that stock does not). */
async function setStock({ tx, t, productId, storeId, stock, opening }: StockLevel): Promise<boolean> {
  await tx.query(
    `INSERT INTO ${t.stock_levels} (product_id, store_id, stock) VALUES ($1, $2, $3)
     ON CONFLICT (product_id) DO ${opening ? 'NOTHING' : 'UPDATE SET stock = EXCLUDED.stock'}`,
    [productId, storeId, stock],
  );
  const r = await tx.query(
    `UPDATE ${t.products} p SET stock = l.stock FROM ${t.stock_levels} l WHERE p.id = $1 AND l.product_id = $1 AND p.stock <> l.stock`,
    [productId],
  );
  return (r.rowCount ?? 0) > 0;
}

/** StockItemOpened (inventory): the opening stock, unless a level is already known. */
export async function onStockItemOpened({ tx, t, event, touched }: EventContext): Promise<void> {
  const d = parseInventory('StockItemOpened', event.data);
  if (await setStock({ tx, t, productId: d.productId, storeId: d.storeId, stock: d.stock, opening: true })) touched.add(d.productId);
}

/**
 * The shop's JSON of product `p` with the stock of `level` (the value the same UPDATE writes: its SET
 * reads the row as it was), so a product's row and JSON are written once, not twice, per run of moves.
 */
const PUBLIC_JSON_WITH_LEVEL = productJsonSql('public').replace('p.stock AS "stock"', 'level.stock AS "stock"');
if (!PUBLIC_JSON_WITH_LEVEL.includes('level.stock')) throw new Error('productJsonSql no longer names p.stock AS "stock"');

/** The event types whose runs onStockMoves applies together: each moves a level by a delta. */
export const STOCK_MOVES = new Set(['StockAdjusted', 'StockReserved', 'StockReservationReleased']);

/**
 * One product's moves in a run, composed. Each move is `level → max(level + delta, 0)`, and such
 * steps compose into one of the same shape, `level → max(level + add, floor)`; `fresh` is the level
 * the run leaves when the product had no level yet (its first move's `initial`, then the rest).
 */
interface ComposedMoves {
  productId: string;
  storeId: string;
  fresh: number;
  add: number;
  floor: number;
}

/** A stock event's delta and the level it starts when no level is recorded (as addStock's callers give them). */
function move(event: RecordedEventWithTx): { productId: string; storeId: string; delta: number; initial: number } | null {
  switch (event.type) {
    case 'StockAdjusted': {
      const d = parseInventory('StockAdjusted', event.data);
      return { productId: d.productId, storeId: d.storeId, delta: d.adjustment, initial: d.newStock };
    }
    case 'StockReserved': {
      const d = parseInventory('StockReserved', event.data);
      return { productId: d.productId, storeId: d.storeId, delta: -d.quantity, initial: 0 };
    }
    case 'StockReservationReleased': {
      const d = parseInventory('StockReservationReleased', event.data);
      return { productId: d.productId, storeId: d.storeId, delta: d.quantity, initial: d.quantity };
    }
    default:
      return null;
  }
}

/**
 * Catalog's stock is AVAILABLE units (on hand − held by orders): StockAdjusted moves the level by its
 * difference, StockReserved takes the units held, StockReservationReleased gives back those of a
 * cancelled or expired order; StockSold changes nothing here (its units were held already). A level
 * never goes below 0.
 *
 * A run of StockAdjusted, StockReserved and StockReservationReleased (a checkout brings one per
 * line) in two statements whatever its length: each product's moves composed (ComposedMoves), its
 * level moved once, and its product row's stock set when it changed. The levels are the ones the
 * events one at a time leave (GREATEST(…, 0) at every step included). A product row whose stock
 * changed gets its shop JSON in the same UPDATE (one new row version, not two); one whose stock ends
 * where it began is not touched, so its shop JSON (identical) is not made again.
 */
export async function onStockMoves({ tx, t, events, touched }: { tx: PoolClient; t: CatalogTables; events: RecordedEventWithTx[]; touched: TouchedProducts }): Promise<void> {
  const composed = new Map<string, ComposedMoves>();
  for (const event of events) {
    const m = move(event);
    if (!m) continue;
    const c = composed.get(m.productId);
    if (!c) composed.set(m.productId, { productId: m.productId, storeId: m.storeId, fresh: Math.max(m.initial, 0), add: m.delta, floor: 0 });
    else {
      c.fresh = Math.max(c.fresh + m.delta, 0);
      c.add += m.delta;
      c.floor = Math.max(c.floor + m.delta, 0);
    }
  }
  if (composed.size === 0) return;
  const moves = [...composed.values()];
  // `= ANY($1)` besides each join: rows found by their key whatever the planner thinks of a join
  // to a CTE (a guard: the plans seen without it were index scans too).
  const r = await tx.query<{ id: string }>(
    `WITH m AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[]) AS m(product_id, store_id, fresh, add, floor)),
     moved AS (
       UPDATE ${t.stock_levels} l SET stock = GREATEST(l.stock + m.add, m.floor) FROM m WHERE l.product_id = m.product_id AND l.product_id = ANY($1::uuid[])
       RETURNING l.product_id, l.stock),
     opened AS (
       INSERT INTO ${t.stock_levels} (product_id, store_id, stock)
       SELECT product_id, store_id, fresh FROM m WHERE product_id NOT IN (SELECT product_id FROM moved)
       ON CONFLICT (product_id) DO NOTHING
       RETURNING product_id, stock),
     level AS (SELECT * FROM moved UNION ALL SELECT * FROM opened)
     UPDATE ${t.products} p SET stock = level.stock, public_json = ${PUBLIC_JSON_WITH_LEVEL}::text
     FROM level WHERE p.id = level.product_id AND p.id = ANY($1::uuid[]) AND p.stock <> level.stock RETURNING p.id`,
    [moves.map((m) => m.productId), moves.map((m) => m.storeId), moves.map((m) => m.fresh), moves.map((m) => m.add), moves.map((m) => m.floor)],
  );
  for (const row of r.rows) touched.addCurrent(row.id);
}

/**
 * StockMinimumSet (inventory): the product's own low-stock line, so the Products page's low-stock
 * filter and card agree with the inventory screen. Kept in stock_levels too (whose row the item's
 * opening made first, same stream), for a product row that arrives later: ProductCreated and
 * inventory's events come through separate subscriptions.
 */
export async function onStockMinimumSet({ tx, t, event }: EventContext): Promise<void> {
  const d = StockMinimumSet.parse(event.data);
  await tx.query(`UPDATE ${t.stock_levels} SET minimum = $2 WHERE product_id = $1`, [d.productId, d.minimum]);
  await tx.query(`UPDATE ${t.products} SET stock_minimum = $2 WHERE id = $1`, [d.productId, d.minimum]);
}
