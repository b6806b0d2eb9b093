import type { Pool } from 'pg';
import { notifyChannel } from './event-table';

/** NOTIFYs at most this often (ms) while appends are few: a write shows up in the read models within a few ms. */
export const NOTIFY_DELAY_MS = 5;

/**
 * NOTIFYs at most this often (ms) under a steady stream (BUSY_APPENDS_PER_SECOND or more, counted per quarter
 * second). Each NOTIFY is a round trip and a commit for the appender and a wake-up of every
 * process that listens (four or five per source here): at 100 checkouts a second, 5 ms sent one
 * per append (1.8 per checkout); 50 ms sends at most 20 a second per store. A reader that needs an
 * event now does not wait for it: read-your-writes (ProjectionHost.fresh, waitForPosition) wakes
 * its subscription itself, and a projection gathers 100 ms under a steady stream anyway.
 */
export const BUSY_NOTIFY_DELAY_MS = 50;

/** Appends a second from which a store counts as busy and its NOTIFYs go out at the busy delay. */
export const BUSY_APPENDS_PER_SECOND = 40;

/** Busy is told over windows this long (ms): a burst switches to the busy delay within its first quarter second. */
const BUSY_WINDOW_MS = 250;
const BUSY_APPENDS_PER_WINDOW = (BUSY_APPENDS_PER_SECOND * BUSY_WINDOW_MS) / 1000;

/** The NOTIFYs that wake an event store's readers after its appends, coalesced (PostgresEventStore). */
export class AppendNotifier {
  private timer: NodeJS.Timeout | null = null;
  private lastNotifyAt = 0;
  private lateTimer: NodeJS.Timeout | null = null;
  private readonly channel: string;
  /** Appends in the current window, and in the window before when it came right before. */
  private window = { start: 0, appends: 0, before: 0 };

  constructor(
    private readonly pool: Pool,
    schema: string,
    private readonly quietDelayMs: number,
    private readonly busyDelayMs: number = quietDelayMs,
  ) {
    this.channel = notifyChannel(schema);
  }

  /**
   * The coalescing delay of an append: short while appends are few (an owner's write, then a read
   * of it by a client that does not wait for the read model, sees it within a few ms), longer once
   * BUSY_APPENDS_PER_SECOND come (counted per quarter second, this one or the one before), where
   * each NOTIFY woke every listening process for one or two events.
   */
  private delayFor(now: number): number {
    const w = this.window;
    if (now - w.start >= BUSY_WINDOW_MS) {
      this.window = { start: now, appends: 0, before: now - w.start < 2 * BUSY_WINDOW_MS ? w.appends : 0 };
    }
    this.window.appends++;
    const busy = this.window.appends >= BUSY_APPENDS_PER_WINDOW || this.window.before >= BUSY_APPENDS_PER_WINDOW;
    return busy ? this.busyDelayMs : this.quietDelayMs;
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
    const delayMs = this.delayFor(Date.now());
    if (!this.timer) {
      // An append of its own has committed: the first in a while is announced at once (a lone sale
      // shows up one tick sooner), the next ones within delayMs share one trailing NOTIFY.
      const wait = inCallerTransaction ? delayMs : this.lastNotifyAt + delayMs - Date.now();
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
