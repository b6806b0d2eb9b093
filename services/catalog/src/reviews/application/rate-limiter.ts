import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PG_POOL, TooManyRequestsError } from '@tiendita/service-kit';
import type { Pool } from 'pg';

/**
 * Fixed-window rate limit kept in PostgreSQL (catalog.rate_limits), so every catalog process
 * shares the count: one upsert per hit.
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  private readonly sweeper: NodeJS.Timeout;

  constructor(@Inject(PG_POOL) private readonly pool: Pool) {
    // Windows long over are forgotten once an hour, so the table stays small.
    this.sweeper = setInterval(() => {
      this.pool.query(`DELETE FROM catalog.rate_limits WHERE window_start < now() - interval '1 day'`).catch(() => undefined);
    }, 3600_000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  async hit(key: string, limit: number, windowSeconds: number, message: string): Promise<void> {
    const r = await this.pool.query<{ hits: number; retry: number }>({
      name: 'catalog_rate_limit_hit',
      text: `INSERT INTO catalog.rate_limits AS rl (key, window_start, hits) VALUES ($1, now(), 1)
             ON CONFLICT (key) DO UPDATE SET
               hits = CASE WHEN rl.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE rl.hits + 1 END,
               window_start = CASE WHEN rl.window_start <= now() - make_interval(secs => $2) THEN now() ELSE rl.window_start END
             RETURNING hits, GREATEST(1, ceil(extract(epoch FROM window_start + make_interval(secs => $2) - now())))::int AS retry`,
      values: [key, windowSeconds],
    });
    const { hits, retry } = r.rows[0];
    if (hits > limit) throw new TooManyRequestsError(message, retry);
  }
}
