import type { RecordedEventWithTx } from '@tiendita/eventsourcing';
import type { PoolClient } from 'pg';

/**
 * Per store, the position of the last event that changed a projection's rows for it. The reports
 * cache keys an answer by these (a store whose rows did not change gets the same answer). The
 * position comes from the events, not from the writing transaction, so a rebuild writes the same
 * versions as the live projection and a verified replay compares equal.
 */
export class StoreVersions {
  private readonly last = new Map<string, string>();

  /** Records that `event` changed the rows of `storeId` (events come in order: the last one wins). */
  touch(storeId: string | null | undefined, event: RecordedEventWithTx): void {
    if (storeId) this.last.set(storeId, `${event.transactionId}/${event.globalPosition}`);
  }

  /** The rows for this batch as one JSON document, for a json_to_recordset statement. */
  rows(): { store_id: string; version: string }[] {
    return [...this.last].map(([store_id, version]) => ({ store_id, version }));
  }

  /** Writes them in the batch's transaction (for projections that write statement by statement). */
  async save(tx: PoolClient, table: string): Promise<void> {
    if (this.last.size === 0) return;
    await tx.query({ text: upsertStoreVersions(table, '$1::json'), values: [JSON.stringify(this.rows())] });
  }
}

/** DDL of a projection's versions table (one row per store). */
export const storeVersionsDdl = (table: string): string => `CREATE TABLE IF NOT EXISTS ${table} (store_id uuid PRIMARY KEY, version text NOT NULL)`;

/** The upsert of versions given as JSON rows `{ store_id, version }`. */
export const upsertStoreVersions = (table: string, rows: string): string =>
  `INSERT INTO ${table} AS v (store_id, version) SELECT store_id, version FROM json_to_recordset(${rows}) AS x(store_id uuid, version text)
   ON CONFLICT (store_id) DO UPDATE SET version = EXCLUDED.version`;
