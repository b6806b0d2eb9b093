import { formatQuetzales, type LinkPreview, RESERVED_SUBDOMAINS } from '@tiendita/contracts';

export type { LinkPreview };
import { InternalClient, NotFoundError } from '@tiendita/service-kit';

/** The shop page a path shows (spec 001 §2 routes), or null for any other page. */
export type PreviewTarget = { kind: 'store'; store: string } | { kind: 'product'; store: string; productId: string };

const RESERVED = new Set<string>(RESERVED_SUBDOMAINS);
const PRODUCT_PATH = /^\/([^/]+)\/product\/([^/]+)\/?$/;
const TIENDA_PATH = /^\/tienda\/([^/]+)\/?$/;
const SLUG_PATH = /^\/([a-z0-9-]+)\/?$/;

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** Which shop or product a URL (path and query) shows: /tienda/{name}, /{subdomain}, /{store}/product/{id}, /?store=. */
export function previewTarget(url: string): PreviewTarget | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const product = PRODUCT_PATH.exec(path);
  if (product && !RESERVED.has(product[1])) {
    const store = decode(product[1]);
    const productId = decode(product[2]);
    return store && productId ? { kind: 'product', store, productId } : null;
  }
  const tienda = TIENDA_PATH.exec(path);
  if (tienda) {
    const store = decode(tienda[1]);
    return store ? { kind: 'store', store } : null;
  }
  const slug = SLUG_PATH.exec(path);
  if (slug && !RESERVED.has(slug[1])) return { kind: 'store', store: slug[1] };
  const store = q === -1 ? null : new URLSearchParams(url.slice(q + 1)).get('store')?.trim();
  return store ? { kind: 'store', store } : null;
}

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);


/** Absolute URL of a site path (images are stored as /temp-uploads/… or /objects/…). */
function absolute(origin: string, pathOrUrl: string): string {
  return /^https?:\/\//i.test(pathOrUrl) ? pathOrUrl : new URL(pathOrUrl, origin).toString();
}

/** The title and Open Graph tags of a preview (every value HTML-escaped). */
export function renderPreview(preview: LinkPreview, origin: string, pageUrl: string): { title: string; tags: string } {
  const isProduct = preview.type === 'product';
  const price = isProduct && preview.finalPrice !== undefined ? formatQuetzales(preview.finalPrice) : null;
  const before = isProduct && preview.discountPercentage && preview.price !== undefined ? ` (antes ${formatQuetzales(preview.price)})` : '';
  const title = isProduct ? `${preview.title} · ${preview.storeName}` : preview.title;
  const summary = preview.description?.trim() || (isProduct ? `Cómpralo en ${preview.storeName}` : `Visita ${preview.storeName} y pide por WhatsApp`);
  const description = price ? `${price}${before} · ${summary}` : summary;
  const meta: [string, string, string][] = [
    ['name', 'description', description],
    ['property', 'og:site_name', 'Tiendita'],
    ['property', 'og:locale', 'es_GT'],
    ['property', 'og:type', preview.type],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', absolute(origin, pageUrl)],
    ['name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ];
  if (preview.image) {
    const image = absolute(origin, preview.image);
    meta.push(['property', 'og:image', image], ['property', 'og:image:alt', preview.title], ['name', 'twitter:image', image]);
  }
  if (isProduct && preview.finalPrice !== undefined) {
    meta.push(['property', 'product:price:amount', preview.finalPrice.toFixed(2)], ['property', 'product:price:currency', 'GTQ']);
  }
  const tags = meta.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`).join('\n    ');
  return { title: escapeHtml(title), tags };
}

/** index.html with the preview's title, its description replaced and the Open Graph tags (and any `extra` tags) before </head>. */
export function injectPreview(html: string, rendered: { title: string; tags: string }, extra = ''): string {
  let out = html.replace(/<title>[\s\S]*?<\/title>/i, `<title>${rendered.title}</title>`);
  out = out.replace(/\s*<meta\s+name="description"[^>]*>/i, '');
  const head = extra ? `${rendered.tags}\n    ${extra}` : rendered.tags;
  return out.includes('</head>') ? out.replace('</head>', `    ${head}\n  </head>`) : out;
}

export interface LinkPreviewOptions {
  catalogUrl: string;
  /** Identity, asked (only when catalog does not know a shop's name) whether it is a subdomain the store left. */
  identityUrl?: string;
  internalSecret: string;
  /** Longest wait for catalog before the page goes out without a preview. */
  timeoutMs?: number;
  /** How long an answer (or a miss) is reused. */
  ttlMs?: number;
}

const MAX_ENTRIES = 2000;

/**
 * Link previews for shared shop and product links (WhatsApp, Facebook read the HTML, not the app):
 * one cheap signed call to catalog per page, cached for a minute; on any failure the page goes
 * out unchanged.
 */
export class LinkPreviews {
  private readonly cache = new Map<string, { at: number; preview: LinkPreview | null }>();

  private readonly client: InternalClient<'catalog' | 'identity'>;
  private readonly moved = new Map<string, { at: number; subdomain: string | null }>();

  constructor(private readonly options: LinkPreviewOptions) {
    this.client = new InternalClient({ catalog: options.catalogUrl, identity: options.identityUrl ?? options.catalogUrl }, options.internalSecret, { connections: 8 });
  }

  /**
   * Where a shop's old link now lives: a store that changed its subdomain keeps /{old} working for
   * 90 days (identity knows), and the page answers a 301 to /{new} so shared links, crawlers and
   * link previews follow it. Null when the path is not a shop page or its name is current/unknown.
   * Asked only when catalog has no shop by that name, so a normal shop visit costs nothing more.
   */
  async redirectFor(url: string): Promise<string | null> {
    if (!this.options.identityUrl) return null;
    const target = previewTarget(url);
    if (!target || /^[0-9a-f-]{36}$/i.test(target.store)) return null;
    const name = target.store.toLowerCase();
    if (await this.fetchPreview({ kind: 'store', store: name })) return null;
    const ttl = this.options.ttlMs ?? 60_000;
    let hit = this.moved.get(name);
    if (!hit || Date.now() - hit.at >= ttl) {
      let subdomain: string | null = null;
      try {
        const store = await this.client.json<{ subdomain?: string }>('identity', 'GET', `/api/public/store/${encodeURIComponent(name)}`, undefined, { userId: null, storeId: null }, { timeoutMs: this.options.timeoutMs ?? 500 });
        subdomain = typeof store.subdomain === 'string' ? store.subdomain : null;
      } catch (error) {
        if (!(error instanceof NotFoundError)) return null; // a failing identity is not cached
      }
      if (this.moved.size >= MAX_ENTRIES) this.moved.delete(this.moved.keys().next().value as string);
      hit = { at: Date.now(), subdomain };
      this.moved.set(name, hit);
    }
    const current = hit.subdomain;
    if (!current || current === name) return null;
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const next = path.replace(new RegExp(`^/(tienda/)?${escaped}(?=/|$)`, 'i'), (_all, tienda: string | undefined) => `/${tienda ?? ''}${current}`);
    return next === path ? null : next + (q === -1 ? '' : url.slice(q));
  }

  /** Closes the connections to catalog. */
  close(): Promise<void> {
    return this.client.close();
  }

  private async fetchPreview(target: PreviewTarget): Promise<LinkPreview | null> {
    const path = target.kind === 'product' ? `/internal/previews/products/${encodeURIComponent(target.productId)}` : `/internal/previews/stores/${encodeURIComponent(target.store)}`;
    const key = path;
    const ttl = this.options.ttlMs ?? 60_000;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < ttl) return hit.preview;
    let preview: LinkPreview | null = null;
    try {
      preview = await this.client.json<LinkPreview>('catalog', 'GET', path, undefined, { userId: null, storeId: null }, { timeoutMs: this.options.timeoutMs ?? 500 });
    } catch (error) {
      if (!(error instanceof NotFoundError)) return null; // a failing catalog is not cached
    }
    if (this.cache.size >= MAX_ENTRIES) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, { at: Date.now(), preview });
    return preview;
  }

  /** The preview of the shop or product page at `url`, or null when it is not one or nothing is known. */
  async lookup(url: string): Promise<LinkPreview | null> {
    const target = previewTarget(url);
    return target ? this.fetchPreview(target) : null;
  }

}
