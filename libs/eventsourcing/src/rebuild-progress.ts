/** What a rebuild reports while it runs (the replay tool draws its progress bar from it). */
export interface RebuildProgress {
  projection: string;
  /** build: from position 0 into the shadow tables; catch-up: the events appended meanwhile; swap: verify and rename. */
  phase: 'build' | 'catch-up' | 'swap';
  source: string;
  /** Events applied to the shadow tables so far. */
  done: number;
  /** Events to apply in all (grows while the sources grow). */
  total: number;
  eventsPerSecond: number;
  /** Seconds left at the current rate; null before the first batch. */
  etaSeconds: number | null;
}

/**
 * Counts a rebuild's events and reports its progress (events done and total, events/s, ETA) at
 * most every 100 ms, and always when forced or done.
 */
export class ProgressMeter {
  done = 0;
  total = 0;
  private readonly started = Date.now();
  private lastReport = 0;

  constructor(
    private readonly projection: string,
    private readonly onProgress?: (p: RebuildProgress) => void,
  ) {}

  /** `n` more events applied in `phase` from `source`. */
  add(n: number, phase: RebuildProgress['phase'], source: string): void {
    this.done += n;
    this.report(phase, source, false);
  }

  report(phase: RebuildProgress['phase'], source: string, force: boolean): void {
    if (!this.onProgress) return;
    const now = Date.now();
    if (!force && now - this.lastReport < 100 && this.done < this.total) return;
    this.lastReport = now;
    const seconds = Math.max((now - this.started) / 1000, 1e-3);
    const eps = this.done / seconds;
    const total = Math.max(this.total, this.done);
    this.onProgress({
      projection: this.projection,
      phase,
      source,
      done: this.done,
      total,
      eventsPerSecond: eps,
      etaSeconds: this.done > 0 ? (total - this.done) / eps : null,
    });
  }
}
