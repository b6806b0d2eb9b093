import type { DomainEvent, EventMetadata, RecordedEvent } from './types';

// The events table of a service schema: its DDL, its global order (positions) and the shape of its
// rows, shared by the event store, the subscriptions, rebuilds and dead letters.

/**
 * A position in a store's global order. The global order is (transactionId, globalPosition):
 * a bigserial is taken at insert, not at commit, so readers only go up to the oldest transaction
 * still in flight and order by transaction first. Every reader sees the same order and no
 * committed event can ever appear before a position already handed out.
 */
export interface Position {
  transactionId: string;
  globalPosition: number;
}

export const START: Position = Object.freeze({ transactionId: '0', globalPosition: 0 });

/**
 * SQL for the newest transaction id a reader may read below: the oldest transaction still in
 * flight (pg_snapshot_xmin), except transactions of other databases on the same server, which
 * can never write this table — so a long transaction elsewhere on a shared server (another
 * deployment, a test run) does not hold this store's readers back. A transaction whose database
 * cannot be told (it ended meanwhile, or its row is hidden from this user) still counts.
 */
export const SAFE_READ_BOUND = `(SELECT COALESCE(min(x), pg_snapshot_xmax(pg_current_snapshot()))
   FROM pg_snapshot_xip(pg_current_snapshot()) AS x
   WHERE NOT EXISTS (SELECT 1 FROM pg_stat_get_activity(NULL) AS a
                     WHERE a.backend_xid = xid(x) AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database())))`;

/** Name of the LISTEN/NOTIFY channel of a service's event store. */
export function notifyChannel(schema: string): string {
  return `${schema}_events`;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

export function assertSchemaName(schema: string): void {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Nombre de esquema inválido: ${schema}`);
}

/** DDL of the events table of one service schema (ARCHITECTURE.md). */
export function eventStoreDdl(schema: string): string {
  assertSchemaName(schema);
  return `
    CREATE SCHEMA IF NOT EXISTS ${schema};
    CREATE TABLE IF NOT EXISTS ${schema}.events (
      global_position bigserial NOT NULL,
      stream_id text NOT NULL,
      stream_position integer NOT NULL,
      type text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
      recorded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (stream_id, stream_position)
    );
    CREATE UNIQUE INDEX IF NOT EXISTS events_global_order ON ${schema}.events (transaction_id, global_position);
    CREATE UNIQUE INDEX IF NOT EXISTS events_global_position ON ${schema}.events (global_position);
  `;
}

/** A row of an events table as node-pg returns it (transaction_id cast to text). */
export type EventRow = {
  global_position: string;
  stream_id: string;
  stream_position: number;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  transaction_id: string;
  recorded_at: Date;
};

export interface RecordedEventWithTx<E extends DomainEvent = DomainEvent> extends RecordedEvent<E> {
  transactionId: string;
}

/** Turns an events-table row into a recorded event. */
export function toRecorded(row: EventRow): RecordedEventWithTx {
  return {
    globalPosition: Number(row.global_position),
    streamId: row.stream_id,
    streamPosition: row.stream_position,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    recordedAt: row.recorded_at,
    transactionId: row.transaction_id,
  };
}

/**
 * The columns every reader of an events table selects, in the shape of EventRow. Careful: the
 * output column `transaction_id` is text, so ORDER BY must name the table's column (`e.transaction_id`),
 * or PostgreSQL sorts the ids as strings ('1000' before '755').
 */
export const EVENT_COLUMNS = 'global_position, stream_id, stream_position, type, data, metadata, transaction_id::text, recorded_at';

/** Position just after an event, to resume reading from. */
export function positionOf(event: { transactionId: string; globalPosition: number }): Position {
  return { transactionId: event.transactionId, globalPosition: event.globalPosition };
}
