import { Inject, Injectable } from '@nestjs/common';
import { InventoryMessages, type ReserveStockResponse } from '@tiendita/contracts';
import { type AppendMetadata, NotFoundError, type Position } from '@tiendita/eventsourcing';
import { type OwnerIdentity, SERVICE_CONFIG } from '@tiendita/service-kit';
import type { PoolClient } from 'pg';
import type { InventoryConfig } from '../../config';
import { StockWriteModel, W } from '../write-model/stock-write-model';

export interface ReserveInput {
  orderId: string;
  lines: { productId: string; quantity: number }[];
  sale: boolean;
  holdMs?: number;
}

type ReservationRow = { product_id: string; quantity: number; status: string };

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

  /** POST /internal/reservations: all lines or none; the same orderId again answers the same hold. */
  async reserve(owner: OwnerIdentity, input: ReserveInput): Promise<ReserveStockResponse> {
    const wanted = new Map<string, number>();
    for (const l of input.lines) wanted.set(l.productId, (wanted.get(l.productId) ?? 0) + l.quantity);
    const productIds = [...wanted.keys()];
    const holdMs = input.holdMs ?? this.config.RESERVATION_HOLD_MS;
    return this.model.transaction(async (tx) => {
      const locked = await this.model.lock(tx, productIds);
      for (const id of productIds) {
        const l = locked.get(id)!;
        if (l.state.status !== 'open' || l.state.storeId !== owner.storeId) throw new NotFoundError(InventoryMessages.productNotFound);
      }
      const existing = await tx.query<ReservationRow & { store_id: string }>(
        `SELECT product_id, quantity, status, store_id FROM ${W.reservations} WHERE order_id = $1`,
        [input.orderId],
      );
      if (existing.rows.length > 0) {
        if (existing.rows.some((r) => r.store_id !== owner.storeId)) throw new NotFoundError(InventoryMessages.productNotFound);
        return this.answer(input.orderId, existing.rows, locked, null);
      }
      const names = await this.names(tx, productIds);
      const expiresAt = new Date(Date.now() + holdMs).toISOString();
      const metadata: AppendMetadata = { storeId: owner.storeId, actor: owner.userId, correlationId: input.orderId };
      let position: Position | null = null;
      for (const productId of productIds) {
        const quantity = wanted.get(productId)!;
        const r = await this.model.execute(
          tx,
          locked.get(productId)!,
          { type: 'ReserveStock', orderId: input.orderId, productId, storeId: owner.storeId, productName: names.get(productId) ?? 'Producto', quantity, expiresAt, sale: input.sale },
          metadata,
        );
        position = r.position ?? position;
      }
      await tx.query(
        `INSERT INTO ${W.reservations} (order_id, product_id, store_id, quantity, status, expires_at)
         SELECT $1, u.product_id, $2, u.quantity, $3, $4 FROM unnest($5::uuid[], $6::int[]) AS u(product_id, quantity)`,
        [input.orderId, owner.storeId, input.sale ? 'sold' : 'held', expiresAt, productIds, productIds.map((id) => wanted.get(id)!)],
      );
      return this.answer(
        input.orderId,
        productIds.map((id) => ({ product_id: id, quantity: wanted.get(id)!, status: 'held' })),
        locked,
        position,
      );
    });
  }

  /** OrderPlaced: the hold no longer expires. */
  async confirm(tx: PoolClient, orderId: string): Promise<number> {
    const r = await tx.query(`UPDATE ${W.reservations} SET status = 'placed', updated_at = now() WHERE order_id = $1 AND status = 'held'`, [orderId]);
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
