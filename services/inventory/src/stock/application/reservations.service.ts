import { Inject, Injectable } from '@nestjs/common';
import { InventoryMessages, type ReserveStockResponse } from '@tiendita/contracts';
import { type AppendMetadata, ConcurrencyError, NotFoundError, type Position } from '@tiendita/eventsourcing';
import { type OwnerIdentity, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { PoolClient } from 'pg';
import type { InventoryConfig } from '../../config';
import { evolveStock, shortfallOf, stockDecider, type StockEvent, type StockState, stockStreamId } from '../domain/stock-item.decider';
import { type LockedStock, type OpenState, StockWriteModel, W } from '../write-model/stock-write-model';

export interface ReserveInput {
  orderId: string;
  lines: { productId: string; quantity: number }[];
  sale: boolean;
  /** An offline sale (issue 28): never refused for stock; what it lacks is recorded in W.shortfalls. */
  allowShort?: boolean;
  holdMs?: number;
}

type ReservationRow = { product_id: string; quantity: number; status: string };

/** A line given back before its order appeared (expired or released by ordering): it holds nothing. */
const released = (row: ReservationRow): boolean => row.status === 'expired';

/**
 * Stock held for orders (ARCHITECTURE.md, Consistency): reserve before the order exists, confirm
 * when it is placed, release on cancel or expiry, sell when it leaves for delivery. Each step
 * locks the products' stock rows first (product order) and the reservation rows second, so a
 * step runs once even with several inventory processes.
 */
@Injectable()
export class ReservationsService {
  constructor(
    private readonly model: StockWriteModel,
    @Inject(SERVICE_CONFIG) private readonly config: InventoryConfig,
  ) {}

  /**
   * POST /internal/reservations: all lines or none; the same orderId again answers the same hold.
   * Five round trips whatever the number of lines: BEGIN; the stock rows locked (product order)
   * with the products' names and the order's earlier hold in one statement; every line's events in
   * one append; the rows and the reservation lines in one statement; COMMIT.
   */
  async reserve(owner: OwnerIdentity, input: ReserveInput): Promise<ReserveStockResponse> {
    const wanted = new Map<string, number>();
    for (const l of input.lines) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
    const productIds = [...wanted.keys()]; // cart order: the first line without stock is the one named
    const holdMs = input.holdMs ?? this.config.RESERVATION_HOLD_MS;
    return this.model.transaction(async (tx) => {
      let { locked, names, existing } = await this.lockForReserve(tx, productIds, input.orderId);
      if (locked.size < productIds.length) {
        // A product without a stock row (a stream older than the table, or not opened yet): the
        // general lock loads or refuses it; the names and the earlier hold are read after it.
        locked = await this.model.lock(tx, productIds);
        names = await this.names(tx, productIds);
        existing = (
          await tx.query<ReservationRow & { store_id: string }>(`SELECT product_id, quantity, status, store_id FROM ${W.reservations} WHERE order_id = $1`, [input.orderId])
        ).rows;
      }
      for (const id of productIds) {
        const l = locked.get(id)!;
        if (l.state.status !== 'open' || l.state.storeId !== owner.storeId) throw new NotFoundError(InventoryMessages.productNotFound);
      }
      if (existing.length > 0) {
        if (existing.some((r) => r.store_id !== owner.storeId)) throw new NotFoundError(InventoryMessages.productNotFound);
        // A hold given back before its order appeared (it ran out, or ordering released a checkout
        // it lost) holds nothing: the same order asking again (a shopper's retry with its
        // Idempotency-Key) is reserved anew, against the stock as it is now. Any other is its hold.
        if (!existing.every(released)) return this.answer(input.orderId, existing, locked, null);
      }
      const expiresAt = new Date(Date.now() + holdMs).toISOString();
      const metadata: AppendMetadata = { storeId: owner.storeId, actor: owner.userId, correlationId: input.orderId };
      // Every line decided first (a line without stock refuses the whole order before anything is written).
      let decided: { l: LockedStock; events: StockEvent[]; state: StockState; short: number }[];
      const allowShort = input.sale && input.allowShort === true;
      try {
        decided = productIds.map((productId) => {
          const l = locked.get(productId)!;
          const command = { type: 'ReserveStock' as const, orderId: input.orderId, productId, storeId: owner.storeId, productName: names.get(productId) ?? 'Producto', quantity: wanted.get(productId)!, expiresAt, sale: input.sale, allowShort };
          const events = stockDecider.decide(command, l.state);
          return { l, events, state: events.reduce(evolveStock, l.state), short: allowShort ? shortfallOf(command, l.state) : 0 };
        });
      } catch (err) {
        // The units may be gone to this very order: a call with the same orderId that committed while
        // this one waited for the rows (not in the locking read's snapshot). A new statement sees it.
        const held = await tx.query<ReservationRow & { store_id: string }>(`SELECT product_id, quantity, status, store_id FROM ${W.reservations} WHERE order_id = $1 AND status <> 'expired'`, [input.orderId]);
        if (held.rows.length === 0) throw err;
        if (held.rows.some((r) => r.store_id !== owner.storeId)) throw new NotFoundError(InventoryMessages.productNotFound);
        return this.answer(input.orderId, held.rows, locked, null);
      }
      const appended = await this.model.store.appendEach(
        decided.flatMap(({ l, events }) => events.map((event) => ({ streamId: stockStreamId(l.productId), event, metadata }))),
        tx,
      );
      // The rows are locked, so each stream's events land right after the version the row holds; a
      // stream that moved without its row (nothing in inventory does that) is a clash: retried.
      const last = new Map<string, number>();
      for (const a of appended) last.set(a.streamId, Math.max(last.get(a.streamId) ?? 0, a.streamPosition));
      for (const d of decided) {
        if (d.events.length === 0) continue;
        const streamId = stockStreamId(d.l.productId);
        if (last.get(streamId) !== d.l.version + d.events.length) throw new ConcurrencyError(streamId, d.l.version);
        d.l.version += d.events.length;
      }
      for (const d of decided) d.l.state = d.state;
      const open = decided.filter((d) => d.state.status === 'open');
      const shortLines = decided.filter((d) => d.short > 0);
      let written: { rows: { xid: string; lines: number }[] };
      try {
        written = await tx.query<{ xid: string; lines: number }>({
          name: 'inventory_reserve_write',
          text: `WITH moved AS (
                   UPDATE ${W.rows} r SET version = u.version, on_hand = u.on_hand, reserved = u.reserved
                   FROM unnest($1::uuid[], $2::int[], $3::int[], $4::int[]) AS u(product_id, version, on_hand, reserved)
                   WHERE r.product_id = u.product_id),
                 held AS (
                   INSERT INTO ${W.reservations} AS x (order_id, product_id, store_id, quantity, status, expires_at)
                   SELECT $5, u.product_id, $6, u.quantity, $7, $8 FROM unnest($9::uuid[], $10::int[]) AS u(product_id, quantity)
                   ON CONFLICT (order_id, product_id) DO UPDATE SET quantity = EXCLUDED.quantity, status = EXCLUDED.status, expires_at = EXCLUDED.expires_at, created_at = now(), updated_at = now()
                   WHERE x.status = 'expired'
                   RETURNING 1),
                 short AS (
                   INSERT INTO ${W.shortfalls} (order_id, product_id, store_id, product_name, missing)
                   SELECT $5, u.product_id, $6, u.name, u.missing FROM unnest($11::uuid[], $12::text[], $13::int[]) AS u(product_id, name, missing)
                   ON CONFLICT DO NOTHING)
                 SELECT pg_current_xact_id()::text AS xid, (SELECT count(*) FROM held)::int AS lines`,
          values: [
            open.map((d) => d.l.productId),
            open.map((d) => d.l.version),
            open.map((d) => (d.state as OpenState).onHand),
            open.map((d) => (d.state as OpenState).reserved),
            input.orderId,
            owner.storeId,
            input.sale ? 'sold' : 'held',
            expiresAt,
            productIds,
            productIds.map((id) => wanted.get(id)!),
            shortLines.map((d) => d.l.productId),
            shortLines.map((d) => names.get(d.l.productId) ?? 'Producto'),
            shortLines.map((d) => d.short),
          ],
        });
      } catch (err) {
        // The same order reserved by a call that committed while this one waited for the rows: this
        // statement's snapshot did not show its lines. Again, in a new snapshot, answers that hold.
        if ((err as { code?: string; constraint?: string }).code === '23505') throw new ConcurrencyError(`reservation-${input.orderId}`, 0);
        throw err;
      }
      // A line not written: the same order held it again meanwhile (its row was no longer 'expired').
      // Again, in a new snapshot, answers that hold; this one's events roll back with the transaction.
      if (written.rows[0].lines < productIds.length) throw new ConcurrencyError(`reservation-${input.orderId}`, 0);
      const lastEvent = appended[appended.length - 1];
      return this.answer(
        input.orderId,
        productIds.map((id) => ({ product_id: id, quantity: wanted.get(id)!, status: 'held' })),
        locked,
        lastEvent ? { transactionId: written.rows[0].xid, globalPosition: lastEvent.globalPosition } : null,
      );
    });
  }

  /**
   * One statement: the stock rows of these products locked in product order (a missing row is
   * simply absent), each with the product's name, and the lines this order already holds. The
   * lines are read in this statement's snapshot: a hold of the same order committed while the rows
   * were waited for is not among them (reserve() then retries on the reservation's primary key).
   */
  private async lockForReserve(
    tx: PoolClient,
    productIds: string[],
    orderId: string,
  ): Promise<{ locked: Map<string, LockedStock>; names: Map<string, string>; existing: (ReservationRow & { store_id: string })[] }> {
    const r = await tx.query<{ product_id: string; store_id: string; version: number; on_hand: number; reserved: number; name: string | null; existing: (ReservationRow & { store_id: string })[] | null }>({
      name: 'inventory_reserve_lock',
      text: `SELECT r.product_id, r.store_id, r.version, r.on_hand, r.reserved, c.name,
                    (SELECT json_agg(json_build_object('product_id', x.product_id, 'quantity', x.quantity, 'status', x.status, 'store_id', x.store_id))
                     FROM ${W.reservations} x WHERE x.order_id = $2) AS existing
             FROM ${W.rows} r LEFT JOIN inventory.catalog_products c ON c.product_id = r.product_id AND c.listed
             WHERE r.product_id = ANY($1::uuid[]) ORDER BY r.product_id FOR UPDATE OF r`,
      values: [productIds, orderId],
    });
    const locked = new Map<string, LockedStock>();
    const names = new Map<string, string>();
    for (const row of r.rows) {
      locked.set(row.product_id, {
        productId: row.product_id,
        version: row.version,
        state: { status: 'open', productId: row.product_id, storeId: row.store_id, onHand: row.on_hand, reserved: row.reserved },
      });
      if (row.name !== null) names.set(row.product_id, row.name);
    }
    return { locked, names, existing: r.rows[0]?.existing ?? [] };
  }

  /**
   * Which of these orders have reservation lines here (any status). Lines are written before the
   * order's first event, so an order without any when its events are handled never gets one.
   */
  async ordersHolding(tx: PoolClient, orderIds: readonly string[]): Promise<Set<string>> {
    if (orderIds.length === 0) return new Set();
    const r = await tx.query<{ order_id: string }>({
      name: 'inventory_orders_holding',
      text: `SELECT DISTINCT order_id FROM ${W.reservations} WHERE order_id = ANY($1::uuid[])`,
      values: [[...new Set(orderIds)]],
    });
    return new Set(r.rows.map((x) => x.order_id));
  }

  /**
   * Orders with units held and not placed (no OrderPlaced seen yet) whose hold was taken before
   * `before`, oldest first: what ordering looks through when it starts, for checkouts it lost.
   */
  async heldBefore(before: Date, limit = 1000): Promise<{ orderId: string; storeId: string }[]> {
    const r = await this.model.pool.query<{ order_id: string; store_id: string }>(
      `SELECT order_id, min(store_id::text) AS store_id FROM ${W.reservations} WHERE status = 'held' AND created_at < $1 GROUP BY order_id ORDER BY min(created_at) LIMIT $2`,
      [before, limit],
    );
    return r.rows.map((x) => ({ orderId: x.order_id, storeId: x.store_id }));
  }

  /** OrderPlaced: the hold no longer expires. */
  async confirm(tx: PoolClient, orderId: string): Promise<number> {
    return this.confirmMany(tx, [orderId]);
  }

  /** OrderPlaced of several orders (a reaction batch): their holds no longer expire, in one statement. */
  async confirmMany(tx: PoolClient, orderIds: readonly string[]): Promise<number> {
    const r = await tx.query({
      name: 'inventory_confirm_holds',
      text: `UPDATE ${W.reservations} SET status = 'placed', updated_at = now() WHERE order_id = ANY($1::uuid[]) AND status = 'held'`,
      values: [orderIds],
    });
    return r.rowCount ?? 0;
  }

  /** Cancelled order or expired hold: held units go back to available. Answers the lines released. */
  release(orderId: string, reason: 'cancelled' | 'expired', client?: PoolClient): Promise<number> {
    const from = reason === 'expired' ? ['held'] : ['held', 'placed'];
    return this.finish(orderId, from, reason === 'expired' ? 'expired' : 'released', client, (row) => ({ type: 'ReleaseStock', orderId, quantity: row.quantity, reason }));
  }

  /** The order went out for delivery (or was delivered): held units leave the shelf. */
  sell(orderId: string, client?: PoolClient): Promise<number> {
    return this.finish(orderId, ['held', 'placed'], 'sold', client, (row) => ({ type: 'SellStock', orderId, quantity: row.quantity }));
  }

  /**
   * Releases holds whose order never appeared before expires_at. Each order in its own
   * transaction; SKIP LOCKED lets two processes share the work, the status check inside the lock
   * makes each release happen once.
   */
  async sweep(limit = 100): Promise<number> {
    const due = await this.model.pool.query<{ order_id: string }>(
      `SELECT DISTINCT order_id FROM ${W.reservations} WHERE status = 'held' AND expires_at <= now() LIMIT $1`,
      [limit],
    );
    let released = 0;
    for (const { order_id } of due.rows) released += await this.release(order_id, 'expired');
    return released;
  }

  private finish(
    orderId: string,
    from: string[],
    to: string,
    client: PoolClient | undefined,
    command: (row: ReservationRow) => Parameters<StockWriteModel['execute']>[2],
  ): Promise<number> {
    return this.model.transaction(async (tx) => {
      const peek = await tx.query<{ product_id: string }>(`SELECT product_id FROM ${W.reservations} WHERE order_id = $1 AND status = ANY($2)`, [orderId, from]);
      if (peek.rows.length === 0) return 0;
      const locked = await this.model.lock(
        tx,
        peek.rows.map((r) => r.product_id),
      );
      const rows = await tx.query<ReservationRow & { store_id: string }>(
        `SELECT product_id, quantity, status, store_id FROM ${W.reservations} WHERE order_id = $1 AND status = ANY($2) ORDER BY product_id FOR UPDATE`,
        [orderId, from],
      );
      for (const row of rows.rows) {
        const l = locked.get(row.product_id);
        if (!l) continue;
        await this.model.execute(tx, l, command(row), { storeId: row.store_id, actor: 'system', correlationId: orderId });
      }
      await tx.query(`UPDATE ${W.reservations} SET status = $3, updated_at = now() WHERE order_id = $1 AND status = ANY($2)`, [orderId, from, to]);
      return rows.rows.length;
    }, client);
  }

  private async names(tx: PoolClient, productIds: string[]): Promise<Map<string, string>> {
    const r = await tx.query<{ product_id: string; name: string }>(`SELECT product_id, name FROM inventory.catalog_products WHERE product_id = ANY($1::uuid[]) AND listed`, [productIds]);
    return new Map(r.rows.map((x) => [x.product_id, x.name]));
  }

  private answer(orderId: string, rows: ReservationRow[], locked: Awaited<ReturnType<StockWriteModel['lock']>>, position: Position | null): ReserveStockResponse {
    return {
      orderId,
      lines: rows.map((r) => {
        const s = locked.get(r.product_id)?.state;
        return { productId: r.product_id, quantity: r.quantity, available: s && s.status === 'open' ? s.onHand - s.reserved : 0 };
      }),
      position,
    };
  }
}
