import type { Pool } from 'pg';

type Callback<T = void> = (error?: unknown, value?: T) => void;

/** What @fastify/session hands the store: a plain object with a cookie (expires) and passport data. */
interface SessionLike {
  cookie?: { expires?: Date | string | null; originalMaxAge?: number | null };
  [key: string]: unknown;
}

export interface PgSessionStoreOptions {
  /** Reads and writes: may commit without waiting for the disk (a lost write signs someone in again). */
  pool: Pool;
  /**
   * Deletes (logout, rotation, expiry, password reset): commits that wait for the disk, so an
   * answer that says a session ended is never undone by a database crash.
   */
  durablePool: Pool;
  table: string;
  /** Expiry of a row whose cookie has none. */
  defaultMaxAgeMs: number;
  /** No row outlives its sign-in (`createdAt` in the session) by more than this. */
  absoluteMaxAgeMs: number;
  /**
   * How long a session read stays in this process's memory (default SESSION_CACHE_MS; 0: none).
   * Every write, logout and reset through this store updates or drops it at once; another gateway
   * process sees a logout made elsewhere within this time.
   */
  cacheMs?: number;
}

/** Default lifetime of a cached session read: the calls of one page load share one read. */
export const SESSION_CACHE_MS = 2000;
/** Sessions kept in memory at most (oldest dropped first). */
const CACHE_ENTRIES = 10_000;

interface CachedSession {
  /** The row's `sess`, as JSON: each hit gets its own copy, never an object another request changed. */
  json: string;
  /** The row's `expire` (ms since the epoch). */
  expire: number;
  /** When this entry stops being used (ms since the epoch). */
  until: number;
  userId: string | null;
}

/**
 * @fastify/session store on the spec's `sessions` table (sid, sess json, expire). One indexed
 * lookup per signed-in request, kept in memory for `cacheMs` (2 s) so the calls that follow reuse
 * it (calls that miss together share one read); rows past `expire` are never returned and are
 * swept periodically. A delete is awaited on the durable pool and its failure reaches the caller;
 * a write or delete drops the session from memory before it is awaited, and a read that started
 * before any write or delete is not kept, so this process never serves a session it ended.
 */
export class PgSessionStore {
  private sweeper: NodeJS.Timeout | null = null;
  private readonly pool: Pool;
  private readonly durablePool: Pool;
  private readonly table: string;

  private readonly cacheMs: number;
  private readonly cache = new Map<string, CachedSession>();
  /** Reads in flight, shared by the calls that miss together. */
  private readonly reading = new Map<string, Promise<{ sess: string; expire: number } | null>>();
  /** Bumped by every write and delete: a read that started before one is not cached. */
  private writes = 0;

  constructor(private readonly options: PgSessionStoreOptions) {
    this.pool = options.pool;
    this.durablePool = options.durablePool;
    this.table = options.table;
    this.cacheMs = options.cacheMs ?? SESSION_CACHE_MS;
  }

  /** Sessions held in memory now (tests). */
  get cachedSessions(): number {
    return this.cache.size;
  }

  get(sid: string, callback: Callback<SessionLike | null>): void {
    const now = Date.now();
    const hit = this.cache.get(sid);
    if (hit) {
      if (hit.until > now && hit.expire > now) {
        callback(null, JSON.parse(hit.json) as SessionLike);
        return;
      }
      this.cache.delete(sid);
    }
    this.read(sid).then(
      (row) => callback(null, row ? (JSON.parse(row.sess) as SessionLike) : null),
      (error: unknown) => callback(error),
    );
  }

  private read(sid: string): Promise<{ sess: string; expire: number } | null> {
    const pending = this.reading.get(sid);
    if (pending) return pending;
    const writesBefore = this.writes;
    const read = this.pool
      .query<{ sess: string; expire: number }>({
        name: 'session_get_text',
        text: `SELECT sess::text AS sess, (extract(epoch FROM expire) * 1000)::float8 AS expire FROM ${this.table} WHERE sid = $1 AND expire > now()`,
        values: [sid],
      })
      .then((r) => {
        const row = r.rows[0] ?? null;
        if (row && this.cacheMs > 0 && this.writes === writesBefore) this.remember(sid, row.sess, row.expire);
        return row;
      })
      .finally(() => {
        if (this.reading.get(sid) === read) this.reading.delete(sid);
      });
    this.reading.set(sid, read);
    return read;
  }

  private remember(sid: string, json: string, expire: number): void {
    if (this.cache.size >= CACHE_ENTRIES) {
      // Expired entries first, then the oldest.
      const now = Date.now();
      for (const [key, entry] of this.cache) if (entry.until <= now || entry.expire <= now) this.cache.delete(key);
      if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    }
    let userId: string | null;
    try {
      const passport = (JSON.parse(json) as { passport?: { userId?: unknown } }).passport;
      userId = typeof passport?.userId === 'string' ? passport.userId : null;
    } catch {
      return;
    }
    this.cache.delete(sid);
    this.cache.set(sid, { json, expire, until: Date.now() + this.cacheMs, userId });
  }

  /** Drops a session from memory, and keeps reads already in flight from putting it back. */
  private forget(sid: string): void {
    this.writes++;
    this.cache.delete(sid);
    this.reading.delete(sid);
  }

  set(sid: string, session: SessionLike, callback: Callback): void {
    // A session with nothing in it is not kept (saveUninitialized: false). regenerate() at login
    // stores the fresh, still empty session right before the login data is saved: skip that write.
    if (!Object.keys(session).some((key) => key !== 'cookie' && session[key] !== undefined)) {
      callback();
      return;
    }
    let expires = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + this.options.defaultMaxAgeMs);
    const createdAt = Number(session.createdAt);
    if (createdAt > 0 && createdAt + this.options.absoluteMaxAgeMs < expires.getTime()) expires = new Date(createdAt + this.options.absoluteMaxAgeMs);
    const json = JSON.stringify(session);
    this.forget(sid);
    const writesBefore = this.writes;
    this.pool
      .query({
        name: 'session_set',
        text: `INSERT INTO ${this.table} (sid, sess, expire) VALUES ($1, $2, $3)
               ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expire = EXCLUDED.expire`,
        values: [sid, json, expires.toISOString()],
      })
      .then(
        () => {
          // What was written is what a read would return now, unless something else was written or
          // deleted meanwhile (then the next call reads the row).
          const alone = this.writes === writesBefore;
          this.forget(sid);
          if (this.cacheMs > 0 && alone && expires.getTime() > Date.now()) this.remember(sid, json, expires.getTime());
          callback();
        },
        (error: unknown) => {
          this.forget(sid);
          callback(error);
        },
      );
  }

  destroy(sid: string, callback: Callback): void {
    // Forgotten before the delete and again once it is done: a read that ran meanwhile may have
    // seen the row still there.
    this.forget(sid);
    this.durablePool.query({ name: 'session_destroy', text: `DELETE FROM ${this.table} WHERE sid = $1`, values: [sid] }).then(
      () => {
        this.forget(sid);
        callback();
      },
      (error: unknown) => {
        this.forget(sid);
        callback(error);
      },
    );
  }

  /** Ends every session of a user (after a password reset). Returns how many there were. */
  async destroyAllOfUser(userId: string): Promise<number> {
    this.forgetUser(userId);
    try {
      const r = await this.durablePool.query(`DELETE FROM ${this.table} WHERE ((sess -> 'passport') ->> 'userId') = $1`, [userId]);
      return r.rowCount ?? 0;
    } finally {
      this.forgetUser(userId);
    }
  }

  /** Ends every session of a user but one (the profile page's 'sign out of other devices'). Returns how many ended. */
  async destroyOthersOfUser(userId: string, keepSid: string): Promise<number> {
    this.forgetUser(userId);
    try {
      const r = await this.durablePool.query(`DELETE FROM ${this.table} WHERE ((sess -> 'passport') ->> 'userId') = $1 AND sid <> $2`, [userId, keepSid]);
      return r.rowCount ?? 0;
    } finally {
      this.forgetUser(userId);
    }
  }

  private forgetUser(userId: string): void {
    this.writes++;
    for (const [sid, entry] of this.cache) if (entry.userId === userId) this.cache.delete(sid);
    this.reading.clear();
  }

  /** Deletes expired rows now and then (every `intervalMs`). */
  startSweeping(intervalMs = 10 * 60 * 1000): void {
    this.sweeper = setInterval(() => {
      this.pool.query(`DELETE FROM ${this.table} WHERE expire < now()`).catch(() => undefined);
    }, intervalMs);
    this.sweeper.unref();
  }

  stopSweeping(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
  }
}
