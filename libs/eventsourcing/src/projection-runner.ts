import type { Pool } from 'pg';
import { assertSchemaName, PostgresEventStore, type Position } from './event-store';
import { withSchemaLock } from './pg-util';
import { StatementNames } from './prepared-statements';
import type { Projection } from './projection';
import { rebuildProjection, RebuildInProgressError, type RebuildOptions, type RebuildResult } from './projection-rebuild';
import { applyLiveBatch, type LiveBatchContext, liveBatchStart, type Runtime } from './projection-live-batch';
import { blockedStores, type DeadLetter, markPaused, projectionStateDdl, type ProjectionState, readDeadLetters, readStates } from './projection-state';
import { registerProjection } from './projection-registration';
import { type ProjectionLogger, projectionTarget } from './projection-target';
import { comparePositions, readCheckpoint, type EventTransport } from './subscription';

export type { DeadLetter, ProjectionState } from './projection-state';
export type { ProjectionLogger, ProjectionStatus } from './projection-target';

export interface ProjectionRunnerOptions {
  pool: Pool;
  /** The consuming service's schema: read models, checkpoints, `projections`, `dead_letters`. */
  schema: string;
  transport: EventTransport;
  /** Read models and reactions (`kind: 'reaction'`); more can be added before start(). */
  projections: readonly Projection[];
  logger?: ProjectionLogger;
  /** Events per live batch (one transaction each). */
  batchSize?: number;
  /** Events per rebuild batch (one transaction each, the next batch read while this one applies). */
  rebuildBatchSize?: number;
  /** Events per range of a projection that applies ranges in SQL (`applyRange`) during a rebuild (default 100,000). */
  rebuildRangeSize?: number;
  /**
   * Times an event may fail to apply (a non-transient error) before it is dead-lettered and its
   * projection paused (default 3). Between attempts the transport waits, longer each time.
   */
  maxAttempts?: number;
}

const consoleLogger: ProjectionLogger = {
  info: () => undefined,
  warn: (obj, msg) => console.warn(msg ?? '', obj),
  error: (obj, msg) => console.error(msg ?? '', obj),
};

/**
 * Runs a service's projections and reactions: one subscription per projection and source
 * (consumer group `<schema>.<projection>`), each batch applied with its checkpoint in one
 * transaction. An event a projection cannot apply is retried a few times, then dead-lettered,
 * and pauses only that projection. Rebuilds (projection-rebuild.ts) build shadow tables from
 * position 0 and swap them in atomically.
 */
export class ProjectionRunner {
  private readonly schema: string;
  private readonly runtimes = new Map<string, Runtime>();
  private readonly log: ProjectionLogger;
  private started = false;
  private stopping = false;
  private migrated: Promise<void> | null = null;

  private readonly batchContext: LiveBatchContext;

  constructor(private readonly options: ProjectionRunnerOptions) {
    assertSchemaName(options.schema);
    this.schema = options.schema;
    this.log = options.logger ?? consoleLogger;
    this.batchContext = { schema: this.schema, log: this.log, maxAttempts: options.maxAttempts ?? 3, statementNames: new StatementNames() };
    for (const p of options.projections) this.add(p);
  }

  /**
   * Adds a projection or reaction before start(): a service's reactions are made by its modules
   * (they need its write model), after the runner.
   */
  add(projection: Projection): void {
    if (this.started) throw new Error(`La proyección ${projection.name} se agregó después de iniciar`);
    const target = projectionTarget(this.schema, projection);
    if (this.runtimes.has(projection.name)) throw new Error(`Proyección repetida: ${projection.name}`);
    for (const s of projection.sources) assertSchemaName(s);
    this.runtimes.set(projection.name, { ...target, subs: [], pausing: null, starting: null, rebuilding: false, failures: new Map(), blocked: new Set() });
  }

  /** Creates the runner's tables (`projections`, `dead_letters`, checkpoints) if missing. */
  migrate(): Promise<void> {
    this.migrated ??= withSchemaLock(this.options.pool, this.schema, async (client) => {
      await client.query(projectionStateDdl(this.schema));
    });
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
    const action = await registerProjection(this.options.pool, this.schema, rt);
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
          await markPaused(this.options.pool, this.schema, p.name, message).catch(() => undefined);
        },
      );
    }
  }

  private async subscribe(rt: Runtime): Promise<void> {
    if (rt.subs.length > 0 || this.stopping || !this.started) return;
    rt.pausing = null;
    rt.failures.clear();
    for (const source of rt.projection.sources) {
      const sub = await this.options.transport.subscribe({
        group: rt.group,
        source,
        batchSize: this.options.batchSize ?? 500,
        batchDelayMs: rt.projection.liveBatchDelayMs,
        batchStart: liveBatchStart(rt, this.schema),
        handle: (events, tx, started) => applyLiveBatch(rt, this.batchContext, source, events, tx, started),
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


  /**
   * Whether a store's data in a read model is incomplete: an event of that store waits in its dead
   * letters (as last read by a batch or by refreshBlocked). Its reads answer 503 until it is retried or skipped.
   */
  isStoreBlocked(name: string, storeId: string): boolean {
    return this.runtime(name).blocked.has(storeId);
  }

  /** Reads again which stores each read model sets aside (an operator may have retried or skipped their events from another process). */
  async refreshBlocked(): Promise<void> {
    for (const rt of this.runtimes.values()) {
      if (rt.projection.kind === 'reaction') continue;
      rt.blocked = await blockedStores(this.options.pool, this.schema, rt.projection.name);
    }
  }

  /** Stops every subscription (and any rebuild this runner started); checkpoints are already saved. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    await Promise.all([...this.runtimes.values()].map((rt) => this.stopSubs(rt)));
    await Promise.all([...this.runtimes.values()].map((rt) => rt.starting));
  }

  /**
   * Resolves once every running projection (or `name`) has handled every event committed before the
   * call (and any version rebuild started by start() has finished); with `source`, the events of that
   * source only (a read-your-writes wait on one source does not read the projection's other sources).
   */
  async caughtUp(name?: string, source?: string): Promise<void> {
    const rts = name ? [this.runtime(name)] : [...this.runtimes.values()];
    await Promise.all(rts.map((rt) => rt.starting));
    await Promise.all(rts.flatMap((rt) => rt.subs.filter((s) => source === undefined || s.source === source).map((s) => s.caughtUp())));
  }

  /**
   * True while a projection does not follow its sources: it dead-lettered an event, or was found
   * paused at start. A read-your-writes wait gives up at once then instead of timing out.
   */
  isPaused(name: string): boolean {
    const rt = this.runtime(name);
    return rt.pausing !== null || (this.started && rt.subs.length === 0 && rt.starting === null && !rt.rebuilding);
  }

  /**
   * Whether a projection has applied a source's events up to `position` (read-your-writes). The
   * stream is given so that a transport whose checkpoints are per partition can look at the
   * partition that holds it.
   */
  async hasApplied(name: string, source: string, position: Position, streamId?: string): Promise<boolean> {
    const partition = streamId && this.options.transport.partitionOf ? this.options.transport.partitionOf(source, streamId) : 0;
    const at = await readCheckpoint(this.options.pool, this.schema, this.runtime(name).group, source, partition);
    return at !== null && comparePositions(at, position) >= 0;
  }

  /** Marks a projection paused and stops it here (in that order: resumeReleased() leaves it alone). */
  async pause(name: string, reason: string | null = null): Promise<void> {
    const rt = this.runtime(name);
    await markPaused(this.options.pool, this.schema, name, reason);
    await this.stopSubs(rt);
  }

  /** Marks a paused projection running and subscribes it again; it retries from its checkpoint. */
  async resume(name: string): Promise<void> {
    const rt = this.runtime(name);
    await this.options.pool.query(`UPDATE ${this.schema}.projections SET status = 'running', last_error = NULL, updated_at = now() WHERE name = $1`, [name]);
    await this.subscribe(rt);
  }

  /**
   * Subscribes again every projection paused here whose stored status an operator has set back to
   * running from another process (`npm run replay -- --retry/--skip`, or a rebuild's swap); a
   * service calls it every few seconds. Answers the names it resumed.
   */
  async resumeReleased(): Promise<string[]> {
    const idle = [...this.runtimes.values()].filter((rt) => this.started && !this.stopping && rt.subs.length === 0 && rt.starting === null && !rt.rebuilding);
    if (idle.length === 0) return [];
    const r = await this.options.pool.query<{ name: string }>(`SELECT name FROM ${this.schema}.projections WHERE name = ANY($1) AND status = 'running'`, [idle.map((rt) => rt.projection.name)]);
    const names = new Set(r.rows.map((x) => x.name));
    const resumed: string[] = [];
    for (const rt of idle) {
      if (!names.has(rt.projection.name) || rt.subs.length > 0 || rt.rebuilding) continue;
      await this.subscribe(rt);
      resumed.push(rt.projection.name);
      this.log.info({ projection: rt.projection.name }, `La proyección ${rt.projection.name} se reanuda: ya no está en pausa`);
    }
    return resumed;
  }

  /** The stored state of every projection of this runner. */
  async states(): Promise<ProjectionState[]> {
    await this.migrate();
    return readStates(this.options.pool, this.schema, [...this.runtimes.keys()]);
  }

  /** Dead-lettered events, oldest first, of one projection or all. */
  async deadLetters(name?: string): Promise<DeadLetter[]> {
    await this.migrate();
    return readDeadLetters(this.options.pool, this.schema, name);
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
   * and swaps them in (projection-rebuild.ts). Afterwards the projection runs here again, even if
   * it was paused or never started (version bump, dead letter). A reaction is never rebuilt.
   * Throws RebuildInProgressError, touching nothing, while another rebuild of it runs here or in
   * another process.
   */
  async rebuild(name: string, options: RebuildOptions | RebuildOptions['onProgress'] = {}): Promise<RebuildResult> {
    const rt = this.runtime(name);
    if (rt.projection.kind === 'reaction') throw new Error(`${name} es una reacción: no se reconstruye (repetiría sus efectos)`);
    if (rt.rebuilding) throw new RebuildInProgressError(name);
    rt.rebuilding = true;
    let swapped = false;
    try {
      await this.migrate();
      const result = await rebuildProjection({
        pool: this.options.pool,
        schema: this.schema,
        transportKind: this.options.transport.kind,
        target: rt,
        log: this.log,
        batchSize: this.options.rebuildBatchSize ?? 20_000,
        rangeSize: this.options.rebuildRangeSize ?? 100_000,
        options: typeof options === 'function' ? { onProgress: options } : (options ?? {}),
        stopping: () => this.stopping,
      });
      swapped = true;
      return result;
    } finally {
      rt.rebuilding = false;
      if (swapped && this.started && !this.stopping) await this.subscribe(rt);
    }
  }
}
