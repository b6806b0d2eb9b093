import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import {
  GENERIC_PLANS,
  type AppendMetadata,
  ConcurrencyError,
  type Position,
  type PostgresEventStore,
  withTransaction,
} from '@tiendita/eventsourcing';
import { EVENT_STORE, PG_POOL } from '@tiendita/service-kit';
import type { Pool, PoolClient } from 'pg';

/** BEGIN with generic plans for the transaction's named statements (see GENERIC_PLANS). */
const GENERIC_PLANS_BEGIN = `BEGIN; SELECT ${GENERIC_PLANS}`;
import { evolveStock, stockDecider, type StockCommand, type StockEvent, type StockState, stockStreamId } from '../domain/stock-item.decider';

/** Tables of inventory's write side (schema `inventory`, beside the events; not projections). */
export const W = {
  rows: 'inventory.stock_rows',
  applied: 'inventory.applied_adjustments',
  reservations: 'inventory.reservations',
  shortfalls: 'inventory.stock_shortfalls',
} as const;

const DDL = `
  CREATE SCHEMA IF NOT EXISTS inventory;
  -- The decider's state of each stock stream and the stream version it stands for: a command reads
  -- one row (locked) instead of folding the stream, and writes it back in the append's transaction.
  CREATE TABLE IF NOT EXISTS ${W.rows} (
    product_id uuid PRIMARY KEY,
    store_id uuid NOT NULL,
    version integer NOT NULL,
    on_hand integer NOT NULL CHECK (on_hand >= 0),
    reserved integer NOT NULL CHECK (reserved >= 0 AND reserved <= on_hand)
  );
  -- Every hold and sale rewrites its products' rows: a free fifth of each page lets that happen in
  -- place (a HOT update, no new primary-key entry).
  ALTER TABLE ${W.rows} SET (fillfactor = 80);
  -- Adjustment ids already applied (SetStock is idempotent on them), inserted in the same transaction.
  CREATE TABLE IF NOT EXISTS ${W.applied} (
    adjustment_id uuid PRIMARY KEY,
    product_id uuid NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  );
  -- One row per order line held: idempotency by order id, and what a cancel, sale or expiry acts on.
  CREATE TABLE IF NOT EXISTS ${W.reservations} (
    order_id uuid NOT NULL,
    product_id uuid NOT NULL,
    store_id uuid NOT NULL,
    quantity integer NOT NULL CHECK (quantity > 0),
    status varchar(10) NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (order_id, product_id)
  );
  -- Units an offline sale took that the stock did not have (issue 28): the owner's alert until a
  -- count of the product (an adjustment applied after it) settles it. One row per order line.
  CREATE TABLE IF NOT EXISTS ${W.shortfalls} (
    order_id uuid NOT NULL,
    product_id uuid NOT NULL,
    store_id uuid NOT NULL,
    product_name text NOT NULL,
    missing integer NOT NULL CHECK (missing > 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (order_id, product_id)
  );
  CREATE INDEX IF NOT EXISTS stock_shortfalls_store ON ${W.shortfalls} (store_id, created_at DESC);
  CREATE INDEX IF NOT EXISTS reservations_held_expiry ON ${W.reservations} (expires_at) WHERE status = 'held';
`;

export type OpenState = Extract<StockState, { status: 'open' }>;
export interface LockedStock {
  productId: string;
  state: StockState;
  version: number;
}

const RETRYABLE_PG = new Set(['40001', '40P01']);

/**
 * Inventory's write side: each stock stream's state kept as a row (a snapshot updated in the
 * append's transaction), locked with FOR UPDATE in product order, so two commands on the same
 * product run one after the other and a command's cost does not depend on the stream's length.
 * The append still checks the stream version (optimistic concurrency) as a second guard.
 */
@Injectable()
export class StockWriteModel implements OnModuleInit {
  constructor(
    @Inject(PG_POOL) readonly pool: Pool,
    @Inject(EVENT_STORE) readonly store: PostgresEventStore,
  ) {}

  async onModuleInit(): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtext($1))', ['inventory:write-model']);
      await client.query(DDL);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['inventory:write-model']).catch(() => undefined);
      client.release();
    }
  }

  /** Runs `work` in a transaction (or inside the caller's), again on a version clash or deadlock. */
  async transaction<T>(work: (tx: PoolClient) => Promise<T>, client?: PoolClient, retries = 5): Promise<T> {
    if (client) return work(client);
    for (let attempt = 0; ; attempt++) {
      try {
        // Its named statements (the reserve's lock and write) are planned once per connection.
        return await withTransaction(this.pool, work, { begin: GENERIC_PLANS_BEGIN });
      } catch (err) {
        const code = (err as { code?: string }).code;
        if ((err instanceof ConcurrencyError || (code && RETRYABLE_PG.has(code))) && attempt < retries) {
          await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * (attempt + 1)));
          continue;
        }
        throw err;
      }
    }
  }

  /** Locks the stock rows of these products (in product order), loading a missing row from its stream once. */
  async lock(tx: PoolClient, productIds: readonly string[]): Promise<Map<string, LockedStock>> {
    const ids = [...new Set(productIds)].sort();
    const found = await this.select(tx, ids);
    for (const id of ids) {
      if (found.has(id)) continue;
      // No row yet: a stream written before this table existed, or a product not opened yet.
      const recorded = await this.store.readStream(stockStreamId(id), 0, tx);
      if (recorded.length === 0) {
        found.set(id, { productId: id, state: { status: 'none' }, version: 0 });
        continue;
      }
      const state = recorded.map((r) => ({ type: r.type, data: r.data }) as StockEvent).reduce(evolveStock, stockDecider.initialState());
      if (state.status === 'open') {
        await tx.query(
          `INSERT INTO ${W.rows} (product_id, store_id, version, on_hand, reserved) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (product_id) DO NOTHING`,
          [id, state.storeId, recorded.length, state.onHand, state.reserved],
        );
      }
      const again = await this.select(tx, [id]);
      found.set(id, again.get(id) ?? { productId: id, state, version: recorded.length });
    }
    return found;
  }

  /**
   * lock() for many products at once: the rows in one statement, then one look at the events for
   * the missing ones; only a missing row whose stream has events (written before this table) is
   * loaded one by one, as lock() does. A product with neither is 'none' at version 0.
   */
  async lockMany(tx: PoolClient, productIds: readonly string[]): Promise<Map<string, LockedStock>> {
    const ids = [...new Set(productIds)].sort();
    const found = await this.select(tx, ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length === 0) return found;
    const recorded = await tx.query<{ stream_id: string }>({
      name: 'inventory_stock_streams_present',
      text: `SELECT stream_id FROM ${this.store.schema}.events WHERE stream_id = ANY($1::text[]) AND stream_position = 1`,
      values: [missing.map(stockStreamId)],
    });
    const withEvents = new Set(recorded.rows.map((r) => r.stream_id));
    const older = missing.filter((id) => withEvents.has(stockStreamId(id)));
    for (const id of missing) if (!withEvents.has(stockStreamId(id))) found.set(id, { productId: id, state: { status: 'none' }, version: 0 });
    if (older.length) for (const [id, l] of await this.lock(tx, older)) found.set(id, l);
    return found;
  }

  /**
   * execute() for several commands in one go: every command decided first (in the order given,
   * each on the state the ones before it left), all their events in one append, every row written
   * back in one statement. Answers each command's events and the state it left.
   */
  async executeMany(
    tx: PoolClient,
    items: readonly { locked: LockedStock; command: StockCommand; metadata: AppendMetadata }[],
  ): Promise<{ events: StockEvent[]; state: StockState }[]> {
    const startVersion = new Map<string, number>();
    const decided = items.map(({ locked, command, metadata }) => {
      if (!startVersion.has(locked.productId)) startVersion.set(locked.productId, locked.version);
      const events = stockDecider.decide(command, locked.state);
      const state = events.reduce(evolveStock, locked.state);
      locked.state = state;
      locked.version += events.length;
      return { locked, events, state, metadata };
    });
    const entries = decided.flatMap(({ locked, events, metadata }) => events.map((event) => ({ streamId: stockStreamId(locked.productId), event, metadata })));
    if (entries.length === 0) return decided;
    const appended = await this.store.appendEach(entries, tx);
    // The rows are locked: each stream's events land right after the version its row held. A
    // stream that moved without its row is a clash (ConcurrencyError: the transaction is retried).
    const last = new Map<string, number>();
    for (const a of appended) last.set(a.streamId, Math.max(last.get(a.streamId) ?? 0, a.streamPosition));
    const rows = new Map<string, LockedStock>();
    for (const d of decided) rows.set(d.locked.productId, d.locked);
    for (const [productId, l] of rows) {
      const streamId = stockStreamId(productId);
      if (l.version !== startVersion.get(productId) && last.get(streamId) !== l.version) throw new ConcurrencyError(streamId, startVersion.get(productId)!);
    }
    const open = [...rows.values()].filter((l) => l.state.status === 'open' && l.version !== startVersion.get(l.productId));
    if (open.length) {
      await tx.query({
        name: 'inventory_stock_rows_write',
        text: `INSERT INTO ${W.rows} (product_id, store_id, version, on_hand, reserved)
               SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::int[], $5::int[])
               ON CONFLICT (product_id) DO UPDATE SET version = EXCLUDED.version, on_hand = EXCLUDED.on_hand, reserved = EXCLUDED.reserved`,
        values: [
          open.map((l) => l.productId),
          open.map((l) => (l.state as OpenState).storeId),
          open.map((l) => l.version),
          open.map((l) => (l.state as OpenState).onHand),
          open.map((l) => (l.state as OpenState).reserved),
        ],
      });
    }
    return decided;
  }

  private async select(tx: PoolClient, ids: string[]): Promise<Map<string, LockedStock>> {
    const r = await tx.query<{ product_id: string; store_id: string; version: number; on_hand: number; reserved: number }>(
      `SELECT product_id, store_id, version, on_hand, reserved FROM ${W.rows} WHERE product_id = ANY($1::uuid[]) ORDER BY product_id FOR UPDATE`,
      [ids],
    );
    return new Map(
      r.rows.map((row) => [
        row.product_id,
        { productId: row.product_id, version: row.version, state: { status: 'open', productId: row.product_id, storeId: row.store_id, onHand: row.on_hand, reserved: row.reserved } },
      ]),
    );
  }

  /**
   * Decides a command on a locked row, appends its events at the row's version and writes the new
   * state back, all in `tx`. Answers the events, the new state and the position of the last event.
   */
  async execute(
    tx: PoolClient,
    locked: LockedStock,
    command: StockCommand,
    metadata: AppendMetadata,
  ): Promise<{ events: StockEvent[]; state: StockState; position: Position | null }> {
    const events = stockDecider.decide(command, locked.state);
    if (events.length === 0) return { events, state: locked.state, position: null };
    const appended = await this.store.append(stockStreamId(locked.productId), events, locked.version, metadata, tx);
    const state = events.reduce(evolveStock, locked.state);
    if (state.status === 'open') {
      await tx.query(
        `INSERT INTO ${W.rows} (product_id, store_id, version, on_hand, reserved) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (product_id) DO UPDATE SET version = EXCLUDED.version, on_hand = EXCLUDED.on_hand, reserved = EXCLUDED.reserved`,
        [locked.productId, state.storeId, appended.nextExpectedVersion, state.onHand, state.reserved],
      );
    }
    locked.state = state;
    locked.version = appended.nextExpectedVersion;
    return { events, state, position: appended.position };
  }
}
