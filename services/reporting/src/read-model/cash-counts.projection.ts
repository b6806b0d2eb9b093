import { CashCountRecorded } from '@tiendita/contracts';
import type { Projection } from '@tiendita/eventsourcing';

export type CashCountsTable = 'cash_counts';

/** The owner's latest cash count per store and day (reporting's own CashCountRecorded events). */
export const cashCountsProjection: Projection<CashCountsTable> = {
  name: 'cash_counts',
  version: 1,
  sources: ['reporting'],
  tables: ['cash_counts'],

  async setup(tx, t) {
    await tx.query(`
      CREATE TABLE IF NOT EXISTS ${t.cash_counts} (
        store_id uuid NOT NULL,
        day date NOT NULL,
        counted_cash bigint NOT NULL,
        expected_cash bigint NOT NULL,
        note text,
        recorded_by text NOT NULL,
        recorded_at timestamptz NOT NULL,
        counts integer NOT NULL DEFAULT 1,
        PRIMARY KEY (store_id, day)
      );
    `);
  },

  async apply(tx, events, t) {
    for (const event of events) {
      if (event.type !== 'CashCountRecorded') continue;
      const d = CashCountRecorded.parse(event.data);
      await tx.query(
        `INSERT INTO ${t.cash_counts} (store_id, day, counted_cash, expected_cash, note, recorded_by, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (store_id, day) DO UPDATE SET counted_cash = EXCLUDED.counted_cash, expected_cash = EXCLUDED.expected_cash, note = EXCLUDED.note,
           recorded_by = EXCLUDED.recorded_by, recorded_at = EXCLUDED.recorded_at, counts = ${t.cash_counts}.counts + 1`,
        [d.storeId, d.date, d.countedCash, d.expectedCash, d.note, d.recordedBy, d.recordedAt],
      );
    }
  },
};
