import { OWNER_ONLY_PATHS, PUBLIC_PATHS } from '../app/paths';
import { RESERVED_SUBDOMAINS } from '@tiendita/contracts/constants';

/** The store shown when a shop path names none (spec 001 §2). */
export const DEFAULT_STORE = 'demo';

/** What a shop URL asks for: a store, and a product of it when the path is a product path. */
export interface ShopRoute {
  store: string;
  productId: string | null;
}

const PRODUCT_PATH = /^\/([^/]+)\/product\/([^/]+)\/?$/;
const TIENDA_PATH = /^\/tienda\/([^/]*)\/?$/;
const SLUG_PATH = /^\/([a-z0-9-]+)\/?$/;

const OWNER_SEGMENTS = [...OWNER_ONLY_PATHS, ...Object.values(PUBLIC_PATHS)].map((p) => p.slice(1));
/** First path segments that belong to the owner app, the auth screens, the API or static files. */
const RESERVED = new Set<string>([...RESERVED_SUBDOMAINS, ...OWNER_SEGMENTS].filter((s) => s !== DEFAULT_STORE));

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The shop routes of spec 001 §2, in their precedence: a product path /{store}/product/{id}, a path under
 * /tienda/{name}, a single lowercase slug that no owner screen uses (/{subdomain}), and any path whose query
 * has store. The identifier comes from the path, else the store query, else 'demo'. The bare slug keeps its
 * pretty URL rather than being rewritten to /?store={slug}: both name the same store, and a shared /{slug}
 * link stays readable and keeps its link preview.
 */
export function matchShopRoute(location: { pathname: string; search: string }): ShopRoute | null {
  const { pathname } = location;
  const queryStore = new URLSearchParams(location.search).get('store')?.trim() || null;

  const product = PRODUCT_PATH.exec(pathname);
  if (product && !RESERVED.has(product[1])) return { store: decode(product[1]), productId: decode(product[2]) };

  const tienda = TIENDA_PATH.exec(pathname);
  if (tienda || pathname.startsWith('/tienda/')) {
    const name = tienda?.[1] ? decode(tienda[1]) : null;
    return { store: name || queryStore || DEFAULT_STORE, productId: null };
  }

  const slug = SLUG_PATH.exec(pathname);
  if (slug && !RESERVED.has(slug[1])) return { store: slug[1], productId: null };

  if (queryStore) return { store: queryStore, productId: null };
  return null;
}

/** The store's home in the shop: /tienda/{subdomain}. */
export function storeHomePath(store: string): string {
  return `/tienda/${encodeURIComponent(store)}`;
}

/** A product's own page: /{store}/product/{id}. */
export function productPath(store: string, productId: string): string {
  return `/${encodeURIComponent(store)}/product/${encodeURIComponent(productId)}`;
}
