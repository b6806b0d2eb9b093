import type { PoolClient } from 'pg';
import type { CatalogTables } from '../catalog-tables';

/** One row of the price history, money in centavos. */
export interface PriceHistoryRow {
  /** The event's id: a redelivered event inserts nothing. */
  id: string;
  productId: string;
  storeId: string;
  oldPriceCentavos: number | null;
  newPriceCentavos: number;
  oldDiscountPercentage: number | null;
  newDiscountPercentage: number;
  changeReason: string | null;
  /** The actor's user id; 'system' when there is none. */
  changedBy: string;
  at: string;
}

export async function insertPriceHistory({ tx, t, row }: { tx: PoolClient; t: CatalogTables; row: PriceHistoryRow }): Promise<void> {
  await tx.query(
    `INSERT INTO ${t.price_history} (id, product_id, store_id, old_price_centavos, new_price_centavos, old_discount_percentage, new_discount_percentage, change_reason, changed_by, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (id) DO NOTHING`,
    [
      row.id,
      row.productId,
      row.storeId,
      row.oldPriceCentavos,
      row.newPriceCentavos,
      row.oldDiscountPercentage,
      row.newDiscountPercentage,
      row.changeReason,
      row.changedBy || 'system',
      row.at,
    ],
  );
}
