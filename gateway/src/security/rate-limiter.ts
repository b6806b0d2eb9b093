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
    await this.hitAndCheck(rules, []);
  }

  /** 429 if a rule's window is already full, without counting (e.g. failed logins before trying). */
  async check(rules: RateRule[]): Promise<void> {
    await this.hitAndCheck([], rules);
  }

  /**
   * Counts a hit for each of `hits` and looks at each of `checks` without counting, in one round
   * trip; 429 with Retry-After when any hit goes over its limit or any check is already full.
   */
  async hitAndCheck(hits: RateRule[], checks: RateRule[]): Promise<void> {
    if (hits.length === 0 && checks.length === 0) return;
    const r = await this.pool.query<{ over: boolean; retry: number }>({
      name: 'rate_hit_and_check',
      text: `WITH hit_input AS (
           SELECT b, w, l, to_timestamp(floor(extract(epoch FROM now()) / w) * w) AS ws
           FROM unnest($1::text[], $2::int[], $3::int[]) AS u(b, w, l)
         ), hits AS (
           INSERT INTO ${this.table} AS t (bucket, window_start, hits)
           SELECT b, ws, 1 FROM hit_input
           ON CONFLICT (bucket, window_start) DO UPDATE SET hits = t.hits + 1
           RETURNING t.bucket, t.window_start, t.hits
         )
         SELECT h.hits > i.l AS over, ceil(extract(epoch FROM (h.window_start + make_interval(secs => i.w) - now())))::int AS retry
         FROM hits h JOIN hit_input i ON i.b = h.bucket
         UNION ALL
         SELECT t.hits >= u.l, ceil(extract(epoch FROM (t.window_start + make_interval(secs => u.w) - now())))::int
         FROM unnest($4::text[], $5::int[], $6::int[]) AS u(b, w, l)
         JOIN ${this.table} t ON t.bucket = u.b AND t.window_start = to_timestamp(floor(extract(epoch FROM now()) / u.w) * u.w)`,
      values: [
        hits.map((x) => x.bucket), hits.map((x) => x.windowSeconds), hits.map((x) => x.limit),
        checks.map((x) => x.bucket), checks.map((x) => x.windowSeconds), checks.map((x) => x.limit),
      ],
    });
    const over = r.rows.filter((row) => row.over);
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
