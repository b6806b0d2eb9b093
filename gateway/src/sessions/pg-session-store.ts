import type { Pool } from 'pg';

type Callback<T = void> = (error?: unknown, value?: T) => void;

/** What @fastify/session hands the store: a plain object with a cookie (expires) and passport data. */
interface SessionLike {
  cookie?: { expires?: Date | string | null; originalMaxAge?: number | null };
  [key: string]: unknown;
}

/**
 * @fastify/session store on the spec's `sessions` table (sid, sess json, expire). One indexed
 * lookup per signed-in request; rows past `expire` are never returned and are swept periodically.
 */
export class PgSessionStore {
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly table: string,
    private readonly defaultMaxAgeMs: number,
  ) {}

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
    const expires = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + this.defaultMaxAgeMs);
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
    this.pool.query({ name: 'session_destroy', text: `DELETE FROM ${this.table} WHERE sid = $1`, values: [sid] }).then(() => callback(), (error: unknown) => callback(error));
  }

  /** Ends every session of a user (after a password reset). Returns how many there were. */
  async destroyAllOfUser(userId: string): Promise<number> {
    const r = await this.pool.query(`DELETE FROM ${this.table} WHERE ((sess -> 'passport') ->> 'userId') = $1`, [userId]);
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
