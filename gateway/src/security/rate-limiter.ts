import { AuthMessages } from '@tiendita/contracts';
import { TooManyRequestsError } from '@tiendita/eventsourcing';
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';

/** One counter: at most `limit` hits per fixed window of `windowSeconds`. */
export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/** A bucket key for an account or token without keeping the value itself: a short sha256. */
export function keyOf(value: string): string {
  return createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/**
 * Fixed-window counters in PostgreSQL (table gateway.rate_limits), so every gateway process
 * agrees. A window ends by itself: nobody is ever locked out for good.
 */
export class RateLimiter {
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly table: string,
  ) {}

  /** Counts one hit in each rule's window (one round trip); 429 with Retry-After when any is over. */
  async hit(rules: RateRule[]): Promise<void> {
    if (rules.length === 0) return;
    const r = await this.pool.query<{ hits: number; retry: number; limit: number }>(
      `WITH input AS (
         SELECT b, w, l, to_timestamp(floor(extract(epoch FROM now()) / w) * w) AS ws
         FROM unnest($1::text[], $2::int[], $3::int[]) AS u(b, w, l)
       )
       INSERT INTO ${this.table} AS t (bucket, window_start, hits)
       SELECT b, ws, 1 FROM input
       ON CONFLICT (bucket, window_start) DO UPDATE SET hits = t.hits + 1
       RETURNING hits,
         (SELECT l FROM input WHERE input.b = t.bucket) AS limit,
         ceil(extract(epoch FROM (t.window_start + make_interval(secs => (SELECT w FROM input WHERE input.b = t.bucket)) - now())))::int AS retry`,
      [rules.map((x) => x.bucket), rules.map((x) => x.windowSeconds), rules.map((x) => x.limit)],
    );
    this.throwIfOver(r.rows);
  }

  /** 429 if a rule's window is already full, without counting (e.g. failed logins before trying). */
  async check(rules: RateRule[]): Promise<void> {
    if (rules.length === 0) return;
    const r = await this.pool.query<{ hits: number; retry: number; limit: number }>(
      `SELECT t.hits, u.l AS limit,
              ceil(extract(epoch FROM (t.window_start + make_interval(secs => u.w) - now())))::int AS retry
       FROM unnest($1::text[], $2::int[], $3::int[]) AS u(b, w, l)
       JOIN ${this.table} t ON t.bucket = u.b AND t.window_start = to_timestamp(floor(extract(epoch FROM now()) / u.w) * u.w)
       WHERE t.hits >= u.l`,
      [rules.map((x) => x.bucket), rules.map((x) => x.windowSeconds), rules.map((x) => x.limit)],
    );
    if (r.rows.length > 0) this.raise(r.rows);
  }

  private throwIfOver(rows: { hits: number; retry: number; limit: number }[]): void {
    const over = rows.filter((row) => row.hits > row.limit);
    if (over.length > 0) this.raise(over);
  }

  private raise(rows: { retry: number }[]): never {
    const retry = Math.max(1, ...rows.map((row) => row.retry));
    throw new TooManyRequestsError(AuthMessages.tooManyRequests, retry);
  }

  /** Drops windows that ended more than a day ago, now and then. */
  startSweeping(intervalMs = 15 * 60 * 1000): void {
    this.sweeper = setInterval(() => {
      this.pool.query(`DELETE FROM ${this.table} WHERE window_start < now() - interval '1 day'`).catch(() => undefined);
    }, intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
