import {
  OrderPlaced,
  StockAdjusted,
  StockItemOpened,
  StockMinimumSet,
  StockReservationReleased,
  StockReserved,
  StockSold,
  UserNameChanged,
  UserRegistered,
  userDisplayName,
} from '@tiendita/contracts';
import { physicalName, type Projection, qualifiedIndexName, type RecordedEventWithTx, STEADY_STREAM_BATCH_DELAY_MS } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

export type StockTable = 'stock_items' | 'adjustments' | 'movements' | 'order_codes' | 'owner_names';

/**
 * Inventory's read side: each product's units on hand and held, its minimum, the adjustments
 * (spec 001 §3) and the full stock ledger (every movement of a unit, with the on-hand after it),
 * plus order codes (ordering) and owner names (identity) for the ledger and adjustedBy.
 *
 * Each ledger line has its ordinal within its product (`product_seq`, 1, 2, 3… in the ledger's
 * order; `stock_items.movements` is the last one), so any page of a product's history is a range
 * of ordinals read from an index, as cheap on page 2,000 of 100,000 lines as on page 1, and its
 * total needs no count.
 */
export const stockProjection: Projection<StockTable> = {
  name: 'stock',
  // Its readers wait for it (ProjectionHost.fresh): under load its batches may gather for 100 ms.
  liveBatchDelayMs: STEADY_STREAM_BATCH_DELAY_MS,
  // 3: movements.product_seq and stock_items.movements (a product's history pages by ordinal).
  version: 4,
  sources: ['inventory', 'ordering', 'identity'],
  tables: ['stock_items', 'adjustments', 'movements', 'order_codes', 'owner_names'],

  async setup(tx, t) {
    const a = physicalName(t.adjustments);
    const m = physicalName(t.movements);
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.stock_items} (
        product_id uuid PRIMARY KEY,
        store_id uuid NOT NULL,
        stock integer NOT NULL CHECK (stock >= 0),
        reserved integer NOT NULL DEFAULT 0,
        minimum integer NOT NULL DEFAULT 5,
        adjustments_count integer NOT NULL DEFAULT 0,
        -- Ledger lines of the product so far (the ordinal of its newest line).
        movements integer NOT NULL DEFAULT 0,
        opened_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      -- Read by product only (the ledger): no index holds what every sale moves, so its updates are
      -- made in place (HOT) in the free fifth of the page.
      DROP INDEX IF EXISTS ${qualifiedIndexName(t.stock_items, 'store')};
      ALTER TABLE ${t.stock_items} SET (fillfactor = 80);
      CREATE TABLE IF NOT EXISTS ${t.adjustments} (
        id uuid PRIMARY KEY,
        product_id uuid NOT NULL,
        store_id uuid NOT NULL,
        adjustment_type varchar(20) NOT NULL,
        old_stock integer NOT NULL,
        new_stock integer NOT NULL,
        adjustment integer NOT NULL,
        reason text NOT NULL,
        adjusted_by varchar(255) NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${a}_product ON ${t.adjustments} (product_id, created_at DESC);
      CREATE INDEX IF NOT EXISTS ${a}_store ON ${t.adjustments} (store_id, created_at DESC);
      CREATE TABLE IF NOT EXISTS ${t.movements} (
        event_id uuid PRIMARY KEY,
        seq bigint NOT NULL,
        product_id uuid NOT NULL,
        product_seq integer NOT NULL,
        store_id uuid NOT NULL,
        kind varchar(12) NOT NULL,
        adjustment_type varchar(20),
        old_stock integer NOT NULL,
        new_stock integer NOT NULL,
        adjustment integer NOT NULL,
        quantity integer,
        reserved integer NOT NULL,
        reason text,
        adjusted_by varchar(255),
        order_id uuid,
        created_at timestamptz NOT NULL
      );
      CREATE UNIQUE INDEX IF NOT EXISTS ${m}_product_seq ON ${t.movements} (product_id, product_seq DESC);
      CREATE INDEX IF NOT EXISTS ${m}_store ON ${t.movements} (store_id, seq DESC);
      CREATE TABLE IF NOT EXISTS ${t.order_codes} (order_id uuid PRIMARY KEY, code text NOT NULL);
      CREATE TABLE IF NOT EXISTS ${t.owner_names} (user_id uuid PRIMARY KEY, name text NOT NULL);
    `);
  },

  async apply(tx, events, t) {
    for (let i = 0; i < events.length; i++) {
      const event = events[i];
      const run = HELD_MOVES.has(event.type) ? HELD_MOVES : event.type === 'OrderPlaced' ? ORDERS_PLACED : null;
      if (run) {
        // A run of holds, releases and sales (a checkout brings one per line), or of orders placed,
        // in one statement; events this projection does not read (OrderStatusChanged) do not end it.
        let j = i;
        while (j < events.length && (run.has(events[j].type) || !READ.has(events[j].type))) j++;
        const slice = events.slice(i, j).filter((e) => run.has(e.type));
        if (run === HELD_MOVES) await heldMoves(tx, t, slice);
        else await orderCodes(tx, t, slice);
        i = j - 1;
        continue;
      }
      const at = event.metadata.occurredAt;
      const seq = event.globalPosition;
      const move = (row: Movement) => movement(tx, t, event.metadata.eventId, seq, at, row);
      switch (event.type) {
        case 'StockItemOpened': {
          const d = StockItemOpened.parse(event.data);
          const r = await tx.query(
            `INSERT INTO ${t.stock_items} (product_id, store_id, stock, opened_at, updated_at) VALUES ($1, $2, $3, $4, $4) ON CONFLICT (product_id) DO NOTHING`,
            [d.productId, d.storeId, d.stock, at],
          );
          if (r.rowCount) await move({ productId: d.productId, storeId: d.storeId, kind: 'opening', oldStock: 0, newStock: d.stock, reserved: 0 });
          break;
        }
        case 'StockAdjusted': {
          const d = StockAdjusted.parse(event.data);
          const inserted = await tx.query(
            `INSERT INTO ${t.adjustments} (id, product_id, store_id, adjustment_type, old_stock, new_stock, adjustment, reason, adjusted_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
            [d.adjustmentId, d.productId, d.storeId, d.adjustmentType, d.oldStock, d.newStock, d.adjustment, d.reason, d.adjustedBy, at],
          );
          if (inserted.rowCount) {
            const r = await tx.query<{ reserved: number }>(
              // By its difference, not its new count: a sale whose transaction took its id first can
              // commit after an adjustment that already counted it, and then comes first in the
              // global order; differences add up the same in any order (issue 12's ledger property).
              `UPDATE ${t.stock_items} SET stock = stock + $2, adjustments_count = adjustments_count + 1, updated_at = $3 WHERE product_id = $1 RETURNING reserved`,
              [d.productId, d.adjustment, at],
            );
            await move({
              productId: d.productId,
              storeId: d.storeId,
              kind: 'adjustment',
              adjustmentType: d.adjustmentType,
              oldStock: d.oldStock,
              newStock: d.newStock,
              reserved: r.rows[0]?.reserved ?? 0,
              reason: d.reason,
              adjustedBy: d.adjustedBy,
            });
          }
          break;
        }
        case 'StockMinimumSet': {
          const d = StockMinimumSet.parse(event.data);
          await tx.query(`UPDATE ${t.stock_items} SET minimum = $2 WHERE product_id = $1`, [d.productId, d.minimum]);
          break;
        }
        case 'UserRegistered': {
          const d = UserRegistered.pick({ userId: true, firstName: true, lastName: true }).parse(event.data);
          await tx.query(`INSERT INTO ${t.owner_names} (user_id, name) VALUES ($1, $2) ON CONFLICT (user_id) DO UPDATE SET name = EXCLUDED.name`, [
            d.userId,
            userDisplayName(d.firstName, d.lastName),
          ]);
          break;
        }
        case 'UserNameChanged': {
          // New with the profile page (no earlier event to replay): the kardex names the owner as they are called now.
          const d = UserNameChanged.parse(event.data);
          const name = userDisplayName(d.firstName, d.lastName);
          if (name) await tx.query(`UPDATE ${t.owner_names} SET name = $2 WHERE user_id = $1`, [d.userId, name]);
          break;
        }
        default:
          break;
      }
    }
  },
};

/** The stock events heldMoves applies a run at a time. */
const HELD_MOVES = new Set(['StockReserved', 'StockReservationReleased', 'StockSold']);
const ORDERS_PLACED = new Set(['OrderPlaced']);
/** Every event type this projection reads. */
const READ = new Set([...HELD_MOVES, ...ORDERS_PLACED, 'StockItemOpened', 'StockAdjusted', 'StockMinimumSet', 'UserRegistered', 'UserNameChanged']);
/** What the ledger reads of OrderPlaced. */
const PlacedCode = OrderPlaced.pick({ orderId: true, code: true });

/** The order codes of a run of OrderPlaced (the ledger shows them), in one statement; a code already there stays. */
async function orderCodes(tx: PoolClient, t: Record<StockTable, string>, events: RecordedEventWithTx[]): Promise<void> {
  const placed = events.map((e) => PlacedCode.parse(e.data));
  await tx.query(
    `INSERT INTO ${t.order_codes} (order_id, code) SELECT o, c FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS u(o, c, n) ORDER BY n ON CONFLICT (order_id) DO NOTHING`,
    [placed.map((p) => p.orderId), placed.map((p) => p.code)],
  );
}

/**
 * A run of StockReserved, StockReservationReleased and StockSold in one statement: each product's
 * stock_items row moved once (held units by the sum of its holds and releases, on hand by its sales)
 * and one ledger line per event, each with the on hand and held after it and its ordinal after the
 * product's last line: the rows of one event at a time. An event whose line is there already (the
 * same event id) moves the units and writes no line, as one at a time did; an event of a product
 * whose item is not open moves nothing and writes its line with 0 on hand and 0 held.
 */
async function heldMoves(tx: PoolClient, t: Record<StockTable, string>, events: RecordedEventWithTx[]): Promise<void> {
  const rows = events.map((event) => {
    const d = event.type === 'StockReserved' ? StockReserved.parse(event.data) : event.type === 'StockSold' ? StockSold.parse(event.data) : StockReservationReleased.parse(event.data);
    const reason = event.type === 'StockReservationReleased' ? (d as StockReservationReleased).reason : null;
    return {
      eventId: event.metadata.eventId,
      seq: event.globalPosition,
      productId: d.productId,
      storeId: d.storeId,
      kind: event.type === 'StockReserved' ? 'reserved' : event.type === 'StockSold' ? 'sold' : 'released',
      shelf: event.type === 'StockSold' ? -d.quantity : 0,
      held: event.type === 'StockReserved' ? d.quantity : -d.quantity,
      quantity: d.quantity,
      reason: reason === 'cancelled' ? 'Pedido cancelado' : reason === 'expired' ? 'Reserva vencida' : null,
      orderId: d.orderId,
      at: event.metadata.occurredAt,
    };
  });
  const col = <K extends keyof (typeof rows)[number]>(k: K) => rows.map((r) => r[k]);
  // Planned on every call (a query object is never a named statement), not once per connection:
  // a plan made while the ledger was small looks each event up with a scan of the whole ledger,
  // and kept for the connection's life it cost more with every sale (FEL bench, session 20: 5.5,
  // 11.7, then 19.8 ms a batch over three runs of 1,500 sales). Planned now, it reads the ledger's
  // key once it is large enough for that to pay.
  await tx.query({
    text: `WITH ev AS (
       SELECT ev.*, NOT EXISTS (SELECT 1 FROM ${t.movements} m WHERE m.event_id = ev.event_id) AS new_line
       FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::uuid[], $5::text[], $6::int[], $7::int[], $8::int[], $9::text[], $10::uuid[], $11::timestamptz[])
         WITH ORDINALITY AS ev(event_id, seq, product_id, store_id, kind, shelf, held, quantity, reason, order_id, at, ord)),
     cur AS (SELECT s.product_id, s.stock, s.reserved, s.movements FROM ${t.stock_items} s WHERE s.product_id = ANY($3::uuid[]) FOR UPDATE),
     steps AS (
       SELECT ev.*, cur.product_id IS NOT NULL AS open,
              CASE WHEN cur.product_id IS NULL THEN 0 ELSE cur.stock + sum(ev.shelf) OVER w END AS stock_after,
              CASE WHEN cur.product_id IS NULL THEN 0 ELSE cur.reserved + sum(ev.held) OVER w END AS reserved_after,
              COALESCE(cur.movements, 0) + CASE WHEN cur.product_id IS NULL THEN 1 ELSE count(*) FILTER (WHERE ev.new_line) OVER w END AS product_seq,
              row_number() OVER (PARTITION BY ev.product_id ORDER BY ev.ord DESC) AS from_end
       FROM ev LEFT JOIN cur ON cur.product_id = ev.product_id
       WINDOW w AS (PARTITION BY ev.product_id ORDER BY ev.ord)),
     moved AS (
       UPDATE ${t.stock_items} s SET stock = steps.stock_after, reserved = steps.reserved_after, updated_at = steps.at, movements = steps.product_seq
       FROM steps WHERE steps.from_end = 1 AND steps.open AND s.product_id = steps.product_id AND s.product_id = ANY($3::uuid[]))
     INSERT INTO ${t.movements} (event_id, seq, product_id, product_seq, store_id, kind, old_stock, new_stock, adjustment, quantity, reserved, reason, order_id, created_at)
     SELECT event_id, seq, product_id, product_seq, store_id, kind, stock_after - shelf, stock_after, shelf, quantity, reserved_after, reason, order_id, at
     FROM steps WHERE new_line ORDER BY ord
     ON CONFLICT (event_id) DO NOTHING`,
    values: [col('eventId'), col('seq'), col('productId'), col('storeId'), col('kind'), col('shelf'), col('held'), col('quantity'), col('reason'), col('orderId'), col('at')],
  });
}

interface Movement {
  productId: string;
  storeId: string;
  kind: string;
  adjustmentType?: string;
  oldStock: number;
  newStock: number;
  quantity?: number;
  reserved: number;
  reason?: string | null;
  adjustedBy?: string;
  orderId?: string;
}

/** One ledger line, numbered after the product's last one; the product's count moves only when the line is new. */
async function movement(tx: PoolClient, t: Record<StockTable, string>, eventId: string, seq: number, at: string, m: Movement): Promise<void> {
  await tx.query(
    `WITH line AS (
       INSERT INTO ${t.movements} (event_id, seq, product_id, product_seq, store_id, kind, adjustment_type, old_stock, new_stock, adjustment, quantity, reserved, reason, adjusted_by, order_id, created_at)
       VALUES ($1, $2, $3, COALESCE((SELECT movements FROM ${t.stock_items} WHERE product_id = $3), 0) + 1, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       ON CONFLICT (event_id) DO NOTHING
       RETURNING product_id
     )
     UPDATE ${t.stock_items} SET movements = movements + 1 WHERE product_id IN (SELECT product_id FROM line)`,
    [eventId, seq, m.productId, m.storeId, m.kind, m.adjustmentType ?? null, m.oldStock, m.newStock, m.newStock - m.oldStock, m.quantity ?? null, m.reserved, m.reason ?? null, m.adjustedBy ?? null, m.orderId ?? null, at],
  );
}
