import { StockMinimumSet } from '@tiendita/contracts';
import type { PoolClient } from 'pg';
import type { CatalogTables } from '../catalog-tables';
import { type EventContext, parseInventory } from './context';

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

/** Moves an available level by `delta` (`initial` when no level is recorded yet); answers whether the product row changed. */
async function addStock({ tx, t, productId, storeId, delta, initial }: { tx: PoolClient; t: CatalogTables; productId: string; storeId: string; delta: number; initial: number }): Promise<boolean> {
  await tx.query(
    `INSERT INTO ${t.stock_levels} (product_id, store_id, stock) VALUES ($1, $2, GREATEST($4::int, 0))
     ON CONFLICT (product_id) DO UPDATE SET stock = GREATEST(${t.stock_levels}.stock + $3::int, 0)`,
    [productId, storeId, delta, initial],
  );
  const r = await tx.query(
    `UPDATE ${t.products} p SET stock = l.stock FROM ${t.stock_levels} l WHERE p.id = $1 AND l.product_id = $1 AND p.stock <> l.stock`,
    [productId],
  );
  return (r.rowCount ?? 0) > 0;
}

/**
 * StockAdjusted (inventory): the shop shows AVAILABLE units (on hand − held by orders), so an
 * adjustment moves the level by its difference; the shop's JSON is made again only when it changed.
 */
export async function onStockAdjusted({ tx, t, event, touched }: EventContext): Promise<void> {
  const d = parseInventory('StockAdjusted', event.data);
  if (await addStock({ tx, t, productId: d.productId, storeId: d.storeId, delta: d.adjustment, initial: d.newStock })) touched.add(d.productId);
}

/** StockReserved (inventory): units held for an order leave what the shop shows. */
export async function onStockReserved({ tx, t, event, touched }: EventContext): Promise<void> {
  const d = parseInventory('StockReserved', event.data);
  if (await addStock({ tx, t, productId: d.productId, storeId: d.storeId, delta: -d.quantity, initial: 0 })) touched.add(d.productId);
}

/** StockReservationReleased (inventory): units of a cancelled or expired order come back. StockSold changes nothing here: its units were held already. */
export async function onStockReservationReleased({ tx, t, event, touched }: EventContext): Promise<void> {
  const d = parseInventory('StockReservationReleased', event.data);
  if (await addStock({ tx, t, productId: d.productId, storeId: d.storeId, delta: d.quantity, initial: d.quantity })) touched.add(d.productId);
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
