import { StockAdjusted, StockReservationReleased, StockReserved, StockSold } from '@tiendita/contracts';
import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';
import type { ProductsTable } from './products.projection';

/** The stock events applied by applyStockMoves, a run at a time. */
export const STOCK_MOVES = new Set(['StockAdjusted', 'StockReserved', 'StockReservationReleased', 'StockSold']);

/**
 * One product's stock moves in a run, composed. `stock` and `adjustments_count` only add up; each
 * move of `reserved` is `r → max(r + add, floor)` (a hold adds with no floor, a release or sale
 * takes away down to 0), and such steps compose into one of the same shape (a null floor: none).
 */
interface ComposedMoves {
  productId: string;
  storeId: string;
  stock: number;
  adjustments: number;
  reservedAdd: number;
  reservedFloor: number | null;
  at: string;
}

/**
 * A run of StockAdjusted (by its difference, see stock.projection.ts: the same total in whatever
 * order it meets a sale), StockReserved, StockReservationReleased and StockSold (by its quantity,
 * not its onHand: it can come before an adjustment that already counted it), each product's row
 * moved once: the rows one event at a time gives (GREATEST(0, …) of every release and sale
 * included). A row inventory's event comes to before catalog's ProductCreated is made first.
 */
export async function applyStockMoves(tx: PoolClient, events: RecordedEventWithTx[], t: Record<ProductsTable, string>): Promise<void> {
  const composed = new Map<string, ComposedMoves>();
  for (const event of events) {
    let m: { productId: string; storeId: string; stock: number; adjustments: number; reserved: number; floor: number | null };
    if (event.type === 'StockAdjusted') {
      const d = StockAdjusted.parse(event.data);
      m = { productId: d.productId, storeId: d.storeId, stock: d.adjustment, adjustments: 1, reserved: 0, floor: null };
    } else if (event.type === 'StockReserved') {
      const d = StockReserved.parse(event.data);
      m = { productId: d.productId, storeId: d.storeId, stock: 0, adjustments: 0, reserved: d.quantity, floor: null };
    } else if (event.type === 'StockReservationReleased') {
      const d = StockReservationReleased.parse(event.data);
      m = { productId: d.productId, storeId: d.storeId, stock: 0, adjustments: 0, reserved: -d.quantity, floor: 0 };
    } else {
      const d = StockSold.parse(event.data);
      m = { productId: d.productId, storeId: d.storeId, stock: -d.quantity, adjustments: 0, reserved: -d.quantity, floor: 0 };
    }
    const c = composed.get(m.productId);
    if (!c) {
      composed.set(m.productId, { productId: m.productId, storeId: m.storeId, stock: m.stock, adjustments: m.adjustments, reservedAdd: m.reserved, reservedFloor: m.floor, at: event.metadata.occurredAt });
      continue;
    }
    c.stock += m.stock;
    c.adjustments += m.adjustments;
    c.reservedAdd += m.reserved;
    // max(max(r + a, f) + a2, f2) = max(r + a + a2, f + a2, f2); a missing floor stays missing.
    const floors = [c.reservedFloor === null ? null : c.reservedFloor + m.reserved, m.floor].filter((f): f is number => f !== null);
    c.reservedFloor = floors.length ? Math.max(...floors) : null;
    c.at = event.metadata.occurredAt;
  }
  const moves = [...composed.values()];
  const params = [
    moves.map((m) => m.productId),
    moves.map((m) => m.stock),
    moves.map((m) => m.adjustments),
    moves.map((m) => m.reservedAdd),
    moves.map((m) => m.reservedFloor),
    moves.map((m) => m.at),
  ];
  // `= ANY($1)` besides the join: the rows are found by their key whatever the planner thinks of
  // the join to the batch (a guard: the plans seen without it were index scans too).
  const update = () =>
    tx.query<{ product_id: string }>(
      `UPDATE ${t.catalog_products} p SET stock = p.stock + m.stock, adjustments_count = p.adjustments_count + m.adjustments,
         reserved = GREATEST(p.reserved + m.reserved_add, m.reserved_floor), stock_updated_at = m.at
       FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[], $5::int[], $6::timestamptz[]) AS m(product_id, stock, adjustments, reserved_add, reserved_floor, at)
       WHERE p.product_id = m.product_id AND p.product_id = ANY($1::uuid[]) RETURNING p.product_id`,
      params,
    );
  const updated = new Set((await update()).rows.map((r) => r.product_id));
  const missing = moves.filter((m) => !updated.has(m.productId));
  if (missing.length === 0) return;
  // Rows made here start from the defaults (0 on hand, 0 held), then take their moves.
  await tx.query(
    `INSERT INTO ${t.catalog_products} (product_id, store_id, stock, adjustments_count, reserved, stock_updated_at)
     SELECT m.product_id, m.store_id, m.stock, m.adjustments, GREATEST(m.reserved_add, m.reserved_floor), m.at
     FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[], $6::int[], $7::timestamptz[]) AS m(product_id, store_id, stock, adjustments, reserved_add, reserved_floor, at)
     ON CONFLICT (product_id) DO NOTHING`,
    [
      missing.map((m) => m.productId),
      missing.map((m) => m.storeId),
      missing.map((m) => m.stock),
      missing.map((m) => m.adjustments),
      missing.map((m) => m.reservedAdd),
      missing.map((m) => m.reservedFloor),
      missing.map((m) => m.at),
    ],
  );
}
