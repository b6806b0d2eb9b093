import type { Pool } from 'pg';
import { notifyChannel } from './event-table';

/** The NOTIFYs that wake an event store's readers after its appends, coalesced (PostgresEventStore). */
export class AppendNotifier {
  private timer: NodeJS.Timeout | null = null;
  private lastNotifyAt = 0;
  private lateTimer: NodeJS.Timeout | null = null;
  private readonly channel: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
    private readonly delayMs: number,
  ) {
    this.channel = notifyChannel(schema);
  }

  /**
   * Coalesces NOTIFYs: at most one per tick, sent after commit on its own, so appends never
   * serialize on the notification queue lock. An append inside the caller's transaction commits
   * later than we can see, so it also gets a trailing notification; the poll interval is the last
   * safety net.
   */
  schedule(inCallerTransaction: boolean): void {
    const send = () => {
      this.lastNotifyAt = Date.now();
      // A NOTIFY takes a transaction id, so its commit would wait for a WAL flush of its own (a
      // second disk sync between an append and its readers waking): the events are durable already.
      return this.pool.query("SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [this.channel, '']).catch(() => undefined);
    };
    if (!this.timer) {
      // An append of its own has committed: the first in a while is announced at once (a lone sale
      // shows up one tick sooner), the next ones within delayMs share one trailing NOTIFY.
      const wait = inCallerTransaction ? this.delayMs : this.lastNotifyAt + this.delayMs - Date.now();
      if (wait <= 0) {
        void send();
      } else {
        this.timer = setTimeout(() => {
          this.timer = null;
          void send();
        }, wait);
        this.timer.unref?.();
      }
    }
    if (inCallerTransaction && !this.lateTimer) {
      this.lateTimer = setTimeout(() => {
        this.lateTimer = null;
        void send();
      }, 50);
      this.lateTimer.unref?.();
    }
  }

  /** Stops pending notifications (call before closing the pool). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.lateTimer) clearTimeout(this.lateTimer);
    this.timer = null;
    this.lateTimer = null;
  }
}
