import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { TooManyRequestsError } from '@tiendita/service-kit';

interface Window {
  start: number;
  hits: number;
}

/**
 * Fixed-window counters in the process's memory, for the public AI search: a shopper types a
 * search every second or so, and a database write per keystroke would cost more than the search.
 * Each catalog process counts on its own (with N processes an address gets at most N × limit);
 * a window ends by itself.
 */
@Injectable()
export class SearchRateLimiter implements OnModuleDestroy {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;
  private longestWindowMs = 0;

  constructor() {
    this.sweeper = setInterval(() => this.sweep(Date.now()), 60_000);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  /** Counts one hit for `key`; 429 with Retry-After when the window already had `limit`. */
  hit(key: string, limit: number, windowSeconds: number, message: string, now = Date.now()): void {
    const windowMs = windowSeconds * 1000;
    if (windowMs > this.longestWindowMs) this.longestWindowMs = windowMs;
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, hits: 0 };
      this.windows.set(key, w);
    }
    w.hits++;
    if (w.hits > limit) throw new TooManyRequestsError(message, Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
  }

  /** Forgets windows that are over. */
  sweep(now: number): void {
    for (const [key, w] of this.windows) if (now - w.start >= this.longestWindowMs) this.windows.delete(key);
  }
}
