import type { Pool, PoolClient } from 'pg';
import { EVENT_COLUMNS, SAFE_READ_BOUND, START, toRecorded, type EventRow, type Position, type RecordedEventWithTx } from './event-table';
import { checkout } from './pg-util';
import { type ProjectionLogger, type ProjectionStatus, type ProjectionTarget, SHADOW_SUFFIX, uniqueByEventId } from './projection-target';
import { clearDeadLetters } from './projection-state';
import type { EventRange, RangeScratch, RangeStage } from './projection';
import { ProgressMeter, type RebuildProgress } from './rebuild-progress';
import { comparePositions, FLOOR_PARTITION, maxPosition, type EventTransport } from './subscription';

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
    readonly differences: TableDifference[],
  ) {
    super(
      `La reconstrucción de ${projection} no coincide con la proyección en vivo: ` +
        differences.map((d) => `${d.table} (${d.onlyLive} fila(s) solo en vivo, ${d.onlyShadow} solo en la reconstrucción)`).join(', '),
    );
    this.name = 'RebuildMismatchError';
  }
}

/** Another rebuild of the projection holds its lock (in this process or another): this one did nothing. */
export class RebuildInProgressError extends Error {
  constructor(readonly projection: string) {
    super(`La proyección ${projection} ya se está reconstruyendo; espera a que termine`);
    this.name = 'RebuildInProgressError';
  }
}

/** Rows found only in the live table and only in the shadow, for one table. */
export interface TableDifference {
  table: string;
  onlyLive: number;
  onlyShadow: number;
}

/** Everything one rebuild needs from the runner that starts it. */
export interface RebuildRun {
  pool: Pool;
  /** The consuming service's schema (`projections`, checkpoints, the tables). */
  schema: string;
  transportKind: EventTransport['kind'];
  target: ProjectionTarget;
  log: ProjectionLogger;
  /** Events per rebuild batch (one transaction each). */
  batchSize: number;
  /** Events per range, for a projection that applies ranges in SQL (`applyRange`). */
  rangeSize: number;
  options: RebuildOptions;
  /** True once the process is stopping: the rebuild gives up between batches. */
  stopping: () => boolean;
}

/** What `build` applies in one step: a batch of events, or a range applied in SQL. */
interface BuildUnit {
  /** The position of its last event. */
  end: Position;
  events: number;
  /** As large as a unit can be: more may follow. */
  full: boolean;
  /** Where it starts, for an error message. */
  at: string;
  apply(tx: PoolClient): Promise<void>;
}

/** One range of a source applied to the shadow (or, with `ownTransactions: false`, inside the caller's transaction). */
interface BuildStep {
  source: string;
  /** Each source's shadow position; moved as batches apply. */
  positions: Map<string, Position>;
  to: Position;
  progress: ProgressMeter;
  phase: RebuildProgress['phase'];
  ownTransactions: boolean;
}

/**
 * Rebuilds a projection from position 0 into shadow tables while the live one keeps serving,
 * catches up, then — with the live projection paused only for this step — brings both to the
 * same position, compares them (unless `verify: false`) and swaps them in one transaction.
 * Works from another process too (scripts/replay.mjs): the pause is a lock on the checkpoints.
 */
export function rebuildProjection(run: RebuildRun): Promise<RebuildResult> {
  return new ProjectionRebuild(run).run();
}

/** Ranges whose stage 0 may run before the last stage of the earliest of them has committed. */
const PIPELINE_AHEAD = 3;
/**
 * A pipelined rebuild's first range is this fraction of `rangeSize`, the next ones twice the one
 * before, up to `rangeSize`; towards the end a range holds at most half of what is left. The first
 * range goes through every stage alone (the later stages wait for it) and so does the last one (the
 * earlier stages have nothing left to do): small ones there fill and drain the pipeline sooner (a full
 * first range of 100,000 took 4.8 s in the reporting bench, when the full pipeline applied ~57,000
 * events/s).
 */
const FIRST_RANGE_FRACTION = 1 / 8;

/**
 * Events in range `i` (from 0) of a pipelined rebuild with `left` events left to apply: growing from
 * rangeSize/8 to rangeSize, and at most half of what is left (never below rangeSize/8).
 */
export function pipelineRangeSize(i: number, rangeSize: number, left = Infinity): number {
  const first = Math.max(1, Math.ceil(rangeSize * FIRST_RANGE_FRACTION));
  const growing = Math.min(rangeSize, Math.ceil(first * 2 ** Math.min(i, 30)));
  return Math.max(first, Math.min(growing, Math.ceil(left / 2)));
}
/** Between a projection's name and a range's number in its scratch tables' names. */
const SCRATCH_MARK = '__range_';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A range in the pipeline of `buildPipelined`. */
interface PipelineRange {
  range: EventRange;
  events: number;
  /** Where it starts, for an error message. */
  at: string;
  scratch: RangeScratch;
  /** Resolved as each stage commits it. */
  done: Deferred<void>[];
}

/** The size of a pg Pool (10, pg's default, when it does not say). */
function poolMax(pool: Pool): number {
  return (pool as Pool & { options?: { max?: number } }).options?.max ?? 10;
}

class ProjectionRebuild {
  private readonly schema: string;
  /** Numbers the scratch tables of the ranges applied in stages. */
  private scratchNo = 0;
  private readonly target: ProjectionTarget;
  private reader!: PoolClient;
  private writer!: PoolClient;

  constructor(private readonly r: RebuildRun) {
    this.schema = r.schema;
    this.target = r.target;
  }

  async run(): Promise<RebuildResult> {
    const { pool, log, options } = this.r;
    const p = this.target.projection;
    const name = p.name;
    const rt = this.target;
    let verify = options.verify ?? true;
    if (verify && this.r.transportKind !== 'postgres') {
      // Kafka checkpoints are per partition: the live rows match no single position to compare at.
      log.warn({ projection: name }, 'Con EVENT_TRANSPORT=kafka la reconstrucción no se compara con la proyección en vivo');
      verify = false;
    }
    const startedAt = Date.now();
    // The reader holds the rebuild lock; the writer applies batches (the next read runs meanwhile).
    const reader = (this.reader = await checkout(pool));
    const writer = (this.writer = await checkout(pool));
    let failure: unknown;
    let previous: { status: ProjectionStatus; lastError: string | null } | null = null;
    let holdsLock = false;
    try {
      const locked = await reader.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [`rebuild:${rt.group}`]);
      if (!locked.rows[0].ok) throw new RebuildInProgressError(name);
      holdsLock = true;
      const prev = await pool.query<{ status: ProjectionStatus; last_error: string | null }>(`SELECT status, last_error FROM ${this.schema}.projections WHERE name = $1`, [name]);
      previous = { status: prev.rows[0]?.status ?? 'running', lastError: prev.rows[0]?.last_error ?? null };
      await pool.query(
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
      await this.dropShadow(writer);
      await writer.query('BEGIN');
      await p.setup(writer, rt.shadow);
      await writer.query('COMMIT');

      const progress = new ProgressMeter(name, options.onProgress);
      const positions = new Map<string, Position>(p.sources.map((s) => [s, START]));
      const batch = this.r.batchSize;

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
          applied += await this.build({ source, positions, to: heads.get(source)!, progress, phase: round === 0 ? 'build' : 'catch-up', ownTransactions: true });
        }
        if (applied < batch) break;
      }

      // The swap: lock the live checkpoints (this pauses the live projection in every process),
      // bring live and shadow to the same position, compare, rename, move the checkpoint.
      await writer.query('BEGIN');
      for (const source of p.sources) {
        await writer.query(`INSERT INTO ${this.schema}.subscription_checkpoints (group_name, source, partition) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`, [
          rt.group,
          source,
        ]);
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
        const to = maxPosition(live, positions.get(source)!);
        targets.set(source, to);
        progress.total += await this.countBetween(writer, source, positions.get(source)!, to);
        await this.build({ source, positions, to, progress, phase: 'swap', ownTransactions: false });
        if (verify && comparePositions(live, to) < 0) await this.advanceLive({ source, from: live, to });
      }
      if (verify) {
        const differences = await this.compare(writer);
        if (differences.length > 0) throw new RebuildMismatchError(name, differences);
      }
      await this.swap(writer);
      for (const source of p.sources) await this.moveCheckpoint(source, targets.get(source)!);
      await writer.query(`UPDATE ${this.schema}.projections SET version = $2, status = 'running', last_error = NULL, updated_at = now() WHERE name = $1`, [name, p.version]);
      // Its dead letters are applied in the swapped-in tables now (the rebuild would have failed on them otherwise).
      await clearDeadLetters(writer, this.schema, name);
      await writer.query('COMMIT');
      progress.report('swap', p.sources[p.sources.length - 1] ?? '', true);
      const seconds = (Date.now() - startedAt) / 1000;
      log.info({ projection: name, events: progress.done, seconds, verified: verify }, `La proyección ${name} fue reconstruida`);
      return { projection: name, events: progress.done, seconds, eventsPerSecond: progress.done / Math.max(seconds, 1e-3), verified: verify };
    } catch (err) {
      failure = err;
      await writer.query('ROLLBACK').catch(() => undefined);
      // The shadow tables of a rebuild that was refused belong to the one running.
      if (holdsLock) await this.dropShadow(writer).catch(() => undefined);
      if (previous) {
        await pool
          .query(`UPDATE ${this.schema}.projections SET status = $2, updated_at = now() WHERE name = $1 AND status = 'rebuilding'`, [name, previous.status])
          .catch(() => undefined);
      }
      throw err;
    } finally {
      // A rebuild refused because another one runs leaves that one's lock alone.
      if (holdsLock) await reader.query('SELECT pg_advisory_unlock(hashtext($1))', [`rebuild:${rt.group}`]).catch(() => undefined);
      reader.done(failure);
      writer.done(failure);
    }
  }

  /**
   * The live checkpoint of a source moves to where the shadow stopped, inside the swap
   * transaction. With Kafka the live checkpoints are per partition: a group-wide floor instead.
   */
  private async moveCheckpoint(source: string, to: Position): Promise<void> {
    if (this.r.transportKind === 'postgres') {
      await this.writer.query(
        `UPDATE ${this.schema}.subscription_checkpoints SET transaction_id = $3::xid8, global_position = $4, updated_at = now()
         WHERE group_name = $1 AND source = $2 AND partition = 0`,
        [this.target.group, source, to.transactionId, to.globalPosition],
      );
    } else {
      await this.writer.query(
        `INSERT INTO ${this.schema}.subscription_checkpoints (group_name, source, partition, transaction_id, global_position)
         VALUES ($1, $2, $3, $4::xid8, $5)
         ON CONFLICT (group_name, source, partition) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, global_position = EXCLUDED.global_position, updated_at = now()`,
        [this.target.group, source, FLOOR_PARTITION, to.transactionId, to.globalPosition],
      );
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

  private readRange(db: PoolClient, source: string, from: Position, to: Position): Promise<RecordedEventWithTx[]> {
    return db
      .query<EventRow>({
        name: `${source}_rebuild_read`,
        text: `SELECT ${EVENT_COLUMNS} FROM ${source}.events e
               WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND (e.transaction_id, e.global_position) <= ($3::xid8, $4::bigint)
               ORDER BY e.transaction_id, e.global_position LIMIT $5`,
        values: [from.transactionId, from.globalPosition, to.transactionId, to.globalPosition, this.r.batchSize],
      })
      .then((r) => r.rows.map(toRecorded));
  }

  /**
   * Applies a source's events after its shadow position up to `to` to the shadow tables, unit by
   * unit: batches of events read here, or, for a projection that applies ranges in SQL
   * (`applyRange`), ranges whose events never come into this process. The reader fetches the next
   * unit while the writer applies this one. With `ownTransactions` each unit commits on its own,
   * else the caller's transaction holds them.
   */
  private async build(step: BuildStep): Promise<number> {
    const { source, positions, to, progress, phase, ownTransactions } = step;
    const { writer, target } = this;
    let from = positions.get(source)!;
    if (comparePositions(from, to) >= 0) return 0;
    const stages = target.projection.rangeStages;
    if (ownTransactions && stages && stages.length > 1 && target.projection.applyRange && poolMax(this.r.pool) >= stages.length + 3) {
      return this.buildPipelined(step, stages);
    }
    let applied = 0;
    let next: Promise<BuildUnit | null> | null = this.nextUnit(source, from, to);
    while (next) {
      const unit: BuildUnit | null = await next;
      if (!unit) break;
      next = unit.full ? this.nextUnit(source, unit.end, to) : null;
      next?.catch(() => undefined); // awaited on the next turn; an early apply error must not leave it unhandled
      if (this.r.stopping()) throw new Error(`Reconstrucción de ${target.projection.name} interrumpida: el proceso se detiene`);
      try {
        if (ownTransactions) await writer.query('BEGIN');
        await unit.apply(writer);
        if (ownTransactions) await writer.query('COMMIT');
      } catch (err) {
        if (ownTransactions) await writer.query('ROLLBACK').catch(() => undefined);
        throw Object.assign(
          new Error(`La reconstrucción de ${target.projection.name} falló al aplicar eventos de ${source} ${unit.at}: ${err instanceof Error ? err.message : String(err)}`),
          { cause: err },
        );
      }
      from = unit.end;
      positions.set(source, from);
      applied += unit.events;
      progress.add(unit.events, phase, source);
    }
    return applied;
  }

  /**
   * `build` for a projection whose ranges apply in stages (`rangeStages`): a pipeline, stage k on
   * connection k (the writer and stages − 1 more), each stage of each range in its own transaction.
   * Stage k of range i waits for stage k − 1 of range i and stage k of range i − 1 (its own
   * connection runs them in order); stage 0 runs at most `PIPELINE_AHEAD` ranges ahead of the last
   * stage, so at most that many ranges keep scratch tables. The shadow position moves when a
   * range's last stage commits. A failed stage stops every stage; the scratch tables are dropped.
   */
  private async buildPipelined({ source, positions, to, progress, phase }: BuildStep, stages: readonly RangeStage[]): Promise<number> {
    const { reader, writer, target } = this;
    const p = target.projection;
    const conns: PoolClient[] = [writer];
    const extra: Awaited<ReturnType<typeof checkout>>[] = [];
    let failure: unknown = null;
    let abort!: (err: unknown) => void;
    const aborted = new Promise<never>((_, reject) => (abort = reject));
    aborted.catch(() => undefined);
    const last = stages.length - 1;
    /** Ranges as stage 0 finds them; a slot resolves with its range, or null past the last one. */
    const slots: Deferred<PipelineRange | null>[] = [];
    const slot = (i: number) => (slots[i] ??= deferred<PipelineRange | null>());
    let applied = 0;
    const runStage = async (k: number, item: PipelineRange) => {
      if (failure) throw failure;
      if (this.r.stopping()) throw new Error(`Reconstrucción de ${p.name} interrumpida: el proceso se detiene`);
      const tx = conns[k];
      try {
        await tx.query('BEGIN');
        await stages[k](tx, item.range, target.shadow, item.scratch);
        await tx.query('COMMIT');
      } catch (err) {
        await tx.query('ROLLBACK').catch(() => undefined);
        throw Object.assign(
          new Error(`La reconstrucción de ${p.name} falló al aplicar eventos de ${source} ${item.at}: ${err instanceof Error ? err.message : String(err)}`),
          { cause: err },
        );
      }
      item.done[k].resolve();
      if (k === last) {
        positions.set(source, item.range.to);
        applied += item.events;
        progress.add(item.events, phase, source);
      }
    };
    const loops: Promise<void>[] = [];
    try {
      for (let k = 1; k < stages.length; k++) {
        const c = await checkout(this.r.pool);
        extra.push(c);
        conns.push(c);
        // Durability of shadow batches is not needed (as for the writer): a crashed rebuild starts again from 0.
        await c.query('SET synchronous_commit = off');
      }
      const guard = <T>(x: Promise<T>) => Promise.race([x, aborted]);
      const fail = (err: unknown) => {
        failure ??= err;
        abort(err);
        throw err;
      };
      loops.push(
        (async () => {
          let from = positions.get(source)!;
          let left = await this.countBetween(reader, source, from, to);
          for (let i = 0; ; i++) {
            if (i >= PIPELINE_AHEAD) await guard(slot(i - PIPELINE_AHEAD).promise.then((r) => r?.done[last].promise));
            const size = pipelineRangeSize(i, this.r.rangeSize, left);
            const range = await this.rangeEnd(reader, source, from, to, size);
            if (!range) {
              slot(i).resolve(null);
              return;
            }
            const item: PipelineRange = {
              range: { source, from, to: range.end },
              events: range.events,
              at: `después de ${from.transactionId}/${from.globalPosition}`,
              scratch: { prefix: `${this.schema}.${p.name}${SCRATCH_MARK}${++this.scratchNo}`, temporary: false },
              done: stages.map(() => deferred<void>()),
            };
            slot(i).resolve(item);
            await runStage(0, item);
            from = range.end;
            left -= range.events;
            if (range.events < size) {
              slot(i + 1).resolve(null);
              return;
            }
          }
        })().catch(fail),
      );
      for (let k = 1; k < stages.length; k++) {
        loops.push(
          (async () => {
            for (let i = 0; ; i++) {
              const item = await guard(slot(i).promise);
              if (!item) return;
              await guard(item.done[k - 1].promise);
              await runStage(k, item);
            }
          })().catch(fail),
        );
      }
    } catch (err) {
      failure ??= err;
      abort(err);
    } finally {
      const settled = await Promise.allSettled(loops);
      failure ??= settled.find((x) => x.status === 'rejected')?.reason ?? null;
      for (const c of extra) c.done(failure ?? undefined);
      await this.dropScratch().catch(() => undefined);
    }
    if (failure) throw failure;
    return applied;
  }

  /** Drops every scratch table of this projection's rebuild ranges (left by a failed or crashed rebuild). */
  private async dropScratch(): Promise<void> {
    const name = this.target.projection.name;
    const r = await this.r.pool.query<{ t: string }>(
      `SELECT quote_ident(tablename) AS t FROM pg_tables WHERE schemaname = $1 AND starts_with(tablename, $2)`,
      [this.schema, `${name}${SCRATCH_MARK}`],
    );
    const tables = r.rows.map((x) => x.t).filter((t) => new RegExp(`^${name}${SCRATCH_MARK}\\d+_[a-z_]+$`).test(t));
    if (tables.length > 0) await this.r.pool.query(`DROP TABLE IF EXISTS ${tables.map((t) => `${this.schema}.${t}`).join(', ')}`);
  }

  /** The next unit of `build` after `from` (up to `to`), read by the reader; null when none is left. */
  private async nextUnit(source: string, from: Position, to: Position): Promise<BuildUnit | null> {
    const { reader, target } = this;
    const p = target.projection;
    if (p.applyRange) {
      // A range in SQL: only where it ends is read here (an index-only walk).
      const range = await this.rangeEnd(reader, source, from, to);
      if (!range) return null;
      return {
        end: range.end,
        events: range.events,
        full: range.events >= this.r.rangeSize,
        at: `después de ${from.transactionId}/${from.globalPosition}`,
        apply: (tx) => p.applyRange!(tx, { source, from, to: range.end }, target.shadow),
      };
    }
    const events = await this.readRange(reader, source, from, to);
    if (events.length === 0) return null;
    const first = events[0];
    const last = events[events.length - 1];
    return {
      end: { transactionId: last.transactionId, globalPosition: last.globalPosition },
      events: events.length,
      full: events.length >= this.r.batchSize,
      at: `desde ${first.transactionId}/${first.globalPosition}`,
      apply: (tx) => p.apply(tx, uniqueByEventId(events), target.shadow),
    };
  }

  /** Where the next range of at most `size` events after `from` (up to `to`) ends, and how many it holds; null when none is left. */
  private async rangeEnd(db: PoolClient, source: string, from: Position, to: Position, size = this.r.rangeSize): Promise<{ end: Position; events: number } | null> {
    const r = await db.query<{ transaction_id: string; global_position: string; n: string }>({
      name: `${source}_rebuild_range`,
      text: `SELECT transaction_id::text, global_position, count(*) OVER () AS n FROM (
               SELECT e.transaction_id, e.global_position FROM ${source}.events e
               WHERE (e.transaction_id, e.global_position) > ($1::xid8, $2::bigint) AND (e.transaction_id, e.global_position) <= ($3::xid8, $4::bigint)
               ORDER BY e.transaction_id, e.global_position LIMIT $5
             ) s ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
      values: [from.transactionId, from.globalPosition, to.transactionId, to.globalPosition, size],
    });
    if (r.rowCount === 0) return null;
    const row = r.rows[0];
    return { end: { transactionId: row.transaction_id, globalPosition: Number(row.global_position) }, events: Number(row.n) };
  }

  /** Brings the (paused, locked) live projection of a source from `from` to `to` inside the swap transaction. */
  private async advanceLive({ source, from, to }: { source: string; from: Position; to: Position }): Promise<void> {
    let at = from;
    for (;;) {
      const events = await this.readRange(this.writer, source, at, to);
      if (events.length === 0) return;
      await this.target.projection.apply(this.writer, uniqueByEventId(events), this.target.live);
      const last = events[events.length - 1];
      at = { transactionId: last.transactionId, globalPosition: last.globalPosition };
    }
  }

  /**
   * Rows only in live and only in shadow, per table. Each table is first compared by a fingerprint
   * (its row count and the sum of a 64-bit hash of every row: one scan of each table, no sort,
   * since the live projection stays paused until the swap); only a table whose fingerprints differ
   * is compared row by row (EXCEPT ALL both ways) to count the differences.
   */
  private async compare(tx: PoolClient): Promise<TableDifference[]> {
    const out: TableDifference[] = [];
    for (const t of this.target.projection.tables) {
      const live = this.target.live[t];
      const shadow = this.target.shadow[t];
      const exists = await tx.query<{ ok: boolean }>('SELECT to_regclass($1) IS NOT NULL AS ok', [live]);
      if (!exists.rows[0].ok) {
        // A table the live projection does not have yet (added by this code): every shadow row is new.
        const n = await tx.query<{ n: string }>(`SELECT count(*) AS n FROM ${shadow}`);
        if (Number(n.rows[0].n) > 0) out.push({ table: t, onlyLive: 0, onlyShadow: Number(n.rows[0].n) });
        continue;
      }
      if (await this.sameFingerprint(tx, live, shadow)) continue;
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
   * Whether two tables have the same fingerprint: the row count and the sum of a 64-bit hash of every
   * row. The hash is the row's own (each column's type hash: no text made of every row, ~1.5× faster
   * on the orders), or its text's for a table with a column type that has none (json, point…).
   */
  private async sameFingerprint(tx: PoolClient, live: string, shadow: string): Promise<boolean> {
    const fingerprint = (table: string, hash: string) => `(SELECT row(count(*), sum(${hash}))::text FROM ${table} x)`;
    await tx.query('SAVEPOINT fingerprint');
    try {
      const same = await tx.query<{ same: boolean }>(`SELECT ${fingerprint(live, 'hash_record_extended(x, 0)')} = ${fingerprint(shadow, 'hash_record_extended(x, 0)')} AS same`);
      await tx.query('RELEASE SAVEPOINT fingerprint');
      return same.rows[0].same;
    } catch (err) {
      if ((err as { code?: string }).code !== '42883') throw err;
      await tx.query('ROLLBACK TO SAVEPOINT fingerprint');
    }
    const same = await tx.query<{ same: boolean }>(`SELECT ${fingerprint(live, 'hashtextextended(x::text, 0)')} = ${fingerprint(shadow, 'hashtextextended(x::text, 0)')} AS same`);
    return same.rows[0].same;
  }

  /**
   * Drops the live tables and renames the shadows (with their indexes, constraints and owned
   * sequences) to the live names, inside the caller's transaction. Readers of the live tables
   * wait only for this transaction's commit, then see the new tables.
   */
  private async swap(tx: PoolClient): Promise<void> {
    const { projection, live, shadow } = this.target;
    const tables = projection.tables;
    if (tables.length === 0) return;
    await tx.query(`DROP TABLE IF EXISTS ${tables.map((t) => live[t]).join(', ')}`);
    for (const t of tables) {
      const shadowName = `${t}${SHADOW_SUFFIX}`;
      const rel = shadow[t];
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
        else await tx.query(`ALTER TABLE ${live[t]} RENAME CONSTRAINT ${d.name} TO ${renamed}`);
      }
    }
  }

  private async dropShadow(db: PoolClient): Promise<void> {
    const tables = this.target.projection.tables.map((t) => this.target.shadow[t]);
    if (tables.length > 0) await db.query(`DROP TABLE IF EXISTS ${tables.join(', ')}`);
    if (this.target.projection.rangeStages) await this.dropScratch();
  }
}
