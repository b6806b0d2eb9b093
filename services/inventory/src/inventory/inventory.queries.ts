import { Inject, Injectable } from '@nestjs/common';
import { type InventoryItem, type LedgerEntry, lowStockSql, soldWithoutStockMessage } from '@tiendita/contracts';
import { type FreshSource, PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';
import { STOCK_ITEMS_REACTION } from '../stock/reactions/catalog-products.consumer';
import { ORDERS_REACTION } from '../stock/reactions/ordering-orders.consumer';
import { listInventory, type ListQuery } from './inventory-list.query';
import { type HistoryQuery, stockLedger } from './stock-ledger.query';

export type { HistoryQuery } from './stock-ledger.query';
export type { ListQuery } from './inventory-list.query';

/**
 * What a read waits for (ProjectionHost.fresh), in order: the reactions that append inventory's own
 * events (a new product's stock item from catalog's events; a sale or a cancellation from ordering's),
 * then the views that read them. So a list read right after a POS sale, a checkout or a new product shows it.
 */
const REACTIONS: readonly FreshSource[] = [
  { projection: STOCK_ITEMS_REACTION, source: 'catalog' },
  { projection: ORDERS_REACTION, source: 'ordering' },
];
const FRESH_LIST: readonly FreshSource[] = [...REACTIONS, { projection: 'catalog_products', source: 'catalog' }, { projection: 'catalog_products', source: 'inventory' }];
const FRESH_LEDGER: readonly FreshSource[] = [...REACTIONS, { projection: 'stock', source: 'inventory' }, { projection: 'stock', source: 'ordering' }];

/** The owner's inventory reads: the product list with units and levels, and the stock ledger. */
@Injectable()
export class InventoryQueries {
  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly readModels: ProjectionHost,
  ) {}

  /** The product list with units and levels (inventory-list.query.ts), once the views show every event so far. */
  async list(storeId: string, q: ListQuery): Promise<InventoryItem[] | { products: InventoryItem[]; total: number; totalPages: number; currentPage: number }> {
    await this.readModels.fresh(FRESH_LIST);
    return listInventory(this.pool, storeId, q);
  }

  /** The store's products at or below their minimum (the bell), cheapest query: count and the first few. */
  async lowStock(storeId: string): Promise<{
    count: number;
    products: { id: string; name: string; available: number; minimum: number }[];
    shortfalls: { productId: string; name: string; missing: number; message: string }[];
  }> {
    await this.readModels.fresh(FRESH_LIST);
    // Offline sales that took units the stock lacked (issue 28), until a count of the product after them.
    const short = await this.pool.query<{ product_id: string; name: string; missing: string }>(
      `SELECT s.product_id, min(s.product_name) AS name, sum(s.missing) AS missing FROM inventory.stock_shortfalls s
       WHERE s.store_id = $1 AND NOT EXISTS (SELECT 1 FROM inventory.applied_adjustments a WHERE a.product_id = s.product_id AND a.applied_at > s.created_at)
       GROUP BY s.product_id ORDER BY max(s.created_at) DESC LIMIT 10`,
      [storeId],
    );
    const shortfalls = short.rows.map((x) => ({ productId: x.product_id, name: x.name, missing: Number(x.missing), message: soldWithoutStockMessage(x.name, Number(x.missing)) }));
    const r = await this.pool.query<{ id: string; name: string; available: number; minimum: number; total: string }>(
      `SELECT p.product_id AS id, p.name, p.stock - p.reserved AS available, p.minimum, count(*) OVER () AS total
       FROM inventory.catalog_products p
       WHERE p.store_id = $1 AND p.listed AND p.opened AND NOT p.deleted AND ${lowStockSql('p.stock - p.reserved', 'p.minimum')}
       ORDER BY p.stock - p.reserved, lower(p.name) LIMIT 10`,
      [storeId],
    );
    return { count: Number(r.rows[0]?.total ?? 0), products: r.rows.map(({ total: _t, ...x }) => x), shortfalls };
  }

  /** The stock ledger (stock-ledger.query.ts), once the ledger shows every event so far. */
  async history(storeId: string, q: HistoryQuery, productId?: string): Promise<LedgerEntry[] | { history: LedgerEntry[]; total: number; totalPages: number; currentPage: number }> {
    await this.readModels.fresh(FRESH_LEDGER);
    return stockLedger(this.pool, storeId, q, productId);
  }

  async ownerName(userId: string): Promise<string> {
    const r = await this.pool.query<{ name: string }>('SELECT name FROM inventory.owner_names WHERE user_id = $1', [userId]);
    return r.rows[0]?.name || userId;
  }
}
