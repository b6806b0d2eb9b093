import { AuthMessages } from '@tiendita/contracts';
import { TooManyRequestsError } from '@tiendita/service-kit';
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { addressKey } from './client-address';

/**
 * One counter: at most `limit` hits per fixed window of `windowSeconds`. A bucket of the form
 * `<name>:ip:<address>` counts the address's addressKey: an IPv6 /64 is one address.
 */
export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

/** One rule's window after a count: its hits, and whether it is full (see RateLimiter.count). */
export interface RateState {
  bucket: string;
  hits: number;
  counted: boolean;
  full: boolean;
  retryAfterSeconds: number;
}

/** A per-address bucket (`…:ip:<address>`) keyed by the address's addressKey; any other as it is. */
export function bucketOf(bucket: string): string {
  const match = /^(.+?:ip:)(.+)$/.exec(bucket);
  return match ? `${match[1]}${addressKey(match[2])}` : bucket;
}

/** A bucket key for an account or token without keeping the value itself: a short sha256. */
export function keyOf(value: string): string {
  return createHash('sha256').update(value.trim().toLowerCase()).digest('hex').slice(0, 32);
}

/**
 * Fixed-window counters in PostgreSQL (table gateway.rate_limits), so every gateway process
 * agrees. A window ends by itself: nobody is ever locked out for good. A count's commit does not
 * wait for the WAL flush (a public checkout counts one on its path): hits lost in a crash of the
 * database only let a few more requests through in that window.
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
    const states = await this.count(hits, checks);
    const over = states.filter((state) => state.full);
    if (over.length > 0) this.raise(over);
  }

  /**
   * The state of each rule after counting a hit in each of `hits` and only looking at each of
   * `peeks`, in one round trip. A counted rule is full when this hit went over its limit; a
   * peeked one when its window already holds `limit` hits. A peeked bucket with no hits in its
   * window is answered with hits 0.
   */
  async count(hitRules: RateRule[], peekRules: RateRule[]): Promise<RateState[]> {
    if (hitRules.length === 0 && peekRules.length === 0) return [];
    const original = new Map<string, string>();
    const normalized = (rule: RateRule): RateRule => {
      const bucket = bucketOf(rule.bucket);
      original.set(bucket, rule.bucket);
      return { ...rule, bucket };
    };
    const hits = hitRules.map(normalized);
    const peeks = peekRules.map(normalized);
    const r = await this.pool.query<{ bucket: string; hits: number; counted: boolean; over: boolean; retry: number }>({
      name: 'rate_count',
      text: `WITH cfg AS MATERIALIZED (SELECT set_config('synchronous_commit', 'off', true)),
         hit_input AS (
           SELECT b, w, l, to_timestamp(floor(extract(epoch FROM now()) / w) * w) AS ws
           FROM unnest($1::text[], $2::int[], $3::int[]) AS u(b, w, l), cfg
         ), hits AS (
           INSERT INTO ${this.table} AS t (bucket, window_start, hits)
           SELECT b, ws, 1 FROM hit_input
           ON CONFLICT (bucket, window_start) DO UPDATE SET hits = t.hits + 1
           RETURNING t.bucket, t.window_start, t.hits
         )
         SELECT h.bucket, h.hits, true AS counted, h.hits > i.l AS over,
                ceil(extract(epoch FROM (h.window_start + make_interval(secs => i.w) - now())))::int AS retry
         FROM hits h JOIN hit_input i ON i.b = h.bucket
         UNION ALL
         SELECT u.b, coalesce(t.hits, 0), false, coalesce(t.hits, 0) >= u.l,
                ceil(extract(epoch FROM (to_timestamp(floor(extract(epoch FROM now()) / u.w) * u.w) + make_interval(secs => u.w) - now())))::int
         FROM unnest($4::text[], $5::int[], $6::int[]) AS u(b, w, l)
         LEFT JOIN ${this.table} t ON t.bucket = u.b AND t.window_start = to_timestamp(floor(extract(epoch FROM now()) / u.w) * u.w)`,
      values: [
        hits.map((x) => x.bucket), hits.map((x) => x.windowSeconds), hits.map((x) => x.limit),
        peeks.map((x) => x.bucket), peeks.map((x) => x.windowSeconds), peeks.map((x) => x.limit),
      ],
    });
    return r.rows.map((row) => ({ bucket: original.get(row.bucket) ?? row.bucket, hits: row.hits, counted: row.counted, full: row.over, retryAfterSeconds: Math.max(1, row.retry) }));
  }

  /** 429 with the Spanish message and the longest Retry-After of `states`. */
  raise(states: { retryAfterSeconds: number }[]): never {
    const retry = Math.max(1, ...states.map((state) => state.retryAfterSeconds));
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
