import type { ProductView } from '@tiendita/contracts';
import type { QueuedSale, QueueStore } from './sale-queue';
import { MemoryQueueStore } from './sale-queue';

/**
 * The POS's IndexedDB ('tiendita-pos'): `sales` (the offline queue, by deviceSaleId), `catalog`
 * (the store's products as last seen online: names, SKUs, final prices, stock) and `meta` (the
 * device's code and its sale counter). No library: four small requests.
 */
const DB_NAME = 'tiendita-pos';
const VERSION = 1;

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains('sales')) db.createObjectStore('sales', { keyPath: 'deviceSaleId' });
      if (!db.objectStoreNames.contains('catalog')) db.createObjectStore('catalog');
      if (!db.objectStoreNames.contains('meta')) db.createObjectStore('meta');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let db: Promise<IDBDatabase> | null = null;
const database = (): Promise<IDBDatabase> => (db ??= open());

/** One request in its own transaction; resolves when the transaction has committed. */
async function run<T>(store: string, mode: IDBTransactionMode, act: (s: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  const tx = (await database()).transaction(store, mode);
  const req = act(tx.objectStore(store));
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** A counter read and increased in one transaction (two tabs never get the same number). */
async function increment(key: string): Promise<number> {
  const tx = (await database()).transaction('meta', 'readwrite');
  const meta = tx.objectStore('meta');
  let next = 0;
  const get = meta.get(key);
  get.onsuccess = () => {
    next = (typeof get.result === 'number' ? get.result : 0) + 1;
    meta.put(next, key);
  };
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve(next);
    tx.onerror = () => reject(tx.error);
  });
}

class IdbQueueStore implements QueueStore {
  all(): Promise<QueuedSale[]> {
    return run('sales', 'readonly', (s) => s.getAll() as IDBRequest<QueuedSale[]>);
  }
  async put(sale: QueuedSale): Promise<void> {
    await run('sales', 'readwrite', (s) => s.put(sale));
  }
  async remove(deviceSaleId: string): Promise<void> {
    await run('sales', 'readwrite', (s) => s.delete(deviceSaleId));
  }
  nextSeq(): Promise<number> {
    return increment('seq');
  }
  /** The device's code never changes once made: read once per page (one transaction less per sale). */
  private code: Promise<string> | null = null;
  deviceCode(): Promise<string> {
    this.code ??= this.readDeviceCode().catch((error: unknown) => {
      this.code = null;
      throw error;
    });
    return this.code;
  }
  private async readDeviceCode(): Promise<string> {
    const known = await run('meta', 'readonly', (s) => s.get('device') as IDBRequest<string | undefined>);
    if (known) return known;
    const alphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
    const bytes = crypto.getRandomValues(new Uint8Array(2));
    const code = `T${alphabet[bytes[0] % alphabet.length]}${alphabet[bytes[1] % alphabet.length]}`;
    await run('meta', 'readwrite', (s) => s.put(code, 'device'));
    return code;
  }
}

/** The queue of this device (IndexedDB; in memory where the browser has none). */
export const queueStore: QueueStore = typeof indexedDB === 'undefined' ? new MemoryQueueStore() : new IdbQueueStore();

export interface CachedCatalog {
  products: ProductView[];
  savedAt: string;
}

export async function saveCatalog(products: ProductView[]): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  await run('catalog', 'readwrite', (s) => s.put({ products, savedAt: new Date().toISOString() } satisfies CachedCatalog, 'products'));
}

export async function loadCatalog(): Promise<CachedCatalog | null> {
  if (typeof indexedDB === 'undefined') return null;
  return (await run('catalog', 'readonly', (s) => s.get('products') as IDBRequest<CachedCatalog | undefined>)) ?? null;
}

interface EarlyRead {
  promise: Promise<CachedCatalog | null>;
  value: CachedCatalog | null | undefined;
}
let early: EarlyRead | null = null;

/**
 * Starts reading the catalogue kept on the device as early as the app knows it opens the POS offline
 * (issue 28: first product within 1 s), so the POS's first render can already show it.
 */
export function preloadCatalog(): Promise<CachedCatalog | null> {
  if (!early) {
    const entry: EarlyRead = { promise: loadCatalog().catch(() => null), value: undefined };
    entry.promise.then((c) => (entry.value = c));
    early = entry;
  }
  return early.promise;
}

/** The early read's answer if it has arrived (undefined otherwise). */
export function preloadedCatalog(): CachedCatalog | null | undefined {
  return early?.value;
}

/** The catalogue as the device last saw it: the early read once (arrived or on its way), then a fresh read each time. */
export function readCatalog(): Promise<CachedCatalog | null> {
  const pending = early?.promise;
  early = null;
  return pending ?? loadCatalog();
}

/** A value the POS keeps for offline use in `meta` (the owner's choice for card sales offline). */
export async function loadMeta<T>(key: string): Promise<T | undefined> {
  if (typeof indexedDB === 'undefined') return undefined;
  return run('meta', 'readonly', (s) => s.get(key) as IDBRequest<T | undefined>);
}

export async function saveMeta(key: string, value: unknown): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  await run('meta', 'readwrite', (s) => s.put(value, key));
}

/** An offline sale's units leave the device's stock too (the next sale sees what is left). */
export async function takeFromCatalog(lines: { productId: string; quantity: number }[]): Promise<void> {
  const cached = await loadCatalog();
  if (!cached) return;
  const sold = new Map(lines.map((l) => [l.productId, l.quantity]));
  const products = cached.products.map((p) => (sold.has(p.id) ? { ...p, stock: Math.max(0, p.stock - sold.get(p.id)!) } : p));
  await run('catalog', 'readwrite', (s) => s.put({ products, savedAt: cached.savedAt } satisfies CachedCatalog, 'products'));
}
