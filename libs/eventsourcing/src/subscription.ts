import type { Pool, PoolClient, QueryResult } from 'pg';
import type { Position, RecordedEventWithTx } from './event-table';

/**
 * What a handler may answer: nothing (the whole batch was handled), or how many events of the
 * batch it handled. Fewer than the batch means "commit the checkpoint after those and stop this
 * subscription" (the projection runner uses it to pause on a dead letter).
 */
export type HandleResult = void | { handled: number };

/**
 * Applies a batch inside the consumer's transaction; the checkpoint is written in the same one.
 * `started`: the results of batchStart's statements, in order (when there is a batchStart).
 */
export type SubscriptionHandler = (events: RecordedEventWithTx[], tx: PoolClient, started?: readonly QueryResult[]) => Promise<HandleResult>;

export interface SubscribeOptions {
  /** Consumer group, `<service>.<purpose>`: one checkpoint per group and source. */
  group: string;
  /** Source context whose events are consumed (its schema / topic `<source>.events`). */
  source: string;
  handle: SubscriptionHandler;
  /**
   * SQL (a checked literal, no parameters) the transport runs in a batch's transaction before it calls
   * `handle`, in the round trip that reads the batch when it can (the postgres transport does): the
   * runner's projection lock costs no round trip of its own. It may also run for a pass that finds nothing.
   * What its statements answer reaches `handle` (`started`).
   */
  batchStart?: string;
  batchSize?: number;
  /**
   * After a batch smaller than batchSize, wait this long before reading the next (default 0): under
   * a steady stream the events gather into larger batches. A NOTIFY does not cut the wait; caughtUp()
   * and stop() do. A transport may ignore it (Kafka's consumer batches by itself).
   */
  batchDelayMs?: number;
  /** Called when handle throws; the batch is retried after a pause. */
  onError?: (err: unknown, events: RecordedEventWithTx[]) => void;
}

export interface Subscription {
  readonly group: string;
  readonly source: string;
  /** Resolves once every event committed before the call has been handled. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Resolves when the subscription has ended: after stop(), or after its handler answered fewer
   * events than the batch (that partial batch committed).
   */
  readonly done: Promise<void>;
}

/** The subscription port: the only way a service consumes another's events. */
export interface EventTransport {
  readonly kind: 'postgres' | 'kafka';
  subscribe(options: SubscribeOptions): Promise<Subscription>;
  /**
   * The checkpoint partition that holds a stream's events: 0 on PostgreSQL (one order for the
   * whole source), the topic partition of the stream's key on Kafka. Read-your-writes waits on it.
   */
  partitionOf?(source: string, streamId: string): number;
  close(): Promise<void>;
}

/** DDL of the checkpoint table kept in the consumer's schema. */
export function checkpointDdl(schema: string): string {
  return `
    CREATE SCHEMA IF NOT EXISTS ${schema};
    CREATE TABLE IF NOT EXISTS ${schema}.subscription_checkpoints (
      group_name text NOT NULL,
      source text NOT NULL,
      partition integer NOT NULL DEFAULT 0,
      transaction_id xid8 NOT NULL DEFAULT '0',
      global_position bigint NOT NULL DEFAULT 0,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_name, source, partition)
    );`;
}

/**
 * Partition number of a group's floor row: events at or before it are skipped on every partition.
 * A rebuild swap sets it (the Kafka consumer honours it; the postgres transport uses partition 0).
 */
export const FLOOR_PARTITION = -1;

/**
 * Reads the checkpoint of a group for a source, locking its row for this transaction. With
 * `skipLocked` (the default) it answers null when another transaction holds the row (another
 * process works this group, or a rebuild swap pauses it); without, it waits for the row.
 */
export async function lockCheckpoint(
  tx: PoolClient,
  schema: string,
  group: string,
  source: string,
  partition = 0,
  skipLocked = true,
): Promise<Position | null> {
  const select = () =>
    tx.query<{ transaction_id: string; global_position: string }>({
      name: `${schema}_lock_checkpoint${skipLocked ? '_skip' : ''}`,
      text: `SELECT transaction_id::text, global_position FROM ${schema}.subscription_checkpoints
             WHERE group_name = $1 AND source = $2 AND partition = $3 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`,
      values: [group, source, partition],
    });
  // The row exists after a group's first batch: one round trip then; the insert only when it is missing
  // (or locked, which the second select tells apart).
  let r = await select();
  if (r.rowCount === 0) {
    await tx.query(`INSERT INTO ${schema}.subscription_checkpoints (group_name, source, partition) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [group, source, partition]);
    r = await select();
  }
  if (r.rowCount === 0) return null; // another process holds this group: let it work
  return { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) };
}

/** Reads the checkpoint of a group for a source without locking it; null when the group has none yet. */
export async function readCheckpoint(db: Pool | PoolClient, schema: string, group: string, source: string, partition = 0): Promise<Position | null> {
  const r = await db.query<{ transaction_id: string; global_position: string }>({
    name: `${schema}_read_checkpoint`,
    text: `SELECT transaction_id::text, global_position FROM ${schema}.subscription_checkpoints WHERE group_name = $1 AND source = $2 AND partition = $3`,
    values: [group, source, partition],
  });
  return r.rows[0] ? { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) } : null;
}

/** Saves the checkpoint of a group for a source (its row must be locked by lockCheckpoint). */
export async function saveCheckpoint(tx: PoolClient, schema: string, group: string, source: string, position: Position, partition = 0): Promise<void> {
  await tx.query(
    `UPDATE ${schema}.subscription_checkpoints SET transaction_id = $4::xid8, global_position = $5, updated_at = now()
     WHERE group_name = $1 AND source = $2 AND partition = $3`,
    [group, source, partition, position.transactionId, position.globalPosition],
  );
}

/** Total order of positions: transaction id first, then global position. Negative, zero or positive. */
export function comparePositions(a: Position, b: Position): number {
  const ta = BigInt(a.transactionId);
  const tb = BigInt(b.transactionId);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.globalPosition - b.globalPosition;
}

/** The later of two positions. */
export function maxPosition(a: Position, b: Position): Position {
  return comparePositions(a, b) >= 0 ? a : b;
}
