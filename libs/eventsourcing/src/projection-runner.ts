import type { Pool, PoolClient } from 'pg';
import { assertSchemaName, EVENT_COLUMNS, PostgresEventStore, SAFE_READ_BOUND, START, toRecorded, type EventRow, type Position, type RecordedEventWithTx } from './event-store';
import { checkout, isTransientError, withSchemaLock } from './pg-util';
import type { Projection } from './projection';
import {
  checkpointDdl,
  comparePositions,
  FLOOR_PARTITION,
  maxPosition,
  type EventTransport,
  type HandleResult,
  type Subscription,
} from './subscription';

export type ProjectionStatus = 'running' | 'paused' | 'rebuilding';

/** The logger shape of pino (`logger.warn({ ...context }, 'message')`). */
export interface ProjectionLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ProjectionRunnerOptions {
  pool: Pool;
  /** The consuming service's schema: read models, checkpoints, `projections`, `dead_letters`. */
  schema: string;
  transport: EventTransport;
  projections: readonly Projection[];
  logger?: ProjectionLogger;
  /** Events per live batch (one transaction each). */
  batchSize?: number;
  /** Events per rebuild batch (one transaction each, the next batch read while this one applies). */
  rebuildBatchSize?: number;
}

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
}

export interface RebuildProgress {
  projection: string;
  /** build: from position 0 into the shadow tables; catch-up: the events appended meanwhile; swap: verify and rename. */
  phase: 'build' | 'catch-up' | 'swap';
  source: string;
  /** Events applied to the shadow tables so far. */
  done: number;
  /** Events to apply in all (grows while the sources grow). */
  total: number;
  eventsPerSecond: number;
  /** Seconds left at the current rate; null before the first batch. */
  etaSeconds: number | null;
}

export interface RebuildOptions {
  onProgress?: (progress: RebuildProgress) => void;
  /**
   * Compare the shadow with the live tables before the swap (default true). A version bump
   * rebuild skips it: the code changed, so the rows are expected to differ.
   */
  verify?: boolean;
}

export interface RebuildResult {
  projection: string;
  events: number;
  seconds: number;
  eventsPerSecond: number;
  /** True when the shadow was compared with the live tables and found equal. */
  verified: boolean;
}

/** The shadow differs from the live read model: nothing was swapped. */
export class RebuildMismatchError extends Error {
  constructor(
    readonly projection: string,
    readonly differences: { table: string; onlyLive: number; onlyShadow: number }[],
  ) {
    super(
      `La reconstrucción de ${projection} no coincide con la proyección en vivo: ` +
        differences.map((d) => `${d.table} (${d.onlyLive} fila(s) solo en vivo, ${d.onlyShadow} solo en la reconstrucción)`).join(', '),
    );
    this.name = 'RebuildMismatchError';
  }
}

const SHADOW_SUFFIX = '__rebuild';
const NAME = /^[a-z_][a-z0-9_]*$/;

interface Runtime {
  projection: Projection;
  group: string;
  live: Record<string, string>;
  shadow: Record<string, string>;
  subs: Subscription[];
  /** Set by a handler that dead-lettered an event, until its subscription ends. */
  pausing: string | null;
  /** A rebuild started by start() (version bump), if any. */
  starting: Promise<void> | null;
  rebuilding: boolean;
}

const consoleLogger: ProjectionLogger = {
  info: () => undefined,
  warn: (obj, msg) => console.warn(msg ?? '', obj),
  error: (obj, msg) => console.error(msg ?? '', obj),
};

/**
 * Runs a service's projections: one subscription per projection and source (consumer group
 * `<schema>.<projection>`), each batch applied with its checkpoint in one transaction. An event
 * a projection cannot apply is dead-lettered and pauses only that projection. Rebuilds build
 * shadow tables from position 0 and swap them in atomically.
 */
export class ProjectionRunner {
  private readonly schema: string;
  private readonly runtimes = new Map<string, Runtime>();
  private readonly log: ProjectionLogger;
  private started = false;
  private stopping = false;
  private migrated: Promise<void> | null = null;

  constructor(private readonly options: ProjectionRunnerOptions) {
    assertSchemaName(options.schema);
    this.schema = options.schema;
    this.log = options.logger ?? consoleLogger;
    for (const p of options.projections) {
      if (!NAME.test(p.name)) throw new Error(`Nombre de proyección inválido: ${p.name}`);
      if (this.runtimes.has(p.name)) throw new Error(`Proyección repetida: ${p.name}`);
      for (const s of p.sources) assertSchemaName(s);
      const live: Record<string, string> = {};
      const shadow: Record<string, string> = {};
      for (const t of p.tables) {
        if (!NAME.test(t) || t.length + SHADOW_SUFFIX.length + 12 > 63) throw new Error(`Nombre de tabla inválido o demasiado largo: ${t}`);
        live[t] = `${this.schema}.${t}`;
        shadow[t] = `${this.schema}.${t}${SHADOW_SUFFIX}`;
      }
      this.runtimes.set(p.name, { projection: p, group: `${this.schema}.${p.name}`, live, shadow, subs: [], pausing: null, starting: null, rebuilding: false });
    }
  }

  /** Creates the runner's tables (`projections`, `dead_letters`, checkpoints) if missing. */
  migrate(): Promise<void> {
    this.migrated ??= (async () => {
      const s = this.schema;
      await withSchemaLock(this.options.pool, s, async (client) => {
        await client.query(`
          ${checkpointDdl(s)}
          CREATE TABLE IF NOT EXISTS ${s}.projections (
            name text PRIMARY KEY,
            version integer NOT NULL,
            status text NOT NULL CHECK (status IN ('running', 'paused', 'rebuilding')),
            last_error text,
            updated_at timestamptz NOT NULL DEFAULT now()
          );
          CREATE TABLE IF NOT EXISTS ${s}.dead_letters (
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
          );`);
      });
    })();
    this.migrated.catch(() => (this.migrated = null));
    return this.migrated;
  }

  /**
   * Sets up every projection and subscribes it to its sources. A projection seen for the first
   * time starts from position 0; one whose stored version differs from its code is rebuilt in
   * the background (the old tables keep serving until the swap); a paused one stays paused.
   */
  async start(): Promise<void> {
    if (this.started) return;
    this.stopping = false;
    await this.migrate();
    // A source service may start after this one: its events table is created here if missing (the
    // same idempotent DDL it runs itself), since live reads and rebuilds both read it.
    const sources = new Set([...this.runtimes.values()].flatMap((rt) => rt.projection.sources));
    for (const source of sources) await new PostgresEventStore(this.options.pool, source).migrate();
    this.started = true;
    for (const rt of this.runtimes.values()) await this.prepare(rt);
  }

  private async prepare(rt: Runtime): Promise<void> {
    const p = rt.projection;
    const client = await checkout(this.options.pool);
    let action: 'subscribe' | 'rebuild' | 'paused' = 'subscribe';
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projections:${this.schema}`]);
      const r = await client.query<{ version: number; status: ProjectionStatus }>(`SELECT version, status FROM ${this.schema}.projections WHERE name = $1 FOR UPDATE`, [p.name]);
      if (r.rowCount === 0) {
        await client.query(`INSERT INTO ${this.schema}.projections (name, version, status) VALUES ($1, $2, 'running')`, [p.name, p.version]);
        // A brand-new projection reads from position 0, whatever an older namesake left behind.
        await client.query(`DELETE FROM ${this.schema}.subscription_checkpoints WHERE group_name = $1`, [rt.group]);
        await p.setup(client, rt.live);
      } else if (r.rows[0].version !== p.version) {
        action = 'rebuild';
      } else {
        await p.setup(client, rt.live);
        if (r.rows[0].status === 'paused') action = 'paused';
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      client.done(err);
      throw err;
    }
    client.done();
    if (action === 'subscribe') await this.subscribe(rt);
    else if (action === 'paused') this.log.warn({ projection: p.name }, `La proyección ${p.name} está en pausa (ver ${this.schema}.dead_letters); no se inicia`);
    else {
      this.log.info({ projection: p.name, version: p.version }, `La proyección ${p.name} cambió de versión: se reconstruye`);
      rt.starting = this.rebuild(p.name, { verify: false }).then(
        () => undefined,
        async (err: unknown) => {
          if (this.stopping) return;
          const message = err instanceof Error ? err.message : String(err);
          this.log.error({ projection: p.name, err }, `La reconstrucción de ${p.name} falló: ${message}`);
          await this.options.pool
            .query(`UPDATE ${this.schema}.projections SET status = 'paused', last_error = $2, updated_at = now() WHERE name = $1`, [p.name, message])
            .catch(() => undefined);
        },
      );
    }
  }

  private async subscribe(rt: Runtime): Promise<void> {
    if (rt.subs.length > 0 || this.stopping || !this.started) return;
    rt.pausing = null;
    for (const source of rt.projection.sources) {
      const sub = await this.options.transport.subscribe({
        group: rt.group,
        source,
        batchSize: this.options.batchSize ?? 500,
        handle: (events, tx) => this.handleLive(rt, source, events, tx),
        onError: (err) => {
          rt.pausing = null;
          this.log.error({ projection: rt.projection.name, source, err }, `Error al aplicar eventos de ${source} a ${rt.projection.name}; se reintenta`);
        },
      });
      rt.subs.push(sub);
      void sub.done.then(() => {
        rt.subs = rt.subs.filter((s) => s !== sub);
        // The handler dead-lettered an event and its batch committed: pause the whole projection.
        if (rt.pausing) void this.stopSubs(rt);
      });
    }
  }

  private async stopSubs(rt: Runtime): Promise<void> {
    const subs = rt.subs;
    rt.subs = [];
    await Promise.all(subs.map((s) => s.stop()));
  }

  /** Applies one live batch inside the transport's transaction (the checkpoint is saved there too). */
  private async handleLive(rt: Runtime, source: string, events: RecordedEventWithTx[], tx: PoolClient): Promise<HandleResult> {
    if (rt.pausing) return { handled: 0 };
    const p = rt.projection;
    const fresh = uniqueByEventId(events);
    // One batch of a projection at a time, across its sources and processes: two sources applied
    // in concurrent transactions could each miss the other's uncommitted rows (write skew).
    await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`projection:${rt.group}`]);
    try {
      await tx.query('SAVEPOINT projection_batch');
      await p.apply(tx, fresh, rt.live);
      await tx.query('RELEASE SAVEPOINT projection_batch');
      return;
    } catch (err) {
      if (isTransientError(err)) throw err;
      await tx.query('ROLLBACK TO SAVEPOINT projection_batch'); // throws when the connection is gone
    }
    // The batch failed: apply event by event to find the one that cannot be applied.
    const freshSet = new Set(fresh);
    for (let i = 0; i < events.length; i++) {
      const e = events[i];
      if (!freshSet.has(e)) continue;
      await tx.query('SAVEPOINT projection_event');
      try {
        await p.apply(tx, [e], rt.live);
        await tx.query('RELEASE SAVEPOINT projection_event');
      } catch (err) {
        if (isTransientError(err)) throw err;
        await tx.query('ROLLBACK TO SAVEPOINT projection_event');
        const message = err instanceof Error ? err.message : String(err);
        await tx.query(
          `INSERT INTO ${this.schema}.dead_letters
             (projection, source, event_id, transaction_id, global_position, stream_id, stream_position, type, error, data, metadata)
           VALUES ($1, $2, $3, $4::xid8, $5, $6, $7, $8, $9, $10, $11)
           ON CONFLICT (projection, source, event_id)
           DO UPDATE SET error = EXCLUDED.error, attempts = dead_letters.attempts + 1, last_failed_at = now()`,
          [p.name, source, e.metadata.eventId, e.transactionId, e.globalPosition, e.streamId, e.streamPosition, e.type, message, JSON.stringify(e.data), JSON.stringify(e.metadata)],
        );
        await tx.query(`UPDATE ${this.schema}.projections SET status = 'paused', last_error = $2, updated_at = now() WHERE name = $1`, [
          p.name,
          `${e.type} ${e.metadata.eventId} (${source} ${e.transactionId}/${e.globalPosition}): ${message}`,
        ]);
        rt.pausing = message;
        this.log.error(
          { projection: p.name, source, eventId: e.metadata.eventId, type: e.type, globalPosition: e.globalPosition, err },
          `La proyección ${p.name} no pudo aplicar ${e.type}: queda en pausa (evento en ${this.schema}.dead_letters)`,
        );
        return { handled: i };
      }
    }
    return;
  }

  /** Stops every subscription (and any rebuild this runner started); checkpoints are already saved. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    await Promise.all([...this.runtimes.values()].map((rt) => this.stopSubs(rt)));
    await Promise.all([...this.runtimes.values()].map((rt) => rt.starting));
  }

  /**
   * Resolves once every running projection has handled every event committed before the call
   * (and any version rebuild started by start() has finished).
   */
  async caughtUp(name?: string): Promise<void> {
    const rts = name ? [this.runtime(name)] : [...this.runtimes.values()];
    await Promise.all(rts.map((rt) => rt.starting));
    await Promise.all(rts.flatMap((rt) => rt.subs.map((s) => s.caughtUp())));
  }

  /** Stops a projection here and marks it paused. */
  async pause(name: string, reason: string | null = null): Promise<void> {
    const rt = this.runtime(name);
    await this.stopSubs(rt);
    await this.options.pool.query(`UPDATE ${this.schema}.projections SET status = 'paused', last_error = COALESCE($2, last_error), updated_at = now() WHERE name = $1`, [
      name,
      reason,
    ]);
  }

  /** Marks a paused projection running and subscribes it again; it retries from its checkpoint. */
  async resume(name: string): Promise<void> {
    const rt = this.runtime(name);
    await this.options.pool.query(`UPDATE ${this.schema}.projections SET status = 'running', last_error = NULL, updated_at = now() WHERE name = $1`, [name]);
    await this.subscribe(rt);
  }

  /** The stored state of every projection of this runner. */
  async states(): Promise<ProjectionState[]> {
    await this.migrate();
    const r = await this.options.pool.query<{ name: string; version: number; status: ProjectionStatus; last_error: string | null; updated_at: Date }>(
      `SELECT name, version, status, last_error, updated_at FROM ${this.schema}.projections WHERE name = ANY($1) ORDER BY name`,
      [[...this.runtimes.keys()]],
    );
    return r.rows.map((x) => ({ name: x.name, version: x.version, status: x.status, lastError: x.last_error, updatedAt: x.updated_at }));
  }

  /** Dead-lettered events, oldest first, of one projection or all. */
  async deadLetters(name?: string): Promise<DeadLetter[]> {
    await this.migrate();
    const r = await this.options.pool.query(
      `SELECT id, projection, source, event_id, transaction_id::text, global_position, stream_id, stream_position, type, error, data, metadata, attempts, created_at
       FROM ${this.schema}.dead_letters WHERE $1::text IS NULL OR projection = $1 ORDER BY id`,
      [name ?? null],
    );
    return r.rows.map((x) => ({
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
    }));
  }

  /** Physical table names of a projection: live, or the shadow a rebuild fills. */
  tables(name: string, which: 'live' | 'shadow' = 'live'): Record<string, string> {
    const rt = this.runtime(name);
    return { ...(which === 'live' ? rt.live : rt.shadow) };
  }

  private runtime(name: string): Runtime {
    const rt = this.runtimes.get(name);
    if (!rt) throw new Error(`Proyección desconocida: ${name}`);
    return rt;
  }

  /**
   * Rebuilds a projection from position 0 into shadow tables while the live one keeps serving,
   * catches up, then — with the live projection paused only for this step — brings both to the
   * same position, compares them (unless `verify: false`) and swaps them in one transaction.
   * Works from another process too (scripts/replay.mjs): the pause is a lock on the checkpoints.
   */
  async rebuild(name: string, options: RebuildOptions | RebuildOptions['onProgress'] = {}): Promise<RebuildResult> {
    const opts: RebuildOptions = typeof options === 'function' ? { onProgress: options } : (options ?? {});
    const rt = this.runtime(name);
    const p = rt.projection;
    await this.migrate();
    let verify = opts.verify ?? true;
    if (verify && this.options.transport.kind !== 'postgres') {
      // Kafka checkpoints are per partition: the live rows match no single position to compare at.
      this.log.warn({ projection: name }, 'Con EVENT_TRANSPORT=kafka la reconstrucción no se compara con la proyección en vivo');
      verify = false;
    }
    const startedAt = Date.now();
    // The reader holds the rebuild lock; the writer applies batches (the next read runs meanwhile).
    const reader = await checkout(this.options.pool);
    const writer = await checkout(this.options.pool);
    let failure: unknown;
    let previous: { status: ProjectionStatus; lastError: string | null } | null = null;
    try {
      const locked = await reader.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`rebuild:${rt.group}`]);
      if (!locked.rows[0].ok) throw new Error(`La proyección ${name} ya se está reconstruyendo en otro proceso`);
      rt.rebuilding = true;
      const prev = await this.options.pool.query<{ status: ProjectionStatus; last_error: string | null }>(
        `SELECT status, last_error FROM ${this.schema}.projections WHERE name = $1`,
        [name],
      );
      previous = { status: prev.rows[0]?.status ?? 'running', lastError: prev.rows[0]?.last_error ?? null };
      await this.options.pool.query(
        `INSERT INTO ${this.schema}.projections (name, version, status) VALUES ($1, $2, 'rebuilding')
         ON CONFLICT (name) DO UPDATE SET status = 'rebuilding', updated_at = now()`,
        [name, p.version],
      );
      // Durability of shadow batches is not needed: a crashed rebuild starts again from 0.
      await writer.query('SET synchronous_commit = off');
      if (verify) {
        // Never set up here: there is no live read model to compare with.
        const live = await writer.query<{ n: number }>('SELECT count(to_regclass(t))::int AS n FROM unnest($1::text[]) AS t', [p.tables.map((t) => rt.live[t])]);
        if (live.rows[0].n === 0) verify = false;
      }
      await this.dropShadow(writer, rt);
      await writer.query('BEGIN');
      await p.setup(writer, rt.shadow);
      await writer.query('COMMIT');

      const progress = new ProgressMeter(name, opts.onProgress);
      const positions = new Map<string, Position>(p.sources.map((s) => [s, START]));
      const batch = this.options.rebuildBatchSize ?? 20_000;

      // Build from 0 to the current head of every source, then catch up until the rest is small.
      for (let round = 0; round < 5; round++) {
        let applied = 0;
        const heads = new Map<string, Position>();
        for (const source of p.sources) {
          const head = await this.head(reader, source);
          heads.set(source, head);
          progress.total += await this.countBetween(reader, source, positions.get(source)!, head);
        }
        for (const source of p.sources) {
          const n = await this.build(reader, writer, rt, source, positions, heads.get(source)!, batch, progress, round === 0 ? 'build' : 'catch-up', true);
          applied += n;
        }
        if (applied < batch) break;
      }

      // The swap: lock the live checkpoints (this pauses the live projection in every process),
      // bring live and shadow to the same position, compare, rename, move the checkpoint.
      await writer.query('BEGIN');
      for (const source of p.sources) {
        await writer.query(
          `INSERT INTO ${this.schema}.subscription_checkpoints (group_name, source, partition) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`,
          [rt.group, source],
        );
      }
      const cps = await writer.query<{ source: string; partition: number; transaction_id: string; global_position: string }>(
        `SELECT source, partition, transaction_id::text, global_position FROM ${this.schema}.subscription_checkpoints
         WHERE group_name = $1 ORDER BY source, partition FOR UPDATE`,
        [rt.group],
      );
      const targets = new Map<string, Position>();
      for (const source of p.sources) {
        let live: Position = START;
        for (const row of cps.rows.filter((x) => x.source === source)) {
          live = maxPosition(live, { transactionId: row.transaction_id, globalPosition: Number(row.global_position) });
        }
        const target = maxPosition(live, positions.get(source)!);
        targets.set(source, target);
        progress.total += await this.countBetween(writer, source, positions.get(source)!, target);
        await this.build(reader, writer, rt, source, positions, target, batch, progress, 'swap', false);
        if (verify && comparePositions(live, target) < 0) await this.advanceLive(writer, rt, source, live, target, batch);
      }
      if (verify) {
        const differences = await this.compare(writer, rt);
        if (differences.length > 0) throw new RebuildMismatchError(name, differences);
      }
      await this.swap(writer, rt);
      for (const source of p.sources) {
        const target = targets.get(source)!;
        if (this.options.transport.kind === 'postgres') {
          await writer.query(
            `UPDATE ${this.schema}.subscription_checkpoints SET transaction_id = $3::xid8, global_position = $4, updated_at = now()
             WHERE group_name = $1 AND source = $2 AND partition = 0`,
            [rt.group, source, target.transactionId, target.globalPosition],
          );
        } else {
          await writer.query(
            `INSERT INTO ${this.schema}.subscription_checkpoints (group_name, source, partition, transaction_id, global_position)
             VALUES ($1, $2, $3, $4::xid8, $5)
             ON CONFLICT (group_name, source, partition) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, global_position = EXCLUDED.global_position, updated_at = now()`,
            [rt.group, source, FLOOR_PARTITION, target.transactionId, target.globalPosition],
          );
        }
      }
      await writer.query(`UPDATE ${this.schema}.projections SET version = $2, status = 'running', last_error = NULL, updated_at = now() WHERE name = $1`, [name, p.version]);
      await writer.query('COMMIT');
      progress.report('swap', p.sources[p.sources.length - 1] ?? '', true);
      const seconds = (Date.now() - startedAt) / 1000;
      this.log.info({ projection: name, events: progress.done, seconds, verified: verify }, `La proyección ${name} fue reconstruida`);
      return { projection: name, events: progress.done, seconds, eventsPerSecond: progress.done / Math.max(seconds, 1e-3), verified: verify };
    } catch (err) {
      failure = err;
      await writer.query('ROLLBACK').catch(() => undefined);
      await this.dropShadow(writer, rt).catch(() => undefined);
      if (previous) {
        await this.options.pool
          .query(`UPDATE ${this.schema}.projections SET status = $2, updated_at = now() WHERE name = $1 AND status = 'rebuilding'`, [name, previous.status])
          .catch(() => undefined);
      }
      throw err;
    } finally {
      rt.rebuilding = false;
      await reader.query('SELECT pg_advisory_unlock(hashtext($1))', [`rebuild:${rt.group}`]).catch(() => undefined);
      reader.done(failure);
      writer.done(failure);
      // The swap may have moved a projection that was not running here (version bump, dead letter).
      if (!failure && this.started && !this.stopping) await this.subscribe(rt);
    }
  }

  /** The newest position of a source that no reader can skip (below the oldest transaction in flight). */
  private async head(db: PoolClient, source: string): Promise<Position> {
    const r = await db.query<{ transaction_id: string; global_position: string }>(
      `SELECT e.transaction_id::text, e.global_position FROM ${source}.events e
       WHERE e.transaction_id < ${SAFE_READ_BOUND}
       ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1`,
    );
    return r.rowCount ? { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) } : START;
  }

  private async countBetween(db: PoolClient, source: string, from: Position, to: Position): Promise<number> {
    if (comparePositions(from, to) >= 0) return 0;
    const r = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${source}.events
       WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint) AND (transaction_id, global_position) <= ($3::xid8, $4::bigint)`,
      [from.transactionId, from.globalPosition, to.transactionId, to.globalPosition],
    );
    return Number(r.rows[0].n);
  }

  private readRange(db: PoolClient, source: string, from: Position, to: Position, limit: number): Promise<RecordedEventWithTx[]> {
    return db
      .query<EventRow>({
        name: `${source}_rebuild_read`,
        text: `SELECT ${EVENT_COLUMNS} FROM ${source}.events e
               WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND (e.transaction_id, e.global_position) <= ($3::xid8, $4::bigint)
               ORDER BY e.transaction_id, e.global_position LIMIT $5`,
        values: [from.transactionId, from.globalPosition, to.transactionId, to.globalPosition, limit],
      })
      .then((r) => r.rows.map(toRecorded));
  }

  /**
   * Applies a source's events after its shadow position up to `to` to the shadow tables, in
   * batches; the reader fetches the next batch while the writer applies this one. With
   * `ownTransactions` each batch commits on its own, else the caller's transaction holds them.
   */
  private async build(
    reader: PoolClient,
    writer: PoolClient,
    rt: Runtime,
    source: string,
    positions: Map<string, Position>,
    to: Position,
    batch: number,
    progress: ProgressMeter,
    phase: RebuildProgress['phase'],
    ownTransactions: boolean,
  ): Promise<number> {
    let from = positions.get(source)!;
    if (comparePositions(from, to) >= 0) return 0;
    let applied = 0;
    let next: Promise<RecordedEventWithTx[]> | null = this.readRange(reader, source, from, to, batch);
    while (next) {
      const events: RecordedEventWithTx[] = await next;
      if (events.length === 0) break;
      const last = events[events.length - 1];
      from = { transactionId: last.transactionId, globalPosition: last.globalPosition };
      next = events.length < batch ? null : this.readRange(reader, source, from, to, batch);
      next?.catch(() => undefined); // awaited on the next turn; an early apply error must not leave it unhandled
      if (this.stopping) throw new Error(`Reconstrucción de ${rt.projection.name} interrumpida: el proceso se detiene`);
      try {
        if (ownTransactions) await writer.query('BEGIN');
        await rt.projection.apply(writer, uniqueByEventId(events), rt.shadow);
        if (ownTransactions) await writer.query('COMMIT');
      } catch (err) {
        if (ownTransactions) await writer.query('ROLLBACK').catch(() => undefined);
        const first = events[0];
        throw Object.assign(
          new Error(
            `La reconstrucción de ${rt.projection.name} falló al aplicar eventos de ${source} desde ${first.transactionId}/${first.globalPosition}: ${err instanceof Error ? err.message : String(err)}`,
          ),
          { cause: err },
        );
      }
      positions.set(source, from);
      applied += events.length;
      progress.add(events.length, phase, source);
    }
    return applied;
  }

  /** Brings the (paused, locked) live projection of a source from `from` to `to` inside the swap transaction. */
  private async advanceLive(tx: PoolClient, rt: Runtime, source: string, from: Position, to: Position, batch: number): Promise<void> {
    let at = from;
    for (;;) {
      const events = await this.readRange(tx, source, at, to, batch);
      if (events.length === 0) return;
      await rt.projection.apply(tx, uniqueByEventId(events), rt.live);
      const last = events[events.length - 1];
      at = { transactionId: last.transactionId, globalPosition: last.globalPosition };
    }
  }

  /** Rows only in live and only in shadow, per table (EXCEPT ALL both ways). */
  private async compare(tx: PoolClient, rt: Runtime): Promise<{ table: string; onlyLive: number; onlyShadow: number }[]> {
    const out: { table: string; onlyLive: number; onlyShadow: number }[] = [];
    for (const t of rt.projection.tables) {
      const live = rt.live[t];
      const shadow = rt.shadow[t];
      const exists = await tx.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [live]);
      if (!exists.rows[0].ok) {
        // A table the live projection does not have yet (added by this code): every shadow row is new.
        const n = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${shadow}`);
        if (Number(n.rows[0].n) > 0) out.push({ table: t, onlyLive: 0, onlyShadow: Number(n.rows[0].n) });
        continue;
      }
      const r = await tx.query<{ only_live: string; only_shadow: string }>(
        `SELECT (SELECT count(*) FROM (TABLE ${live} EXCEPT ALL TABLE ${shadow}) a) AS only_live,
                (SELECT count(*) FROM (TABLE ${shadow} EXCEPT ALL TABLE ${live}) b) AS only_shadow`,
      );
      const onlyLive = Number(r.rows[0].only_live);
      const onlyShadow = Number(r.rows[0].only_shadow);
      if (onlyLive > 0 || onlyShadow > 0) out.push({ table: t, onlyLive, onlyShadow });
    }
    return out;
  }

  /**
   * Drops the live tables and renames the shadows (with their indexes, constraints and owned
   * sequences) to the live names, inside the caller's transaction. Readers of the live tables
   * wait only for this transaction's commit, then see the new tables.
   */
  private async swap(tx: PoolClient, rt: Runtime): Promise<void> {
    const tables = rt.projection.tables;
    if (tables.length === 0) return;
    await tx.query(`DROP TABLE IF EXISTS ${tables.map((t) => rt.live[t]).join(', ')}`);
    for (const t of tables) {
      const shadowName = `${t}${SHADOW_SUFFIX}`;
      const rel = rt.shadow[t];
      const deps = await tx.query<{ kind: 'index' | 'sequence' | 'constraint'; name: string }>(
        `SELECT 'index' AS kind, c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass
         UNION ALL
         SELECT 'sequence', s.relname FROM pg_depend d JOIN pg_class s ON s.oid = d.objid
           WHERE d.refobjid = $1::regclass AND d.classid = 'pg_class'::regclass AND s.relkind = 'S' AND d.deptype IN ('a', 'i')
         UNION ALL
         SELECT 'constraint', conname FROM pg_constraint WHERE conrelid = $1::regclass AND contype NOT IN ('p', 'u', 'x')`,
        [rel],
      );
      await tx.query(`ALTER TABLE ${rel} RENAME TO ${t}`);
      for (const d of deps.rows) {
        if (!d.name.startsWith(shadowName)) continue;
        const renamed = t + d.name.slice(shadowName.length);
        if (d.kind === 'index') await tx.query(`ALTER INDEX ${this.schema}.${d.name} RENAME TO ${renamed}`);
        else if (d.kind === 'sequence') await tx.query(`ALTER SEQUENCE ${this.schema}.${d.name} RENAME TO ${renamed}`);
        else await tx.query(`ALTER TABLE ${rt.live[t]} RENAME CONSTRAINT ${d.name} TO ${renamed}`);
      }
    }
  }

  private async dropShadow(db: PoolClient, rt: Runtime): Promise<void> {
    const tables = rt.projection.tables.map((t) => rt.shadow[t]);
    if (tables.length > 0) await db.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`);
  }
}

/** The first event of each eventId, in order: an eventId already in the batch is not applied twice. */
function uniqueByEventId(events: RecordedEventWithTx[]): RecordedEventWithTx[] {
  const seen = new Set<string>();
  let dup = false;
  for (const e of events) {
    if (seen.has(e.metadata.eventId)) {
      dup = true;
      break;
    }
    seen.add(e.metadata.eventId);
  }
  if (!dup) return events;
  seen.clear();
  return events.filter((e) => (seen.has(e.metadata.eventId) ? false : (seen.add(e.metadata.eventId), true)));
}

class ProgressMeter {
  done = 0;
  total = 0;
  private readonly started = Date.now();
  private lastReport = 0;

  constructor(
    private readonly projection: string,
    private readonly onProgress?: (p: RebuildProgress) => void,
  ) {}

  add(n: number, phase: RebuildProgress['phase'], source: string): void {
    this.done += n;
    this.report(phase, source, false);
  }

  report(phase: RebuildProgress['phase'], source: string, force: boolean): void {
    if (!this.onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastReport < 100 && this.done < this.total) return;
    this.lastReport = now;
    const seconds = Math.max((now - this.started) / 1000, 1e-3);
    const eps = this.done / seconds;
    const total = Math.max(this.total, this.done);
    this.onProgress({
      projection: this.projection,
      phase,
      source,
      done: this.done,
      total,
      eventsPerSecond: eps,
      etaSeconds: this.done > 0 ? (total - this.done) / eps : null,
    });
  }
}
