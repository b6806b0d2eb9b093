/**
 * THE route table of the gateway: which service answers which public path, and whether a session
 * is needed. To add a service's routes, add lines here (and its URL in config.ts / SERVICE_URLS).
 *
 * Patterns: '/api/store' matches that path only; '/api/store/*' matches below it; a pattern that
 * ends in '*' without a slash ('/api/products*') matches anything starting with the text before it.
 * The first matching line wins. The gateway itself owns /api/auth/login, /api/auth/logout,
 * /api/auth/register, /api/auth/forgot-password, /api/auth/reset-password, /api/auth/change-password,
 * /api/auth/sessions/revoke-others, GET /api/logout and GET /api/login, and never forwards /internal/*.
 */
export type ServiceName = 'identity' | 'catalog' | 'ordering' | 'inventory' | 'reporting' | 'fel';

/** 'public': no session (the shop, product images); 'owner': a signed-in owner, tenant from the session. */
export type Access = 'public' | 'owner';

export interface RouteRule {
  pattern: string;
  service: ServiceName;
  access: Access;
  /** Only these methods (default: all). */
  methods?: readonly string[];
  /**
   * 'raw': the body is a file, streamed through up to UPLOAD_LIMIT_BYTES whatever its type (owner
   * routes only). Default 'json': only a JSON body within BODY_LIMIT_BYTES (or none) is accepted;
   * anything else is 415, or 413 when larger than the JSON limit.
   */
  body?: 'json' | 'raw';
}

export const ROUTES: readonly RouteRule[] = [
  // identity
  { pattern: '/api/auth/*', service: 'identity', access: 'owner' },
  { pattern: '/api/store', service: 'identity', access: 'owner' },
  { pattern: '/api/store/*', service: 'identity', access: 'owner' },
  { pattern: '/api/subscriptions', service: 'identity', access: 'owner' },
  { pattern: '/api/subscriptions/*', service: 'identity', access: 'owner' },
  { pattern: '/api/public/store/*', service: 'identity', access: 'public' },
  { pattern: '/api/public/subscribe/*', service: 'identity', access: 'public' },
  // A mailed link opens the shop's page (GET of an older link leads there); its button POSTs the token.
  { pattern: '/api/public/unsubscribe', service: 'identity', access: 'public', methods: ['GET', 'POST'] },
  { pattern: '/api/public/subscription/confirm', service: 'identity', access: 'public', methods: ['POST'] },
  // catalog
  { pattern: '/api/categories*', service: 'catalog', access: 'owner' },
  // The bulk import's preview takes the spreadsheet itself (CSV or XLSX bytes, up to the upload limit).
  { pattern: '/api/products/import/preview', service: 'catalog', access: 'owner', methods: ['POST'], body: 'raw' },
  { pattern: '/api/products*', service: 'catalog', access: 'owner' },
  // PUT {uploadUrl}: the file itself (spec 001: /api/upload/direct/{token} or /objects/{fileName}).
  { pattern: '/api/upload/direct/*', service: 'catalog', access: 'owner', methods: ['PUT'], body: 'raw' },
  { pattern: '/api/upload*', service: 'catalog', access: 'owner' },
  { pattern: '/api/public/products/*', service: 'catalog', access: 'public' },
  { pattern: '/api/public/categories/*', service: 'catalog', access: 'public' },
  { pattern: '/objects/*', service: 'catalog', access: 'public', methods: ['GET', 'HEAD'] },
  { pattern: '/objects/*', service: 'catalog', access: 'owner', body: 'raw' },
  // Product images (the stored path of an upload, spec §7) are seen by shoppers too.
  { pattern: '/temp-uploads/*', service: 'catalog', access: 'public', methods: ['GET', 'HEAD'] },
  { pattern: '/temp-uploads/*', service: 'catalog', access: 'owner', body: 'raw' },
  // AI helpers with the catalog's data (issue 15); the shop's search is public and rate limited.
  { pattern: '/api/ai/enhance-search/*', service: 'catalog', access: 'public', methods: ['POST'] },
  { pattern: '/api/ai/generate-description', service: 'catalog', access: 'owner' },
  { pattern: '/api/ai/customer-response', service: 'catalog', access: 'owner' },
  { pattern: '/api/ai/social-caption', service: 'catalog', access: 'owner' },
  // FEL (issue 25): an order's electronic invoice is the FEL service's, the rest of the order ordering's.
  { pattern: '/api/orders/:id/invoice*', service: 'fel', access: 'owner' },
  { pattern: '/api/fel/*', service: 'fel', access: 'owner' },
  // ordering
  { pattern: '/api/orders*', service: 'ordering', access: 'owner' },
  { pattern: '/api/public/orders/*', service: 'ordering', access: 'public' },
  // A receipt's signed link, sent to the customer by WhatsApp (the signature is checked by ordering).
  { pattern: '/api/public/receipts/*', service: 'ordering', access: 'public', methods: ['GET', 'HEAD'] },
  // inventory
  { pattern: '/api/inventory*', service: 'inventory', access: 'owner' },
  // reporting
  { pattern: '/api/stats', service: 'reporting', access: 'owner' },
  { pattern: '/api/reports*', service: 'reporting', access: 'owner' },
  { pattern: '/api/ai/sales-insights', service: 'reporting', access: 'owner' },
];

/** Path prefixes (besides /api/) the gateway forwards; everything else is the web build. */
export const FORWARDED_ROOTS = ['/objects/', '/temp-uploads/'] as const;

interface CompiledRule extends RouteRule {
  test: (path: string) => boolean;
}

function compile(rule: RouteRule): CompiledRule {
  const { pattern } = rule;
  let test: (path: string) => boolean;
  if (pattern.includes('/:id/')) {
    // One path segment stands for the id ('/api/orders/:id/invoice*').
    const [before, after] = pattern.split('/:id/');
    const tail = after.endsWith('*') ? after.slice(0, -1) : after;
    test = (path) => {
      if (!path.startsWith(`${before}/`)) return false;
      const rest = path.slice(before.length + 1);
      const slash = rest.indexOf('/');
      if (slash <= 0) return false;
      const remainder = rest.slice(slash + 1);
      return after.endsWith('*') ? remainder.startsWith(tail) : remainder === tail;
    };
  } else if (pattern.endsWith('/*')) {
    const prefix = pattern.slice(0, -1);
    test = (path) => path.startsWith(prefix) && path.length > prefix.length;
  } else if (pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    test = (path) => path.startsWith(prefix);
  } else {
    test = (path) => path === pattern;
  }
  return { ...rule, test };
}

const compiled = ROUTES.map(compile);

/** Whether a call may send a raw (non-JSON) body: only to an owner route marked body: 'raw'. */
export function acceptsRawBody(method: string, path: string): boolean {
  const rule = resolveRoute(method, path);
  return rule?.access === 'owner' && rule.body === 'raw';
}

/** The rule for a method and path (no query string), or null: the gateway then answers 404. */
export function resolveRoute(method: string, path: string): RouteRule | null {
  for (const rule of compiled) {
    if (rule.methods && !rule.methods.includes(method)) continue;
    if (rule.test(path)) return rule;
  }
  return null;
}
