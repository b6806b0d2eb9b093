import { randomUUID } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { SCHEMA_DDL_LOCK_NAMESPACE } from './pg-util';
import { ConcurrencyError } from './errors';
import type { AppendMetadata, AppendResult, DomainEvent, EventMetadata, ExpectedVersion } from './types';
import { AppendNotifier, BUSY_NOTIFY_DELAY_MS, NOTIFY_DELAY_MS } from './append-notifier';

import { assertSchemaName, EVENT_COLUMNS, eventStoreDdl, type EventRow, type Position, type RecordedEventWithTx, SAFE_READ_BOUND, START, toRecorded } from './event-table';

export * from './event-table';
export { BUSY_NOTIFY_DELAY_MS, NOTIFY_DELAY_MS } from './append-notifier';

export interface EventStoreOptions {
  /**
   * Delay that coalesces the NOTIFYs of appends close together (ms, default NOTIFY_DELAY_MS): the
   * first append after a quiet spell is announced at once, later ones at most once per delay.
   */
  notifyDelayMs?: number;
  /** The delay under a steady stream of appends (ms, default BUSY_NOTIFY_DELAY_MS, never below notifyDelayMs). */
  busyNotifyDelayMs?: number;
  /**
   * Pool the NOTIFYs go out on (default: the store's pool). A pool of its own keeps them out of the
   * appends' queue: while a WAL flush stalls, hundreds of appends can wait for a connection of the
   * store's pool, and a NOTIFY behind them wakes the readers only once the queue has drained.
   */
  notifyPool?: Pool;
}

/** The metadata envelope (JSON) of one event; a caller's eventId applies only to a single event. */
function envelope(metadata: AppendMetadata, occurredAt: string, single: boolean): string {
  const m: EventMetadata = {
    eventId: single && metadata.eventId ? metadata.eventId : randomUUID(),
    schemaVersion: metadata.schemaVersion ?? 1,
    storeId: metadata.storeId ?? null,
    occurredAt,
    correlationId: metadata.correlationId ?? null,
    causationId: metadata.causationId ?? null,
    actor: metadata.actor ?? null,
  };
  return JSON.stringify(m);
}

/** The event store of one service: an `events` table in its own PostgreSQL schema. */
export class PostgresEventStore {
  private readonly appendSql: string;
  private readonly appendAnySql: string;
  private readonly appendEachSql: string;
  private readonly readAllSql: string;
  private readonly readStreamSql: string;
  private readonly appendOneSql: string;
  private readonly appendOneKnownSql: string;
  private readonly appendKnownSql: string;
  /**
   * Streams with a position this instance has seen committed (its own appends, readStream outside
   * a caller's transaction). Events are never deleted, so such a position exists for good: an
   * append at that expected version needs no existence probe, only the primary key. Bounded, oldest out.
   */
  private readonly knownPositions = new Map<string, number>();
  private readonly notifier: AppendNotifier;

  constructor(
    readonly pool: Pool,
    readonly schema: string,
    options: EventStoreOptions = {},
  ) {
    assertSchemaName(schema);
    this.notifier = new AppendNotifier(
      options.notifyPool ?? pool,
      schema,
      options.notifyDelayMs ?? NOTIFY_DELAY_MS,
      Math.max(options.notifyDelayMs ?? NOTIFY_DELAY_MS, options.busyNotifyDelayMs ?? BUSY_NOTIFY_DELAY_MS),
    );
    const t = `${schema}.events`;
    // The same for one event, as a plain VALUES insert (measured ~5% cheaper than INSERT … SELECT
    // on this hot path): an expected version beyond the stream's end makes the position NULL,
    // which the NOT NULL constraint refuses (23502 on stream_position → ConcurrencyError).
    this.appendOneSql = `
      INSERT INTO ${t} (stream_id, stream_position, type, data, metadata)
      VALUES ($1, CASE WHEN $2::int = 0 OR EXISTS (SELECT 1 FROM ${t} WHERE stream_id = $1 AND stream_position = $2::int) THEN $2::int + 1 END, $3, $4, $5)
      RETURNING global_position, transaction_id::text`;
    // One round trip: the primary key (stream_id, stream_position) is the concurrency check;
    // the EXISTS probe on the same key refuses an expected version beyond the stream's end.
    // When the expected version is known to exist (or is 0): a plain INSERT, the primary key is the whole check.
    this.appendOneKnownSql = `
      INSERT INTO ${t} (stream_id, stream_position, type, data, metadata)
      VALUES ($1, $2::int + 1, $3, $4, $5)
      RETURNING global_position, transaction_id::text`;
    this.appendKnownSql = `
      INSERT INTO ${t} (stream_id, stream_position, type, data, metadata)
      SELECT $1, $2::int + u.ord, u.type, u.data, u.metadata
      FROM unnest($3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS u(type, data, metadata, ord)
      ORDER BY u.ord
      RETURNING global_position, transaction_id::text`;
    this.appendSql = `
      INSERT INTO ${t} (stream_id, stream_position, type, data, metadata)
      SELECT $1, $2::int + u.ord, u.type, u.data, u.metadata
      FROM unnest($3::text[], $4::jsonb[], $5::jsonb[]) WITH ORDINALITY AS u(type, data, metadata, ord)
      WHERE $2::int = 0 OR EXISTS (SELECT 1 FROM ${t} WHERE stream_id = $1 AND stream_position = $2::int)
      ORDER BY u.ord
      RETURNING global_position, transaction_id::text`;
    this.appendAnySql = `
      INSERT INTO ${t} (stream_id, stream_position, type, data, metadata)
      SELECT $1, cur.v + u.ord, u.type, u.data, u.metadata
      FROM unnest($2::text[], $3::jsonb[], $4::jsonb[]) WITH ORDINALITY AS u(type, data, metadata, ord),
           (SELECT COALESCE(max(stream_position), 0) AS v FROM ${t} WHERE stream_id = $1) cur
      ORDER BY u.ord
      RETURNING global_position, stream_position, transaction_id::text`;
    // Events for several streams in one statement, each at the end of its stream ('any'): the
    // window numbers a stream's events of this call after the ones it already holds.
    this.appendEachSql = `
      INSERT INTO ${t} (stream_id, stream_position, type, data, metadata)
      SELECT u.stream_id,
             COALESCE((SELECT max(e.stream_position) FROM ${t} e WHERE e.stream_id = u.stream_id), 0)
               + row_number() OVER (PARTITION BY u.stream_id ORDER BY u.ord),
             u.type, u.data, u.metadata
      FROM unnest($1::text[], $2::text[], $3::jsonb[], $4::jsonb[]) WITH ORDINALITY AS u(stream_id, type, data, metadata, ord)
      ORDER BY u.ord
      RETURNING global_position, stream_id, stream_position`;
    this.readAllSql = `
      SELECT ${EVENT_COLUMNS}
      FROM ${t} e
      WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
        AND transaction_id < ${SAFE_READ_BOUND}
      ORDER BY e.transaction_id, e.global_position
      LIMIT $3`;
    this.readStreamSql = `
      SELECT ${EVENT_COLUMNS}
      FROM ${t} WHERE stream_id = $1 AND stream_position > $2 ORDER BY stream_position`;
  }

  /** Creates the schema, the events table and its indexes if missing. */
  async migrate(): Promise<void> {
    const client = await this.pool.connect();
    try {
      // The schema's migrations create this table too (their lock): never both at once.
      await client.query('SELECT pg_advisory_lock($1, hashtext($2))', [SCHEMA_DDL_LOCK_NAMESPACE, this.schema]);
      await client.query(eventStoreDdl(this.schema));
    } finally {
      await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [SCHEMA_DDL_LOCK_NAMESPACE, this.schema]).catch(() => undefined);
      client.release();
    }
  }

  /**
   * Appends events to a stream if it is at `expectedVersion` (number of events it holds);
   * raises ConcurrencyError otherwise. One round trip; NOTIFY is sent after the commit, coalesced.
   */
  async append(
    streamId: string,
    events: readonly DomainEvent[],
    expectedVersion: ExpectedVersion,
    metadata: AppendMetadata = {},
    client?: PoolClient,
  ): Promise<AppendResult> {
    if (events.length === 0) throw new Error('append: no hay eventos');
    const db = client ?? this.pool;
    const types: string[] = [];
    const datas: string[] = [];
    const metas: string[] = [];
    const occurredAt = metadata.occurredAt ?? new Date().toISOString();
    for (const e of events) {
      types.push(e.type);
      datas.push(JSON.stringify(e.data ?? {}));
      metas.push(envelope(metadata, occurredAt, events.length === 1));
    }
    try {
      if (expectedVersion === 'any') {
        const r = await db.query<{ global_position: string; stream_position: number; transaction_id: string }>({
          name: `${this.schema}_append_any`,
          text: this.appendAnySql,
          values: [streamId, types, datas, metas],
        });
        this.notifier.schedule(client !== undefined);
        if (!client) this.remember(streamId, r.rows[r.rows.length - 1].stream_position);
        const last = r.rows[r.rows.length - 1];
        return {
          nextExpectedVersion: last.stream_position,
          globalPositions: r.rows.map((x) => Number(x.global_position)),
          position: { transactionId: last.transaction_id, globalPosition: Number(last.global_position) },
        };
      }
      const known = expectedVersion === 0 || (this.knownPositions.get(streamId) ?? 0) >= expectedVersion;
      const r =
        events.length === 1
          ? await db.query<{ global_position: string; transaction_id: string }>({
              name: known ? `${this.schema}_append_one_known` : `${this.schema}_append_one`,
              text: known ? this.appendOneKnownSql : this.appendOneSql,
              values: [streamId, expectedVersion, types[0], datas[0], metas[0]],
            })
          : await db.query<{ global_position: string; transaction_id: string }>({
              name: known ? `${this.schema}_append_known` : `${this.schema}_append`,
              text: known ? this.appendKnownSql : this.appendSql,
              values: [streamId, expectedVersion, types, datas, metas],
            });
      if (r.rowCount !== events.length) throw new ConcurrencyError(streamId, expectedVersion);
      this.notifier.schedule(client !== undefined);
      // Inside the caller's transaction the rows may still roll back: remember only committed ones.
      if (!client) this.remember(streamId, expectedVersion + events.length);
      const last = r.rows[r.rows.length - 1];
      return {
        nextExpectedVersion: expectedVersion + events.length,
        globalPositions: r.rows.map((x) => Number(x.global_position)),
        position: { transactionId: last.transaction_id, globalPosition: Number(last.global_position) },
      };
    } catch (err) {
      const e = err as { code?: string; column?: string };
      if (e.code === '23505' || (e.code === '23502' && e.column === 'stream_position')) {
        throw new ConcurrencyError(streamId, typeof expectedVersion === 'number' ? expectedVersion : -1);
      }
      throw err;
    }
  }

  /**
   * Appends events to several streams in one statement, each event at the end of its stream
   * (expected version 'any'), in the order given: one round trip and one commit for a batch of
   * small, independent facts (the sign-in log). Inside `client`'s transaction when given.
   * Another append to one of those streams at the same moment makes the whole call fail with
   * ConcurrencyError, and nothing of it is written.
   */
  async appendEach(
    entries: readonly { streamId: string; event: DomainEvent; metadata?: AppendMetadata }[],
    client?: PoolClient,
  ): Promise<{ streamId: string; streamPosition: number; globalPosition: number }[]> {
    if (entries.length === 0) return [];
    const now = new Date().toISOString();
    const values = [
      entries.map((x) => x.streamId),
      entries.map((x) => x.event.type),
      entries.map((x) => JSON.stringify(x.event.data ?? {})),
      entries.map((x) => envelope(x.metadata ?? {}, x.metadata?.occurredAt ?? now, true)),
    ];
    try {
      const r = await (client ?? this.pool).query<{ global_position: string; stream_id: string; stream_position: number }>({
        name: `${this.schema}_append_each`,
        text: this.appendEachSql,
        values,
      });
      this.notifier.schedule(client !== undefined);
      if (!client) for (const row of r.rows) this.remember(row.stream_id, row.stream_position);
      return r.rows.map((row) => ({ streamId: row.stream_id, streamPosition: row.stream_position, globalPosition: Number(row.global_position) }));
    } catch (err) {
      const e = err as { code?: string; detail?: string };
      if (e.code === '23505') {
        const stream = entries.find((x) => e.detail?.includes(`(${x.streamId},`))?.streamId ?? entries[0].streamId;
        throw new ConcurrencyError(stream, -1);
      }
      throw err;
    }
  }

  /** Events of one stream after `fromVersion` (0 = from the start), in stream order. */
  async readStream(streamId: string, fromVersion = 0, client?: PoolClient): Promise<RecordedEventWithTx[]> {
    const r = await (client ?? this.pool).query<EventRow>({ name: `${this.schema}_read_stream`, text: this.readStreamSql, values: [streamId, fromVersion] });
    if (!client && r.rows.length > 0) this.remember(streamId, r.rows[r.rows.length - 1].stream_position);
    return r.rows.map(toRecorded);
  }

  /**
   * The position of the newest committed event (in the global order), START when there is none.
   * Rows of transactions still in flight are invisible, so this is what every reader will reach.
   */
  async lastPosition(client?: PoolClient): Promise<Position> {
    const r = await (client ?? this.pool).query<{ transaction_id: string; global_position: string }>({
      name: `${this.schema}_last_position`,
      text: `SELECT e.transaction_id::text, e.global_position FROM ${this.schema}.events e ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
    });
    return r.rows[0] ? { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) } : START;
  }

  /**
   * Up to `limit` events after `from` in the global order, never past a transaction still in
   * flight, so a reader that resumes from the last returned position skips nothing.
   */
  async readAll(from: Position, limit: number, client?: PoolClient): Promise<RecordedEventWithTx[]> {
    const r = await (client ?? this.pool).query<EventRow>({
      name: `${this.schema}_read_all`,
      text: this.readAllSql,
      values: [from.transactionId, from.globalPosition, limit],
    });
    return r.rows.map(toRecorded);
  }

  private remember(streamId: string, position: number): void {
    const current = this.knownPositions.get(streamId);
    if (current !== undefined) {
      if (current >= position) return;
      this.knownPositions.delete(streamId); // re-inserted below: most recent last
    }
    this.knownPositions.set(streamId, position);
    if (this.knownPositions.size > 50_000) this.knownPositions.delete(this.knownPositions.keys().next().value as string);
  }

  /** Stops pending notifications (call before closing the pool). */
  close(): void {
    this.notifier.close();
  }
}
