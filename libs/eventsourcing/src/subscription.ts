import type { Pool, PoolClient } from 'pg';
import type { Position, RecordedEventWithTx } from './event-store';

/** Applies a batch inside the consumer's transaction; the checkpoint is written in the same one. */
export type SubscriptionHandler = (events: RecordedEventWithTx[], tx: PoolClient) => Promise<void>;

export interface SubscribeOptions {
  /** Consumer group, `<service>.<purpose>`: one checkpoint per group and source. */
  group: string;
  /** Source context whose events are consumed (its schema / topic `<source>.events`). */
  source: string;
  handle: SubscriptionHandler;
  batchSize?: number;
  /** Called when handle throws; the batch is retried after a pause. */
  onError?: (err: unknown, events: RecordedEventWithTx[]) => void;
}

export interface Subscription {
  readonly group: string;
  readonly source: string;
  /** Resolves once every event committed before the call has been handled. */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

/** The subscription port: the only way a service consumes another's events. */
export interface EventTransport {
  readonly kind: 'postgres' | 'kafka';
  subscribe(options: SubscribeOptions): Promise<Subscription>;
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

/** Reads the checkpoint of a group for a source, locking its row for this transaction. */
export async function lockCheckpoint(tx: PoolClient, schema: string, group: string, source: string, partition = 0): Promise<Position | null> {
  await tx.query(
    `INSERT INTO ${schema}.subscription_checkpoints (group_name, source, partition) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
    [group, source, partition],
  );
  const r = await tx.query<{ transaction_id: string; global_position: string }>(
    `SELECT transaction_id::text, global_position FROM ${schema}.subscription_checkpoints
     WHERE group_name = $1 AND source = $2 AND partition = $3 FOR UPDATE SKIP LOCKED`,
    [group, source, partition],
  );
  if (r.rowCount === 0) return null; // another process holds this group: let it work
  return { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) };
}

export async function saveCheckpoint(tx: PoolClient, schema: string, group: string, source: string, position: Position, partition = 0): Promise<void> {
  await tx.query(
    `UPDATE ${schema}.subscription_checkpoints SET transaction_id = $4::xid8, global_position = $5, updated_at = now()
     WHERE group_name = $1 AND source = $2 AND partition = $3`,
    [group, source, partition, position.transactionId, position.globalPosition],
  );
}
