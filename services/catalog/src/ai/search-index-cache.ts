import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { AI_SEARCH_MAX_SUGGESTIONS, type SearchSuggestion } from '@tiendita/contracts';
import { SearchIndex, type SearchDoc } from '@tiendita/ai';
import { PG_POOL, SERVICE_CONFIG, SERVICE_LOGGER } from '@tiendita/service-kit';
import { Client, type Pool } from 'pg';
import type { Logger } from 'pino';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CatalogConfig } from '../config';
import { PRODUCTS_CHANGED_CHANNEL } from '../read-model/catalog.projection';
import { isUuid } from '../shared/sql';

/** How long a store's subdomain → id answer is used before it is asked again (in the background). */
export const STORE_TTL_MS = 3000;
/**
 * How often every index is compared with the read model row by row (ids and row versions), for what
 * no notification told: a missed NOTIFY while the listener reconnected, a projection replay's swap.
 */
export const FULL_CHECK_MS = 60_000;
/** An index nobody searched for this long is dropped (memory); the next search builds it again. */
export const IDLE_MS = 30 * 60_000;
/** Products indexed between two turns of the event loop while building: searches of other stores go on meanwhile. */
const CHUNK = 500;
/** Changes announced close together are loaded with one query. */
const COALESCE_MS = 20;

interface ProductRow {
  id: string;
  v: string;
  name: string;
  description: string | null;
  sku: string | null;
  category_name: string | null;
  final_price_centavos: string;
  public_json: string;
  is_active: boolean;
}

interface Entry {
  storeId: string;
  index: SearchIndex<string>;
  /** Row version (xmin) of each indexed product, to tell changed rows in a full check. */
  versions: Map<string, string>;
  /** Resolves once the first load is in. */
  ready: Promise<void>;
  /** Products announced as changed and not yet reloaded; 'all' for a full check. */
  pending: Set<string> | 'all' | null;
  syncing: Promise<void> | null;
  lastUsed: number;
}

interface StoreRef {
  id: string;
  checkedAt: number;
  refreshing: boolean;
}

const COLUMNS = 'id, xmin::text AS v, name, description, sku, category_name, final_price_centavos, public_json, is_active';

/**
 * One in-memory search index per store (libs/ai SearchIndex over the store's active products,
 * from the catalog read model), kept current product by product: the catalog projection
 * announces the products each committed batch changed (NOTIFY catalog_products_changed), and
 * the cache reloads just those rows. A search never waits for the database once its store's
 * index is loaded. Every catalog process listens, so each keeps its own indexes current.
 */
@Injectable()
export class SearchIndexCache implements OnModuleInit, OnModuleDestroy {
  private readonly entries = new Map<string, Entry>();
  private readonly stores = new Map<string, StoreRef>();
  private listener: Client | null = null;
  private listening: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private flushTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    @Inject(PG_POOL) private readonly pool: Pool,
    @Inject(SERVICE_CONFIG) private readonly config: CatalogConfig,
    @Inject(SERVICE_LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => this.sweep(), FULL_CHECK_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    await Promise.allSettled([...this.entries.values()].map((e) => e.syncing));
    await this.listener?.end().catch(() => undefined);
    this.listener = null;
  }

  /** The active store named by subdomain or id, or null. Answers from memory, checking again in the background after STORE_TTL_MS. */
  async resolveStore(store: string): Promise<string | null> {
    const key = store.toLowerCase();
    const cached = this.stores.get(key);
    if (cached) {
      if (!cached.refreshing && Date.now() - cached.checkedAt > STORE_TTL_MS) {
        cached.refreshing = true;
        this.lookUpStore(key)
          .then((id) => (id ? this.stores.set(key, { id, checkedAt: Date.now(), refreshing: false }) : this.stores.delete(key)))
          .catch(() => (cached.refreshing = false));
      }
      return cached.id;
    }
    const id = await this.lookUpStore(key);
    // Only stores that exist are remembered: a store opened a moment ago is found on its first search.
    if (id) {
      if (this.stores.size > 10_000) this.stores.clear();
      this.stores.set(key, { id, checkedAt: Date.now(), refreshing: false });
    }
    return id;
  }

  private async lookUpStore(key: string): Promise<string | null> {
    const byId = isUuid(key);
    const r = await this.pool.query<{ id: string }>({
      name: `catalog_ai_store_${byId ? 'id' : 'sub'}`,
      text: byId ? 'SELECT id FROM catalog.stores WHERE id = $1::uuid AND is_active' : 'SELECT id FROM catalog.stores WHERE subdomain = $1 AND is_active LIMIT 1',
      values: [key],
    });
    return r.rows[0]?.id ?? null;
  }

  /** The store's index: loaded on first use, then kept current by the projection's notifications. */
  async index(storeId: string): Promise<SearchIndex<string>> {
    let entry = this.entries.get(storeId);
    if (!entry) {
      entry = this.load(storeId);
      this.entries.set(storeId, entry);
      entry.ready.catch(() => this.entries.get(storeId) === entry && this.entries.delete(storeId));
    }
    entry.lastUsed = Date.now();
    await entry.ready;
    return entry.index;
  }

  /** Drops every index and store answer (tests). */
  clear(): void {
    this.entries.clear();
    this.stores.clear();
  }

  private load(storeId: string): Entry {
    const entry: Entry = { storeId, index: new SearchIndex<string>(), versions: new Map(), ready: Promise.resolve(), pending: null, syncing: null, lastUsed: Date.now() };
    entry.ready = (async () => {
      // Listen first: a change committed while the rows are read is then announced, and reloaded after.
      await this.listen();
      const r = await this.pool.query<ProductRow>({
        name: 'catalog_ai_index_rows',
        text: `SELECT ${COLUMNS} FROM catalog.products WHERE store_id = $1 AND is_active`,
        values: [storeId],
      });
      await this.apply(entry, r.rows, []);
    })();
    return entry;
  }

  /** Puts rows in (active ones) or out (inactive ones, and `gone` ids), yielding to other requests every CHUNK products. */
  private async apply(entry: Entry, rows: ProductRow[], gone: Iterable<string>): Promise<void> {
    let n = 0;
    for (const row of rows) {
      if (row.is_active) {
        if (entry.versions.get(row.id) !== row.v) {
          entry.index.upsert(toDoc(row));
          entry.versions.set(row.id, row.v);
        }
      } else if (entry.index.remove(row.id)) entry.versions.delete(row.id);
      if (++n % CHUNK === 0) await nextTurn();
    }
    for (const id of gone) if (entry.index.remove(id)) entry.versions.delete(id);
  }

  /** One dedicated connection LISTENs for the projection's announcements; it reconnects after an error and then checks every index in full. */
  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const client = new Client({ connectionString: this.config.DATABASE_URL, application_name: 'tiendita-catalog-search' });
      client.on('notification', (msg) => this.announced(msg.payload ?? ''));
      client.on('error', (error) => {
        this.logger.warn({ err: error }, 'la búsqueda perdió su conexión de avisos; se reconecta');
        if (this.listener === client) this.reconnect();
      });
      await client.connect();
      await client.query(`LISTEN ${PRODUCTS_CHANGED_CHANNEL}`);
      this.listener = client;
    })();
    this.listening.catch(() => (this.listening = null));
    return this.listening;
  }

  private reconnect(): void {
    const old = this.listener;
    this.listener = null;
    this.listening = null;
    old?.end().catch(() => undefined);
    if (this.closed) return;
    setTimeout(() => {
      if (this.closed || this.entries.size === 0) return;
      this.listen()
        .then(() => this.sweep(true))
        .catch(() => this.reconnect());
    }, 1000).unref();
  }

  private announced(payload: string): void {
    const colon = payload.indexOf(':');
    const storeId = colon < 0 ? payload : payload.slice(0, colon);
    const entry = this.entries.get(storeId);
    if (!entry) return;
    if (colon < 0) entry.pending = 'all';
    else if (entry.pending !== 'all') {
      entry.pending ??= new Set();
      for (const id of payload.slice(colon + 1).split(',')) if (id) entry.pending.add(id);
    }
    this.flushTimer ??= setTimeout(() => {
      this.flushTimer = null;
      for (const e of this.entries.values()) if (e.pending) this.sync(e);
    }, COALESCE_MS);
  }

  /** Full checks of every index; drops the ones nobody used for IDLE_MS. */
  private sweep(force = false): void {
    const now = Date.now();
    for (const [storeId, entry] of this.entries) {
      if (!force && now - entry.lastUsed > IDLE_MS) {
        this.entries.delete(storeId);
        continue;
      }
      entry.pending = 'all';
      this.sync(entry);
    }
  }

  /** Reloads what is pending for the store, one reload at a time; changes announced meanwhile are taken by the next round. */
  private sync(entry: Entry): void {
    if (entry.syncing) return;
    entry.syncing = (async () => {
      await entry.ready;
      while (entry.pending && !this.closed && this.entries.get(entry.storeId) === entry) {
        const pending = entry.pending;
        entry.pending = null;
        if (pending === 'all') await this.checkAll(entry);
        else await this.reload(entry, [...pending]);
      }
    })()
      .catch((error: unknown) => {
        this.logger.warn({ err: error, storeId: entry.storeId }, 'no se pudo actualizar el índice de búsqueda; se revisa completo en la próxima ronda');
        entry.pending = 'all';
      })
      .finally(() => (entry.syncing = null));
  }

  private async reload(entry: Entry, ids: string[]): Promise<void> {
    const valid = ids.filter(isUuid);
    for (let i = 0; i < valid.length; i += 1000) {
      const batch = valid.slice(i, i + 1000);
      const r = await this.pool.query<ProductRow>({
        name: 'catalog_ai_index_changed',
        text: `SELECT ${COLUMNS} FROM catalog.products WHERE id = ANY($1::uuid[]) AND store_id = $2`,
        values: [batch, entry.storeId],
      });
      const found = new Set(r.rows.map((row) => row.id));
      // A deleted product has no row any more.
      await this.apply(entry, r.rows, batch.filter((id) => !found.has(id)));
    }
  }

  /** Compares ids and row versions with the read model; reloads only what differs. */
  private async checkAll(entry: Entry): Promise<void> {
    const r = await this.pool.query<{ id: string; v: string }>({
      name: 'catalog_ai_index_versions',
      text: 'SELECT id, xmin::text AS v FROM catalog.products WHERE store_id = $1 AND is_active',
      values: [entry.storeId],
    });
    const live = new Set<string>();
    const changed: string[] = [];
    for (const row of r.rows) {
      live.add(row.id);
      if (entry.versions.get(row.id) !== row.v) changed.push(row.id);
    }
    const gone = [...entry.versions.keys()].filter((id) => !live.has(id));
    if (gone.length > 0) await this.apply(entry, [], gone);
    if (changed.length > 0) await this.reload(entry, changed);
  }
}

function toDoc(row: ProductRow): SearchDoc<string> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    sku: row.sku,
    categoryName: row.category_name,
    finalPriceCentavos: Number(row.final_price_centavos),
    payload: row.public_json,
  };
}

/** A suggestion: the product's public JSON, as the shop's list shows it. */
export function toSuggestion(publicJson: string): SearchSuggestion {
  return JSON.parse(publicJson) as SearchSuggestion;
}

export const SUGGESTION_LIMIT = AI_SEARCH_MAX_SUGGESTIONS;
