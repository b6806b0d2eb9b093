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
}

/**
 * @fastify/session store on the spec's `sessions` table (sid, sess json, expire). One indexed
 * lookup per signed-in request; rows past `expire` are never returned and are swept periodically.
 * A delete is awaited on the durable pool and its failure reaches the caller.
 */
export class PgSessionStore {
  private sweeper: NodeJS.Timeout | null = null;
  private readonly pool: Pool;
  private readonly durablePool: Pool;
  private readonly table: string;

  constructor(private readonly options: PgSessionStoreOptions) {
    this.pool = options.pool;
    this.durablePool = options.durablePool;
    this.table = options.table;
  }

  get(sid: string, callback: Callback<SessionLike | null>): void {
    this.pool
      .query<{ sess: SessionLike }>({ name: 'session_get', text: `SELECT sess FROM ${this.table} WHERE sid = $1 AND expire > now()`, values: [sid] })
      .then((r) => callback(null, r.rows[0]?.sess ?? null), (error: unknown) => callback(error));
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
    this.pool
      .query({
        name: 'session_set',
        text: `INSERT INTO ${this.table} (sid, sess, expire) VALUES ($1, $2, $3)
               ON CONFLICT (sid) DO UPDATE SET sess = EXCLUDED.sess, expire = EXCLUDED.expire`,
        values: [sid, JSON.stringify(session), expires.toISOString()],
      })
      .then(() => callback(), (error: unknown) => callback(error));
  }

  destroy(sid: string, callback: Callback): void {
    this.durablePool.query({ name: 'session_destroy', text: `DELETE FROM ${this.table} WHERE sid = $1`, values: [sid] }).then(() => callback(), (error: unknown) => callback(error));
  }

  /** Ends every session of a user (after a password reset). Returns how many there were. */
  async destroyAllOfUser(userId: string): Promise<number> {
    const r = await this.durablePool.query(`DELETE FROM ${this.table} WHERE ((sess -> 'passport') ->> 'userId') = $1`, [userId]);
    return r.rowCount ?? 0;
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
