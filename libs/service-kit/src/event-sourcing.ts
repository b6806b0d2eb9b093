import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  assertSchemaName,
  comparePositions,
  type EventTransport,
  type Position,
  type Projection,
  ProjectionRunner,
} from '@tiendita/eventsourcing';
import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { PG_POOL, SERVICE_LOGGER } from './service-kit.module';
import { ServiceUnavailableError } from './http-errors';

/** Injection token of the service's own event store (its schema's `events` table, migrated). */
export const EVENT_STORE = 'TIENDITA_EVENT_STORE';
/** Injection token of the service's event transport (subscriptions to its own and other services' events). */
export const EVENT_TRANSPORT = 'TIENDITA_EVENT_TRANSPORT';

/** Injection token of the service's EventSourcingOptions (event-sourcing.module.ts provides it). */
export const EVENT_SOURCING_OPTIONS = 'TIENDITA_EVENT_SOURCING_OPTIONS';

/** How long a write waits for its own events to reach the read models before answering anyway. */
export const READ_YOUR_WRITES_TIMEOUT_MS = 5000;

/**
 * How long a read waits for its read models to take in events another service (or this one) has
 * already committed (ProjectionHost.fresh) before answering with what is there.
 */
export const FRESH_READ_TIMEOUT_MS = 1000;

/** A projection (or reaction) of this service and one of its sources, for ProjectionHost.fresh. */
export interface FreshSource {
  projection: string;
  source: string;
}

/** How often a service looks for a paused projection that an operator has released. */
export const RESUME_CHECK_MS = 2000;

/** 503: a read model that should show a write is paused on an event it could not apply. */
export class ProjectionPausedError extends ServiceUnavailableError {
  constructor(
    projection: string,
    message = 'El cambio se guardó, pero la vista que lo muestra está detenida por un error y aún no lo refleja. Inténtalo más tarde.',
  ) {
    super(message, { projection });
  }
}

/** 503: a read model of this store is incomplete (an event of the store waits in its dead letters); other stores read on. */
export class StoreDataUnavailableError extends ServiceUnavailableError {
  constructor(projection: string, storeId: string) {
    super('Esta información de la tienda no está disponible por ahora: un cambio no se pudo procesar y se está revisando. Inténtalo más tarde.', { projection, storeId });
  }
}

export interface EventSourcingOptions {
  /** The service's schema: its events table, read models, checkpoints. */
  schema: string;
  /** The projections this process runs (its own read models and those fed by other services). */
  projections: readonly Projection[];
  /** Removes secrets from event data before the Kafka relay publishes it (identity's hashes). */
  redact?: (type: string, data: unknown) => unknown;
}

/**
 * Runs a service's projections in its process, and lets a write wait until its read models show
 * it (read-your-writes): by the position the append returned, by a stream's version, or by a
 * probe. The one copy of that wait for every service.
 */
@Injectable()
export class ProjectionHost implements OnApplicationBootstrap, OnModuleDestroy {
  readonly runner: ProjectionRunner;
  private markStarted!: () => void;
  /** Resolves once the runner has set up its tables: other subscribers of the service wait for it (concurrent DDL on the checkpoint table would clash). */
  readonly started = new Promise<void>((resolve) => {
    this.markStarted = resolve;
  });

  private resumeTimer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(EVENT_TRANSPORT) readonly transport: EventTransport,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
    @Inject(EVENT_SOURCING_OPTIONS) private readonly options: EventSourcingOptions,
  ) {
    this.runner = new ProjectionRunner({ pool, schema: options.schema, transport, projections: options.projections, logger });
  }

  /**
   * Runs a reaction of this service (see `reaction()` of @tiendita/eventsourcing) with its
   * projections: same checkpoints, retries, dead letters and pause. Call it from a provider's
   * constructor or onModuleInit, before the application starts.
   */
  addReaction(reaction: Projection): void {
    this.runner.add(reaction);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
    this.markStarted();
    // A projection paused on a dead letter runs again here once an operator retries or skips it
    // (`npm run replay -- --retry/--skip`, another process): look for that every few seconds.
    this.resumeTimer = setInterval(() => {
      void this.runner.resumeReleased().catch((err: unknown) => this.logger.warn({ err }, 'No se pudo revisar si una proyección en pausa puede seguir'));
      // A store's events retried or skipped from another process: its reads answer again.
      void this.runner.refreshBlocked().catch((err: unknown) => this.logger.warn({ err }, 'No se pudo revisar qué tiendas tienen eventos apartados'));
    }, RESUME_CHECK_MS);
    this.resumeTimer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.resumeTimer) clearInterval(this.resumeTimer);
    await this.runner.stop();
    await this.transport.close();
  }

  /**
   * Waits until every projection that reads `source` (the service's own events by default) has
   * applied them up to `position`: what handleCommand returned. A null position (nothing was
   * appended) returns at once. Gives up at once with 503 when one of them is paused, and answers
   * anyway after `timeoutMs`.
   */
  async waitForPosition(
    position: Position | null,
    options: { source?: string; projection?: string; streamId?: string; timeoutMs?: number } = {},
  ): Promise<void> {
    if (!position) return;
    const source = options.source ?? this.options.schema;
    const names = options.projection ? [options.projection] : this.options.projections.filter((p) => p.sources.includes(source)).map((p) => p.name);
    const deadline = Date.now() + (options.timeoutMs ?? READ_YOUR_WRITES_TIMEOUT_MS);
    for (const name of names) {
      for (;;) {
        if (this.runner.isPaused(name)) throw new ProjectionPausedError(name);
        if (await this.runner.hasApplied(name, source, position, options.streamId)) break;
        if (Date.now() >= deadline) return;
        await this.pause(name, 20, source);
      }
    }
  }

  /** Waits until the read models include a stream of the service's own events up to `version` (its event count). */
  async waitForStream(streamId: string, version: number, options: { projection?: string; timeoutMs?: number } = {}): Promise<void> {
    if (version <= 0) return;
    const r = await this.pool.query<{ transaction_id: string; global_position: string }>({
      name: `${this.options.schema}_event_position`,
      text: `SELECT transaction_id::text, global_position FROM ${this.options.schema}.events WHERE stream_id = $1 AND stream_position = $2`,
      values: [streamId, version],
    });
    if (!r.rows[0]) return;
    const position = { transactionId: r.rows[0].transaction_id, globalPosition: Number(r.rows[0].global_position) };
    await this.waitForPosition(position, { ...options, streamId });
  }

  /**
   * Read-your-writes by a probe, for a row the caller knows must show up: probes until it returns
   * something, for at most `timeoutMs`. Probing, not only caughtUp(): a catch-up pass stops below
   * the oldest transaction in flight, so "nothing new" can come before an event already committed.
   * Gives up at once with 503 (`pausedMessage`, or the default) when `projection` is paused.
   */
  async waitFor<T>(probe: () => Promise<T | null>, options: { projection?: string; timeoutMs?: number; pausedMessage?: string } = {}): Promise<T | null> {
    const deadline = Date.now() + (options.timeoutMs ?? 3000);
    for (;;) {
      const found = await probe();
      if (found !== null || Date.now() >= deadline) return found;
      if (options.projection && this.runner.isPaused(options.projection)) throw new ProjectionPausedError(options.projection, options.pausedMessage);
      await this.pause(options.projection, 25);
    }
  }

  /**
   * Resolves once the read models include every event committed before the call, as far as one
   * pass can tell, or after `timeoutMs`: true when they caught up, false when the time ran out.
   */
  async caughtUp(projection?: string, timeoutMs = READ_YOUR_WRITES_TIMEOUT_MS): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const reached = await Promise.race([
      this.runner.caughtUp(projection).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return reached;
  }

  /**
   * Read-your-writes across services, for a read: when a source holds events committed before this
   * call that the projection has not applied yet (a POS sale written by ordering and inventory, then
   * the stock list), waits until it has, at most `timeoutMs`, waking its subscription at once rather
   * than waiting for the NOTIFY. Up to date (the usual case), it costs one small query: the newest
   * position of each source against the projection's checkpoint. `pairs` in order: a reaction that
   * appends (catalog's events → inventory's stock items) before the projection that reads what it
   * appends (inventory's events → the stock list); after a wait, the pairs that follow are looked at
   * again. Never fails the read: a paused projection, or the time running out, answers what is there;
   * with `storeId`, a store whose events a projection has set aside gets 503 (assertStoreReadable).
   * Postgres transport only: with Kafka the checkpoints are per partition (the read answers at once).
   */
  async fresh(pairs: readonly FreshSource[], timeoutMs = FRESH_READ_TIMEOUT_MS, storeId?: string | null): Promise<void> {
    if (storeId) this.assertStoreReadable(pairs.map((p) => p.projection), storeId);
    if (this.transport.kind !== 'postgres' || pairs.length === 0) return;
    const deadline = Date.now() + timeoutMs;
    let behind = await this.behind(pairs);
    for (let i = 0; i < pairs.length; i++) {
      const head = behind[i];
      if (!head) continue;
      const left = deadline - Date.now();
      if (left <= 0) return;
      try {
        await this.waitShared(pairs[i], head, left);
      } catch (err) {
        if (err instanceof ProjectionPausedError) return;
        throw err;
      }
      // What the reaction just applied may have appended events for the pairs after it.
      if (i + 1 < pairs.length) behind = [...behind.slice(0, i + 1), ...(await this.behind(pairs.slice(i + 1)))];
    }
  }

  /**
   * A read of one store's data: 503 (StoreDataUnavailableError) while one of these read models has
   * set an event of that store aside (it could not apply it); every other store reads on. Answers
   * again once an operator retries or skips it (`npm run replay -- --retry/--skip`).
   */
  assertStoreReadable(projections: string | readonly string[], storeId: string): void {
    for (const name of typeof projections === 'string' ? [projections] : projections) {
      if (this.runner.isStoreBlocked(name, storeId)) throw new StoreDataUnavailableError(name, storeId);
    }
  }

  /** Waits in flight per projection and source, with the position each waits for. */
  private readonly freshWaits = new Map<string, { to: Position; done: Promise<void> }>();

  /**
   * One wait per projection and source for every read behind at once (a busy shop reads its list
   * hundreds of times a second while checkouts append): a read whose position an earlier wait already
   * covers joins it, instead of each read polling the checkpoint and forcing passes of its own.
   */
  private waitShared(pair: FreshSource, head: Position, timeoutMs: number): Promise<void> {
    const key = `${pair.projection}\u0000${pair.source}`;
    const current = this.freshWaits.get(key);
    if (current && comparePositions(current.to, head) >= 0) return current.done;
    const done: Promise<void> = this.waitForPosition(head, { source: pair.source, projection: pair.projection, timeoutMs }).finally(() => {
      if (this.freshWaits.get(key)?.done === done) this.freshWaits.delete(key);
    });
    this.freshWaits.set(key, { to: head, done });
    return done;
  }

  /** For each pair, the source's newest position when the projection has not applied it yet, else null. One statement. */
  private async behind(pairs: readonly FreshSource[]): Promise<(Position | null)[]> {
    const schema = this.options.schema;
    const parts = pairs.map((p, i) => {
      assertSchemaName(p.source);
      return `SELECT ${i} AS i, h.transaction_id::text, h.global_position,
          c.transaction_id IS NULL OR (h.transaction_id, h.global_position) > (c.transaction_id, c.global_position) AS behind
        FROM (SELECT e.transaction_id, e.global_position FROM ${p.source}.events e ORDER BY e.transaction_id DESC, e.global_position DESC LIMIT 1) h
        LEFT JOIN ${schema}.subscription_checkpoints c ON c.group_name = $${2 * i + 1} AND c.source = $${2 * i + 2} AND c.partition = 0`;
    });
    const text = parts.join('\nUNION ALL\n');
    const r = await this.pool.query<{ i: number; transaction_id: string; global_position: string; behind: boolean }>({
      name: `${schema}_fresh_${freshStatementId(text)}`,
      text,
      values: pairs.flatMap((p) => [`${schema}.${p.projection}`, p.source]),
    });
    const out: (Position | null)[] = pairs.map(() => null);
    for (const row of r.rows) if (row.behind) out[row.i] = { transactionId: row.transaction_id, globalPosition: Number(row.global_position) };
    return out;
  }

  /** The next catch-up pass of a projection (of its subscription to `source` only, when given), or `ms`, whichever comes first. */
  private async pause(projection: string | undefined, ms: number, source?: string): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.runner.caughtUp(projection, source),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      }),
    ]);
    clearTimeout(timer);
  }
}

/** A short name for each statement text of fresh() (a handful per service), so each is prepared once per connection. */
const freshStatements = new Map<string, number>();
function freshStatementId(text: string): number {
  let id = freshStatements.get(text);
  if (id === undefined) freshStatements.set(text, (id = freshStatements.size + 1));
  return id;
}
