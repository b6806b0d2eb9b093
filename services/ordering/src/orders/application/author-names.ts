import { Inject, Injectable } from '@nestjs/common';
import { isUuid } from '@tiendita/contracts';
import { PG_POOL, ProjectionHost } from '@tiendita/service-kit';
import type { Pool } from 'pg';

/** What an author without a known name is shown as (never a raw id). */
export const UNKNOWN_AUTHOR = 'Usuario';
export const SYSTEM_AUTHOR = 'Sistema';
const CACHE_SIZE = 1000;
/** How long a name is kept in memory: an owner who changes their name in the profile signs new entries with it within this time. */
const CACHE_MS = 30_000;

/**
 * The display names of the owners who write orders, payments and refunds, from ordering's copy of
 * identity's users (users.projection.ts), kept in memory for CACHE_MS.
 */
@Injectable()
export class AuthorNames {
  private readonly cache = new Map<string, { name: string; until: number }>();

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    private readonly host: ProjectionHost,
  ) {}

  /** The name of the signed-in owner, written into the events they cause. */
  async of(userId: string): Promise<string> {
    let names = await this.lookup([userId]);
    if (!names.has(userId)) {
      // Registered a moment ago: identity's event may not have reached ordering yet.
      await this.host.fresh([{ projection: 'ordering_users', source: 'identity' }]).catch(() => undefined);
      names = await this.lookup([userId]);
    }
    return names.get(userId) ?? UNKNOWN_AUTHOR;
  }

  /** How an author recorded in an event or a row reads: a raw user id (written before names were) becomes the name; 'system' is 'Sistema'. */
  async display(authors: readonly string[]): Promise<(author: string) => string> {
    const ids = [...new Set(authors.filter((a) => isUuid(a)))];
    const names = ids.length ? await this.lookup(ids) : new Map<string, string>();
    return (author) => (author === 'system' ? SYSTEM_AUTHOR : isUuid(author) ? (names.get(author) ?? UNKNOWN_AUTHOR) : author);
  }

  private async lookup(ids: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const now = Date.now();
    const missing = ids.filter((id) => {
      const kept = this.cache.get(id);
      if (kept !== undefined && kept.until > now) out.set(id, kept.name);
      return kept === undefined || kept.until <= now;
    });
    if (missing.length === 0) return out;
    const r = await this.pool.query<{ id: string; name: string }>({ name: 'ordering_author_names', text: 'SELECT id, name FROM ordering.users WHERE id = ANY($1::uuid[])', values: [missing] });
    for (const row of r.rows) {
      out.set(row.id, row.name);
      this.cache.delete(row.id);
      if (this.cache.size >= CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(row.id, { name: row.name, until: now + CACHE_MS });
    }
    return out;
  }
}
