// The files each owner screen needs beyond the entry, as the build wrote them into index.html
// (vite.config.ts, routeChunks): a <meta> whose content is { files, routes: { path: [file index] } }.

/** The <meta name> that carries the map. */
export const ROUTE_CHUNKS_META = 'tiendita-route-chunks';

export interface RouteChunks {
  /** Build files under assets/, each once. */
  files: string[];
  /** Owner path → indexes into `files`. */
  routes: Record<string, number[]>;
}

let cached: RouteChunks | null | undefined;

function readMap(): RouteChunks | null {
  if (cached !== undefined) return cached;
  const content = document.querySelector(`meta[name="${ROUTE_CHUNKS_META}"]`)?.getAttribute('content');
  try {
    cached = content ? (JSON.parse(content) as RouteChunks) : null;
  } catch {
    cached = null;
  }
  return cached;
}

/** The screen a path opens: '/orders/abc/receipt' → '/orders', '/' → '/dashboard'. */
export function routeOf(pathname: string): string {
  const first = pathname.split('/').filter(Boolean)[0];
  return first ? `/${first}` : '/dashboard';
}

/** The files of `routes` (deduplicated), none when the page has no map (the dev server, tests). */
export function routeFiles(routes: string[]): string[] {
  const map = readMap();
  if (!map) return [];
  const indexes = new Set(routes.flatMap((r) => map.routes[r] ?? []));
  return [...indexes].map((i) => `/assets/${map.files[i]}`);
}

function addLink(href: string, rel: string, as?: string): void {
  if (document.head.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement('link');
  link.rel = rel;
  if (as) link.setAttribute('as', as);
  if (rel === 'modulepreload' || as === 'style') link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
}

/** The screens about to run: fetched now, all in parallel (scripts parsed off the page's thread, not run). */
export function preloadRoutes(routes: string[]): void {
  for (const href of routeFiles(routes)) addLink(href, href.endsWith('.css') ? 'preload' : 'modulepreload', href.endsWith('.css') ? 'style' : undefined);
}

/** Milliseconds of link-adding per idle period: each <link> starts a request on the page's thread. */
const PREFETCH_SLICE_MS = 6;

/**
 * Screens likely opened next: fetched into the cache at low priority, nothing run until they open.
 * The links go in a few at a time, in the browser's idle periods (some 60 files took one long task on
 * a phone), or all at once where there is no requestIdleCallback.
 */
export function prefetchRoutes(routes: string[]): void {
  const queue = routeFiles(routes);
  if (typeof window.requestIdleCallback !== 'function') {
    for (const href of queue) addLink(href, 'prefetch');
    return;
  }
  const slice = () => {
    const end = performance.now() + PREFETCH_SLICE_MS;
    while (queue.length > 0 && performance.now() < end) addLink(queue.shift()!, 'prefetch');
    if (queue.length > 0) window.requestIdleCallback(slice);
  };
  slice();
}
