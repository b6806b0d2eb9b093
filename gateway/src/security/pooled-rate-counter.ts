import type { Pool } from 'pg';
import { bucketOf, type RateRule, type RateState } from './rate-limiter';

interface Window {
  bucket: string;
  /** The window's start, ms since the epoch (a multiple of its length). */
  startMs: number;
  lengthMs: number;
  limit: number;
  /** Hits in PostgreSQL as of this process's last write of the window (every process's). */
  known: number;
  /** Hits counted here since, not written yet. */
  pending: number;
  /** Hits of a write under way (counted until it answers the new total). */
  writing: number;
}

/**
 * Fixed-window counters for a hot path (a public checkout counts one per request), in the same table
 * as RateLimiter's, without a round trip per request: hits are counted in memory and written every
 * `flushMs` in one statement for every window, which answers each window's total over every gateway
 * process. One process counts exactly; several may together let through what the others accepted in
 * their last `flushMs` beyond a limit. A crash loses at most that long of hits (the counts' commits
 * do not wait for the WAL flush either: see RateLimiter).
 */
export class PooledRateCounter {
  private readonly windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly table: string,
    private readonly flushMs = 200,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one hit in the rule's current window; `full` when it goes over the limit (the hit is counted all the same). */
  hit(rule: RateRule): RateState {
    const bucket = bucketOf(rule.bucket);
    const lengthMs = rule.windowSeconds * 1000;
    const now = this.now();
    const startMs = Math.floor(now / lengthMs) * lengthMs;
    const key = `${bucket}\u0000${startMs}`;
    let w = this.windows.get(key);
    if (!w) {
      w = { bucket, startMs, lengthMs, limit: rule.limit, known: 0, pending: 0, writing: 0 };
      this.windows.set(key, w);
    }
    w.pending += 1;
    this.schedule();
    const hits = w.known + w.writing + w.pending;
    return { bucket: rule.bucket, hits, counted: true, full: hits > rule.limit, retryAfterSeconds: Math.max(1, Math.ceil((startMs + lengthMs - now) / 1000)) };
  }

  /** Writes every window's pending hits now (one statement) and learns each one's total. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timer and writes what is pending (a gateway closing). */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.flushing?.catch(() => undefined);
    await this.flush().catch(() => undefined);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => undefined);
    }, this.flushMs);
    this.timer.unref();
  }

  private async write(): Promise<void> {
    const now = this.now();
    const batch = [...this.windows.values()].filter((w) => w.pending > 0);
    // Windows that ended and have nothing to write are forgotten.
    for (const [key, w] of this.windows) if (w.pending === 0 && w.writing === 0 && w.startMs + w.lengthMs <= now) this.windows.delete(key);
    if (batch.length === 0) return;
    const deltas = batch.map((w) => w.pending);
    batch.forEach((w) => {
      w.writing = w.pending;
      w.pending = 0;
    });
    try {
      const r = await this.pool.query<{ bucket: string; start_ms: string; hits: number }>({
        name: 'rate_pooled_write',
        text: `WITH cfg AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true))
               INSERT INTO ${this.table} AS t (bucket, window_start, hits)
               SELECT u.b, to_timestamp(u.s / 1000.0), u.d FROM unnest($1::text[], $2::bigint[], $3::int[]) AS u(b, s, d), cfg
               ON CONFLICT (bucket, window_start) DO UPDATE SET hits = t.hits + EXCLUDED.hits
               RETURNING t.bucket, (extract(epoch FROM t.window_start) * 1000)::bigint::text AS start_ms, t.hits`,
        values: [batch.map((w) => w.bucket), batch.map((w) => w.startMs), deltas],
      });
      for (const row of r.rows) {
        const w = this.windows.get(`${row.bucket}\u0000${row.start_ms}`);
        if (w) w.known = row.hits; // the total, this write's hits included
      }
      batch.forEach((w) => (w.writing = 0));
    } catch (err) {
      // Not written: counted again with the next write.
      batch.forEach((w) => {
        w.pending += w.writing;
        w.writing = 0;
      });
      this.schedule();
      throw err;
    }
  }
}
