import type { Pool, PoolClient } from 'pg';
import type { RecordedEventWithTx } from './event-table';
import type { ProjectionStatus } from './projection-target';
import { checkpointDdl } from './subscription';

/** One row of `<schema>.projections`. */
export interface ProjectionState {
  name: string;
  version: number;
  status: ProjectionStatus;
  lastError: string | null;
  updatedAt: Date;
}

/** One row of `<schema>.dead_letters`. */
export interface DeadLetter {
  id: number;
  projection: string;
  source: string;
  eventId: string;
  transactionId: string;
  globalPosition: number;
  streamId: string;
  streamPosition: number;
  type: string;
  error: string;
  data: unknown;
  metadata: unknown;
  attempts: number;
  createdAt: Date;
  /** The store it was set aside for (the projection goes on for the others); null when it paused the whole projection. */
  storeId: string | null;
  /** Set aside only because an earlier event of its store failed. */
  held: boolean;
}

/**
 * DDL of what the runner keeps in the consuming service's schema: checkpoints, each projection's
 * version and status (`running`, `paused`, `rebuilding`: a pause survives restarts), and the
 * events a projection could not apply.
 */
export function projectionStateDdl(schema: string): string {
  return `
    ${checkpointDdl(schema)}
    CREATE TABLE IF NOT EXISTS ${schema}.projections (
      name text PRIMARY KEY,
      version integer NOT NULL,
      status text NOT NULL CHECK (status IN ('running', 'paused', 'rebuilding')),
      last_error text,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- 'read-model' or 'reaction' (never rebuilt): the replay tool lists reactions from here, their code needs the service.
    ALTER TABLE ${schema}.projections ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'read-model';
    CREATE TABLE IF NOT EXISTS ${schema}.dead_letters (
      id bigserial PRIMARY KEY,
      projection text NOT NULL,
      source text NOT NULL,
      event_id text NOT NULL,
      transaction_id xid8 NOT NULL,
      global_position bigint NOT NULL,
      stream_id text NOT NULL,
      stream_position integer NOT NULL,
      type text NOT NULL,
      error text NOT NULL,
      data jsonb NOT NULL,
      metadata jsonb NOT NULL,
      attempts integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_failed_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (projection, source, event_id)
    );
    -- Set aside for one store (the event's storeId): the projection goes on for every other store.
    -- held: not failed itself, but behind an earlier event of its store that did (applied in order after it).
    ALTER TABLE ${schema}.dead_letters ADD COLUMN IF NOT EXISTS store_id text;
    ALTER TABLE ${schema}.dead_letters ADD COLUMN IF NOT EXISTS held boolean NOT NULL DEFAULT false;`;
}

/** SQL of the stores whose events a projection sets aside (it has a dead letter of theirs); `projection` is `$1` or a quoted literal. */
export function blockedStoresSql(schema: string, projection: string): string {
  return `SELECT DISTINCT store_id FROM ${schema}.dead_letters WHERE projection = ${projection} AND store_id IS NOT NULL`;
}

/** The stores of blockedStoresSql's rows. */
export function storesOf(rows: readonly { store_id: string }[]): Set<string> {
  return new Set(rows.map((x) => x.store_id));
}

/** The stores whose events a projection sets aside (it has a dead letter of theirs), from the pool. */
export async function blockedStores(db: Pool | PoolClient, schema: string, projection: string): Promise<Set<string>> {
  return storesOf((await db.query<{ store_id: string }>(blockedStoresSql(schema, '$1'), [projection])).rows);
}

/**
 * Sets an event aside for its store, in the caller's transaction (with the checkpoint past it): the
 * event that failed (`held` false), or one of the same store behind it (`held` true).
 */
export async function setAsideForStore(tx: PoolClient, schema: string, { projection, source, event: e, error, attempts }: PoisonEvent, held: boolean): Promise<void> {
  await tx.query(
    `INSERT INTO ${schema}.dead_letters
       (projection, source, event_id, transaction_id, global_position, stream_id, stream_position, type, error, data, metadata, attempts, store_id, held)
     VALUES ($1, $2, $3, $4::xid8, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
     ON CONFLICT (projection, source, event_id)
     DO UPDATE SET error = EXCLUDED.error, attempts = dead_letters.attempts + EXCLUDED.attempts, last_failed_at = now()`,
    [projection, source, e.metadata.eventId, e.transactionId, e.globalPosition, e.streamId, e.streamPosition, e.type, error, JSON.stringify(e.data), JSON.stringify(e.metadata), attempts, e.metadata.storeId, held],
  );
}

/** The held dead letters of a store behind `afterId`, oldest first, locked for the caller's transaction. */
export async function heldForStore(tx: PoolClient, schema: string, projection: string, storeId: string): Promise<DeadLetter[]> {
  const r = await tx.query<DeadLetterRow>(
    `SELECT ${DEAD_LETTER_COLUMNS} FROM ${schema}.dead_letters WHERE projection = $1 AND store_id = $2 AND held ORDER BY transaction_id, global_position FOR UPDATE`,
    [projection, storeId],
  );
  return r.rows.map(toDeadLetter);
}

/** An event a projection failed to apply `attempts` times in a row. */
export interface PoisonEvent {
  projection: string;
  source: string;
  event: RecordedEventWithTx;
  error: string;
  attempts: number;
}

/**
 * Stores the event in `dead_letters` and marks its projection paused, in the caller's
 * transaction: the pause commits with the checkpoint of the events before it.
 */
export async function deadLetterAndPause(tx: PoolClient, schema: string, { projection, source, event: e, error, attempts }: PoisonEvent): Promise<void> {
  await tx.query(
    `INSERT INTO ${schema}.dead_letters
       (projection, source, event_id, transaction_id, global_position, stream_id, stream_position, type, error, data, metadata, attempts)
     VALUES ($1, $2, $3, $4::xid8, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (projection, source, event_id)
     DO UPDATE SET error = EXCLUDED.error, attempts = dead_letters.attempts + EXCLUDED.attempts, last_failed_at = now()`,
    [projection, source, e.metadata.eventId, e.transactionId, e.globalPosition, e.streamId, e.streamPosition, e.type, error, JSON.stringify(e.data), JSON.stringify(e.metadata), attempts],
  );
  await markPaused(tx, schema, projection, pauseReason(e.type, e.metadata.eventId, source, e.transactionId, e.globalPosition, error));
}

/** The `last_error` of a projection paused on a dead letter. */
function pauseReason(type: string, eventId: string, source: string, transactionId: string, globalPosition: number | string, error: string): string {
  return `${type} ${eventId} (${source} ${transactionId}/${globalPosition}): ${error}`;
}

/** Marks a projection paused; a null reason keeps the last error recorded. */
export async function markPaused(db: Pool | PoolClient, schema: string, projection: string, reason: string | null): Promise<void> {
  await db.query(`UPDATE ${schema}.projections SET status = 'paused', last_error = COALESCE($2, last_error), updated_at = now() WHERE name = $1`, [projection, reason]);
}

/** The stored state of these projections, by name. */
export async function readStates(db: Pool, schema: string, names: string[]): Promise<ProjectionState[]> {
  const r = await db.query<{ name: string; version: number; status: ProjectionStatus; last_error: string | null; updated_at: Date }>(
    `SELECT name, version, status, last_error, updated_at FROM ${schema}.projections WHERE name = ANY($1) ORDER BY name`,
    [names],
  );
  return r.rows.map((x) => ({ name: x.name, version: x.version, status: x.status, lastError: x.last_error, updatedAt: x.updated_at }));
}

const DEAD_LETTER_COLUMNS =
  'id, projection, source, event_id, transaction_id::text, global_position, stream_id, stream_position, type, error, data, metadata, attempts, created_at, store_id, held';

interface DeadLetterRow {
  id: string;
  projection: string;
  source: string;
  event_id: string;
  transaction_id: string;
  global_position: string;
  stream_id: string;
  stream_position: number;
  type: string;
  error: string;
  data: unknown;
  metadata: unknown;
  attempts: number;
  created_at: Date;
  store_id: string | null;
  held: boolean;
}

function toDeadLetter(x: DeadLetterRow): DeadLetter {
  return {
    id: Number(x.id),
    projection: x.projection,
    source: x.source,
    eventId: x.event_id,
    transactionId: x.transaction_id,
    globalPosition: Number(x.global_position),
    streamId: x.stream_id,
    streamPosition: x.stream_position,
    type: x.type,
    error: x.error,
    data: x.data,
    metadata: x.metadata,
    attempts: x.attempts,
    createdAt: x.created_at,
    storeId: x.store_id ?? null,
    held: x.held ?? false,
  };
}

/** Dead-lettered events, oldest first, of one projection or all. */
export async function readDeadLetters(db: Pool | PoolClient, schema: string, projection?: string): Promise<DeadLetter[]> {
  const r = await db.query<DeadLetterRow>(`SELECT ${DEAD_LETTER_COLUMNS} FROM ${schema}.dead_letters WHERE $1::text IS NULL OR projection = $1 ORDER BY id`, [projection ?? null]);
  return r.rows.map(toDeadLetter);
}

/** One dead letter of a projection, locked for the caller's transaction; null when there is none. */
export async function lockDeadLetter(tx: PoolClient, schema: string, projection: string, id: number | string): Promise<DeadLetter | null> {
  const r = await tx.query<DeadLetterRow>(`SELECT ${DEAD_LETTER_COLUMNS} FROM ${schema}.dead_letters WHERE id = $1 AND projection = $2 FOR UPDATE`, [id, projection]);
  return r.rows[0] ? toDeadLetter(r.rows[0]) : null;
}

/** The event as it was dead-lettered (its copy: data, metadata and place in the source). */
export function deadLetterEvent(d: DeadLetter): RecordedEventWithTx {
  return {
    globalPosition: d.globalPosition,
    transactionId: d.transactionId,
    streamId: d.streamId,
    streamPosition: d.streamPosition,
    type: d.type,
    data: d.data,
    metadata: d.metadata as RecordedEventWithTx['metadata'],
    recordedAt: d.createdAt,
  };
}

/** A retry of a dead letter failed again: its error and attempts are updated, nothing else. */
export async function recordDeadLetterFailure(db: Pool | PoolClient, schema: string, id: number | string, error: string): Promise<void> {
  await db.query(`UPDATE ${schema}.dead_letters SET error = $2, attempts = attempts + 1, last_failed_at = now() WHERE id = $1`, [id, error]);
}

/** A dead letter resolved (applied, or left out for good). */
export async function deleteDeadLetter(db: Pool | PoolClient, schema: string, id: number | string): Promise<void> {
  await db.query(`DELETE FROM ${schema}.dead_letters WHERE id = $1`, [id]);
}

/** Every dead letter of a projection, in the caller's transaction (a rebuild's swap applied them). */
export async function clearDeadLetters(db: Pool | PoolClient, schema: string, projection: string): Promise<void> {
  await db.query(`DELETE FROM ${schema}.dead_letters WHERE projection = $1`, [projection]);
}

/**
 * After one of its dead letters was resolved: a projection with none left is marked running (a
 * running service subscribes it again, ProjectionRunner.resumeReleased); one with more keeps its
 * pause, with the next one's error. Answers whether it was released.
 */
export async function releaseIfNoDeadLetters(tx: PoolClient, schema: string, projection: string): Promise<boolean> {
  // A store's dead letters never paused the projection: only the others keep it paused.
  const next = await tx.query<DeadLetterRow>(`SELECT ${DEAD_LETTER_COLUMNS} FROM ${schema}.dead_letters WHERE projection = $1 AND store_id IS NULL ORDER BY id LIMIT 1`, [projection]);
  if (next.rowCount) {
    const d = toDeadLetter(next.rows[0]);
    await tx.query(`UPDATE ${schema}.projections SET last_error = $2, updated_at = now() WHERE name = $1`, [
      projection,
      pauseReason(d.type, d.eventId, d.source, d.transactionId, d.globalPosition, d.error),
    ]);
    return false;
  }
  const r = await tx.query(`UPDATE ${schema}.projections SET status = 'running', last_error = NULL, updated_at = now() WHERE name = $1 AND status = 'paused'`, [projection]);
  return (r.rowCount ?? 0) > 0;
}
