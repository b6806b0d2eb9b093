import { InventoryMessages, isUuid, type LedgerEntry } from '@tiendita/contracts';
import { NotFoundError, ValidationError } from '@tiendita/eventsourcing';
import type { Pool } from 'pg';
import { paging } from './inventory-paging';

export interface HistoryQuery {
  productId?: string;
  type?: string;
  from?: string;
  to?: string;
  page?: string;
  limit?: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The stock ledger, newest first: the store's, or one product's (asked by its path: 404 for a product inventory never knew),
 * filtered by kind and by days in America/Guatemala; paged when page or limit is given.
 */
export async function stockLedger(pool: Pool, storeId: string, q: HistoryQuery, productId?: string): Promise<LedgerEntry[] | { history: LedgerEntry[]; total: number; totalPages: number; currentPage: number }> {
  const where = ['m.store_id = $1'];
  const args: unknown[] = [storeId];
  const product = productId ?? q.productId;
  /** The product's number of ledger lines, when the history is one product's. */
  let lines = 0;
  if (product !== undefined) {
    if (!isUuid(product)) throw new ValidationError(InventoryMessages.invalidProductId, { fields: { productId: InventoryMessages.invalidProductId } });
    const known = await pool.query<{ movements: number | null; listed: boolean }>(
      `SELECT (SELECT movements FROM inventory.stock_items WHERE product_id = $1 AND store_id = $2) AS movements,
              EXISTS (SELECT 1 FROM inventory.catalog_products WHERE product_id = $1 AND store_id = $2) AS listed`,
      [product, storeId],
    );
    if (productId && known.rows[0].movements === null && !known.rows[0].listed) throw new NotFoundError(InventoryMessages.productNotFound);
    lines = known.rows[0].movements ?? 0;
    args.push(product);
    where.push(`m.product_id = $${args.length}`);
  }
  const filtered = (q.type && q.type !== 'all') || (q.from && DAY.test(q.from)) || (q.to && DAY.test(q.to));
  if (q.type && q.type !== 'all') {
    args.push(q.type);
    where.push(`(m.kind = $${args.length} OR m.adjustment_type = $${args.length})`);
  }
  if (q.from && DAY.test(q.from)) {
    args.push(q.from);
    where.push(`m.created_at >= ($${args.length}::date)::timestamp AT TIME ZONE 'America/Guatemala'`);
  }
  if (q.to && DAY.test(q.to)) {
    args.push(q.to);
    where.push(`m.created_at < ($${args.length}::date + 1)::timestamp AT TIME ZONE 'America/Guatemala'`);
  }
  const { paged, page, limit } = paging(q);
  // One product, no filter: page n is the lines numbered (lines − (n−1)·limit) and below, read from the
  // (product, ordinal) index; any page costs what the first does, and the total is the product's count.
  const byOrdinal = product !== undefined && !filtered;
  if (byOrdinal) where.push(`m.product_seq <= ${Math.max(0, lines - (page - 1) * limit)}`);
  const order = product !== undefined ? 'm.product_seq DESC' : 'm.seq DESC';
  const offset = byOrdinal ? 0 : (page - 1) * limit;
  const r = await pool.query<{
    event_id: string; product_id: string; product_name: string | null; store_id: string; kind: LedgerEntry['kind']; adjustment_type: LedgerEntry['adjustmentType'];
    old_stock: number; new_stock: number; adjustment: number; quantity: number | null; reserved: number; reason: string | null;
    adjusted_by: string | null; order_id: string | null; code: string | null; created_at: Date;
  }>(
    `SELECT m.event_id, m.product_id, NULLIF(p.name, '') AS product_name, m.store_id, m.kind, m.adjustment_type, m.old_stock, m.new_stock, m.adjustment,
            m.quantity, m.reserved, m.reason, m.adjusted_by, m.order_id, o.code, m.created_at
     FROM inventory.movements m
     LEFT JOIN inventory.catalog_products p ON p.product_id = m.product_id
     LEFT JOIN inventory.order_codes o ON o.order_id = m.order_id
     WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`,
    args,
  );
  const history = r.rows.map(
    (x): LedgerEntry => ({
      id: x.event_id,
      productId: x.product_id,
      productName: x.product_name ?? 'Producto',
      storeId: x.store_id,
      kind: x.kind,
      adjustmentType: x.adjustment_type,
      oldStock: x.old_stock,
      newStock: x.new_stock,
      adjustment: x.adjustment,
      quantity: x.quantity,
      reserved: x.reserved,
      reason: x.reason,
      adjustedBy: x.adjusted_by,
      orderId: x.order_id,
      orderCode: x.code,
      createdAt: x.created_at.toISOString(),
    }),
  );
  if (!paged) return history;
  const total = byOrdinal ? lines : Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM inventory.movements m WHERE ${where.join(' AND ')}`, args)).rows[0].n);
  return { history, total, totalPages: Math.max(1, Math.ceil(total / limit)), currentPage: page };
}
