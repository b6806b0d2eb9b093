import type { Pool, PoolClient, QueryResult } from 'pg';
import { EVENT_COLUMNS, type EventRow, type Position, type PostgresEventStore, SAFE_READ_BOUND, START, toRecorded, type RecordedEventWithTx } from './event-store';
import { checkout } from './pg-util';
import { comparePositions, readCheckpoint, type SubscribeOptions } from './subscription';
import type { PostgresTransportOptions } from './postgres-transport';

// One subscription of the postgres transport: its read loop, batches, held-back events and checkpoint.

/** First wait before looking again for an event held back by the safe read bound (ms). */
export const HELD_BACK_FIRST_LOOK_MS = 5;
/** Longest wait between looks for a held-back event (ms). */
export const HELD_BACK_MAX_WAIT_MS = 50;

/**
 * Wait before the n-th look (n ≥ 1) for an event that has committed but is held back by the safe read
 * bound: 5 ms, doubling while it stays held back, at most 50 ms and never longer than the poll. An event
 * becomes readable only when the older transaction ends, which no NOTIFY announces: with the doubling
 * uncapped (up to the 1 s poll) an event held back ~420 ms was seen ~635 ms after the first look; with
 * the cap, at most 50 ms after it became readable. A look costs two small reads of the source.
 */
export function heldBackDelay(look: number, pollMs: number): number {
  return Math.min(pollMs, HELD_BACK_MAX_WAIT_MS, HELD_BACK_FIRST_LOOK_MS * 2 ** Math.min(Math.max(look - 1, 0), 8));
}

export class PgSubscription {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private pendingWake = false;
  /**
   * The checkpoint this subscription last read or saved. A pass woken by a NOTIFY (or run right after
   * a batch) first looks for an event after it without a transaction: when there is none, the pass
   * costs one read instead of a transaction whose row lock needs a commit (a WAL flush). The timed
   * poll reads the source only when its newest position is past this one (changedSince); a pass for
   * caughtUp() always takes the locked path, which reads the stored checkpoint.
   */
  private lastSeen: Position | null = null;
  private fullPass = true;
  /** Set by the poll's timer: the pass reads the source only if its newest event is past lastSeen. */
  private timedPass = false;
  private caughtUpWaiters: { after: number; resolve: () => void }[] = [];
  /** Empty passes in a row that saw an event held back by the safe read bound (for the backoff of the next look). */
  private heldBackPasses = 0;
  private passes = 0;
  private finished!: () => void;
  readonly done = new Promise<void>((resolve) => (this.finished = resolve));

  constructor(
    private readonly t: PostgresTransportOptions & { passPool: Pool },
    private readonly o: SubscribeOptions,
    private readonly source: PostgresEventStore,
  ) {}

  /** Set by a NOTIFY: the next pass takes the locked path at once (new events are likely). */
  private notified = false;

  readonly wake = (): void => {
    this.pendingWake = true;
    this.wakeUp?.();
  };

  /** A NOTIFY of the source: something was appended. */
  readonly notify = (): void => {
    this.notified = true;
    this.wake();
  };

  /** Cuts the wait after failed passes short (set while one runs). */
  private cutBackoff: (() => void) | null = null;

  /**
   * The database came back after an outage (the LISTEN connection was made again): passes that
   * failed because it was gone are tried at once instead of after their backoff (up to 16 s), and
   * NOTIFYs lost meanwhile are made up for.
   */
  readonly databaseBack = (): void => {
    this.notify();
    this.cutBackoff?.();
  };

  start(): void {
    this.running = true;
    this.loop = this.run().finally(() => this.finished());
  }

  async stop(): Promise<void> {
    this.running = false;
    this.endGathering?.();
    this.wake();
    await this.loop;
  }

  /**
   * Resolves once this group's checkpoint has reached the newest event committed before the call
   * (or the subscription ended). One pass that finds nothing is not enough: the safe read bound
   * may be held back by an older transaction of this database still in flight.
   */
  async caughtUp(): Promise<void> {
    const head = await this.source.lastPosition();
    // Always at least one pass, even when the checkpoint is there already: ProjectionHost.waitFor's probe
    // loop paces itself on it (an answer at once would make that loop spin until its deadline).
    while (this.running) {
      await this.idlePass();
      if (!this.running) return;
      const at = (await readCheckpoint(this.t.passPool, this.t.schema, this.o.group, this.o.source)) ?? START;
      if (comparePositions(at, head) >= 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Resolves after a full pass that found nothing new and started after this call. */
  private idlePass(): Promise<void> {
    return new Promise((resolve) => {
      this.caughtUpWaiters.push({ after: this.passes, resolve });
      this.fullPass = true;
      this.endGathering?.();
      this.wake();
    });
  }

  /** Cuts a batchDelayMs wait short (caughtUp, stop); a NOTIFY does not. */
  private endGathering: (() => void) | null = null;

  /**
   * After a batch smaller than a full one, under batchDelayMs: waits about that long for more events
   * to gather, unless someone waits for this subscription (caughtUp) or it stops.
   */
  private async gather(): Promise<void> {
    const delay = this.o.batchDelayMs ?? 0;
    if (delay <= 0 || !this.running || this.caughtUpWaiters.length > 0 || this.fullPass) return;
    // Spread ±25 % around the delay: the subscriptions one NOTIFY woke together would otherwise apply
    // their batches together every delay, a burst on every core that the checkouts queue behind.
    const ms = delay * (0.75 + Math.random() * 0.5);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.endGathering = null;
        resolve();
      }, ms);
      this.endGathering = () => {
        clearTimeout(timer);
        this.endGathering = null;
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    const batchSize = this.o.batchSize ?? 500;
    let failuresInARow = 0;
    while (this.running) {
      this.pendingWake = false;
      const pass = ++this.passes;
      const full = this.fullPass;
      this.fullPass = false;
      const timed = this.timedPass;
      this.timedPass = false;
      // After a NOTIFY the look without a transaction would mostly find the new events and cost a round
      // trip more; an empty locked pass rolls back, so it needs no WAL flush either.
      const notified = this.notified;
      this.notified = false;
      let handled = 0;
      let failed = false;
      /** The source's newest event is the one last seen here: nothing was appended, nothing is held back. */
      let unchanged = false;
      let client: Awaited<ReturnType<typeof checkout>> | null = null;
      try {
        client = await checkout(this.t.passPool);
        // The poll (the safety net for a lost NOTIFY) first asks for the source's newest position, one
        // index entry: a source nobody appended to is not read (its locked read costs ~1 ms, and every
        // subscriber of every source polls each second).
        if (!full && !notified && timed) unchanged = !(await this.changedSince(client));
        handled = unchanged ? 0 : full || notified || timed || !(await this.nothingNew(client)) ? await this.step(client, batchSize) : 0;
      } catch (err) {
        failed = true; // step() already reported it through onError
        if (!client) this.o.onError?.(err, []);
        client?.done(err);
        client = null;
      } finally {
        client?.done();
      }
      failuresInARow = failed ? failuresInARow + 1 : 0;
      if (handled > 0 && !failed && this.running) {
        // A steady stream: let the next events gather into one batch (batchDelayMs), unless it was a full one.
        if (handled < batchSize) await this.gather();
        continue;
      }
      // A pass that found nothing: every waiter registered before it started is caught up.
      if (!failed) {
        const done = this.caughtUpWaiters.filter((w) => w.after < pass);
        this.caughtUpWaiters = this.caughtUpWaiters.filter((w) => w.after >= pass);
        done.forEach((w) => w.resolve());
      }
      if (!this.running) break;
      if (this.pendingWake && !failed) continue;
      // An event that has committed but is not readable yet (an older transaction of the database is
      // still in flight) gets no NOTIFY of its own when it becomes readable: look again shortly
      // (heldBackDelay) instead of at the next poll, up to a second away.
      const poll = this.t.pollIntervalMs ?? 1000;
      const heldBack = !failed && handled === 0 && !unchanged && (await this.heldBack());
      this.heldBackPasses = heldBack ? this.heldBackPasses + 1 : 0;
      const wait = failed ? this.retryDelay(failuresInARow) : heldBack ? heldBackDelay(this.heldBackPasses, poll) : poll;
      // A NOTIFY or a caughtUp() that came while heldBack() was reading: its wake found no timer to cut short.
      if (this.pendingWake && !failed && this.running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timedPass = !heldBack;
          resolve();
        }, wait);
        this.wakeUp = () => {
          // New events do not cut a backoff short (a poison event would use its attempts up at once); stop() does.
          if (failed && this.running) return;
          clearTimeout(timer);
          resolve();
        };
        if (failed) {
          this.cutBackoff = () => {
            clearTimeout(timer);
            resolve();
          };
        }
      });
      this.wakeUp = null;
      this.cutBackoff = null;
    }
    this.caughtUpWaiters.forEach((w) => w.resolve());
    this.caughtUpWaiters = [];
  }

  /** Backoff after the n-th failed batch in a row: 1 s, 2 s, 4 s… up to 16 s (with the default base). */
  private retryDelay(failuresInARow: number): number {
    const base = this.t.retryDelayMs ?? 1000;
    return base * 2 ** Math.min(Math.max(failuresInARow - 1, 0), 4);
  }

  /** Whether an event after the checkpoint last seen here has committed but cannot be read yet. */
  private async heldBack(): Promise<boolean> {
    if (!this.lastSeen || !this.running) return false;
    const lastSeen = this.lastSeen;
    return this.source.lastPosition().then((head) => comparePositions(head, lastSeen) > 0, () => false);
  }

  /**
   * Whether the source's newest committed event is past the checkpoint last seen here (true when none
   * was seen yet). Every event that commits after a read sorts after what that read reached, so an
   * unchanged newest position means nothing new, readable or held back.
   */
  private async changedSince(client: PoolClient): Promise<boolean> {
    if (!this.lastSeen) return true;
    return comparePositions(await this.source.lastPosition(client), this.lastSeen) > 0;
  }

  /** Whether no event is readable after the checkpoint last seen here (false when none was seen yet). */
  private async nothingNew(client: PoolClient): Promise<boolean> {
    if (!this.lastSeen) return false;
    return (await this.source.readAll(this.lastSeen, 1, client)).length === 0;
  }

  /**
   * One batch in one transaction: lock checkpoint, read, handle, save checkpoint. BEGIN, the lock and
   * the read go in one round trip (the read takes the position from the row this transaction has
   * just locked), and the checkpoint's update with COMMIT in another: a sale reaches the read model
   * in fewer round trips. A group's first batch (no checkpoint row yet) takes the path that creates it.
   */
  private async step(tx: PoolClient, batchSize: number): Promise<number> {
    let events: RecordedEventWithTx[] = [];
    try {
      let results = (await tx.query(this.beginSql(tx, batchSize))) as unknown as QueryResult[];
      if (!results[1].rows[0]) {
        // No row locked: the group's first pass (its checkpoint row is missing), or another transaction
        // holds the row (another process works this group, or a rebuild's swap pauses it). A missing row
        // is created in a statement of its own and the pass starts again, so that what batchStart set up
        // (the runner's savepoint) comes after the row: rolling back to it must not take the row away.
        await tx.query('ROLLBACK');
        const created = await tx.query(
          `INSERT INTO ${this.t.schema}.subscription_checkpoints (group_name, source, partition) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING`,
          [this.o.group, this.o.source],
        );
        if (created.rowCount === 0) return 0;
        results = (await tx.query(this.beginSql(tx, batchSize))) as unknown as QueryResult[];
      }
      const locked = results[1].rows[0] as { transaction_id: string; global_position: string } | undefined;
      if (!locked) {
        await tx.query('ROLLBACK');
        return 0;
      }
      const from: Position = { transactionId: locked.transaction_id, globalPosition: Number(locked.global_position) };
      events = (results[2].rows as EventRow[]).map(toRecorded);
      this.lastSeen = from;
      if (events.length === 0) {
        // Nothing to save: rolling back releases the lock without a commit record to flush.
        await tx.query('ROLLBACK');
        return 0;
      }
      // After BEGIN, the checkpoint and the events: what batchStart's statements answered.
      const result = await this.o.handle(events, tx, this.o.batchStart ? results.slice(3) : undefined);
      const handled = result ? Math.max(0, Math.min(result.handled, events.length)) : events.length;
      const last = handled > 0 ? { transactionId: events[handled - 1].transactionId, globalPosition: events[handled - 1].globalPosition } : null;
      await tx.query(last ? `${this.saveSql(tx, last)}; COMMIT` : 'COMMIT');
      if (last) this.lastSeen = last;
      // The handler asked to stop after part of the batch: this subscription ends here.
      if (handled < events.length) this.running = false;
      return handled;
    } catch (err) {
      await tx.query('ROLLBACK').catch(() => undefined);
      this.o.onError?.(err, events);
      throw err;
    }
  }

  /** The checkpoint row of this group and source, as a WHERE clause with literals (simple protocol: several statements in one round trip). */
  private checkpointWhere(tx: PoolClient): string {
    return `group_name = ${tx.escapeLiteral(this.o.group)} AND source = ${tx.escapeLiteral(this.o.source)} AND partition = 0`;
  }

  /** BEGIN; lock the checkpoint (skipped when another transaction holds it); read up to `limit` events after it; the subscriber's batchStart. */
  private beginSql(tx: PoolClient, limit: number): string {
    const cp = `${this.t.schema}.subscription_checkpoints`;
    const where = this.checkpointWhere(tx);
    return `BEGIN;
      SELECT transaction_id::text, global_position FROM ${cp} WHERE ${where} FOR UPDATE SKIP LOCKED;
      SELECT ${EVENT_COLUMNS} FROM ${this.o.source}.events e
      WHERE (e.transaction_id, e.global_position) > ((SELECT transaction_id FROM ${cp} WHERE ${where}), (SELECT global_position FROM ${cp} WHERE ${where}))
        AND e.transaction_id < ${SAFE_READ_BOUND}
      ORDER BY e.transaction_id, e.global_position
      LIMIT ${Math.trunc(limit)}${this.o.batchStart ? `;\n      ${this.o.batchStart}` : ''}`;
  }

  /** The checkpoint's update to `to` (its row is locked by this transaction). */
  private saveSql(tx: PoolClient, to: Position): string {
    if (!/^\d+$/.test(to.transactionId) || !Number.isSafeInteger(to.globalPosition)) throw new Error(`Posición inválida: ${to.transactionId}/${to.globalPosition}`);
    return `UPDATE ${this.t.schema}.subscription_checkpoints SET transaction_id = '${to.transactionId}'::xid8, global_position = ${to.globalPosition}, updated_at = now()
            WHERE ${this.checkpointWhere(tx)}`;
  }
}
