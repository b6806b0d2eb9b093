import { ForbiddenError } from '@tiendita/service-kit';
import type { FastifyRequest } from 'fastify';

export const CSRF_MESSAGE = 'Solicitud rechazada: el origen no está permitido';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

interface OriginOptions {
  publicUrl?: string;
  allowedOrigins: string[];
}

/** Where a request says it comes from: Origin, else Referer (a literal 'null' Origin claims nothing). */
function claimedOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  if (typeof origin === 'string') return origin !== 'null' ? originOf(origin) : null;
  return typeof referer === 'string' ? originOf(referer) : null;
}

/** Whether a request's Origin (else Referer) is this site: its own origin, PUBLIC_URL or ALLOWED_ORIGINS. */
function createOwnOriginTest(options: OriginOptions): (request: FastifyRequest) => boolean {
  const fixed = new Set<string>(options.allowedOrigins.map((o) => originOf(o)).filter((o): o is string => o !== null));
  if (options.publicUrl) {
    const own = originOf(options.publicUrl);
    if (own) fixed.add(own);
  }
  return (request) => {
    const claimed = claimedOrigin(request);
    return claimed !== null && (fixed.has(claimed) || claimed === ownOrigin(request));
  };
}

/**
 * CSRF defence by origin: a state-changing call must say where it comes from (Origin, else
 * Referer) and that must be this site (the Host the browser used, PUBLIC_URL or ALLOWED_ORIGINS).
 * Browsers always send Origin on cross-site writes; a call that sends neither is refused too.
 */
export function createOriginCheck(options: OriginOptions) {
  const fromOwnOrigin = createOwnOriginTest(options);
  return function checkOrigin(request: FastifyRequest): void {
    if (SAFE_METHODS.has(request.method)) return;
    if (fromOwnOrigin(request)) return;
    throw new ForbiddenError(CSRF_MESSAGE);
  };
}

/**
 * For the few GETs that change state (GET /api/logout): true only for a navigation the browser
 * says is same-origin or typed by the user (Sec-Fetch-Site same-origin / none); without that
 * header (older browsers), an Origin or Referer of this site. An <img> or link on another site
 * is 'cross-site' (or 'same-site' from a sibling domain) and gets false.
 */
export function createSameSiteNavigationCheck(options: OriginOptions): (request: FastifyRequest) => boolean {
  const fromOwnOrigin = createOwnOriginTest(options);
  return (request) => {
    const site = request.headers['sec-fetch-site'];
    if (typeof site === 'string') return site === 'same-origin' || site === 'none';
    return fromOwnOrigin(request);
  };
}

/** The origin the browser used to reach us: scheme and Host (X-Forwarded-* only with TRUST_PROXY). */
export function ownOrigin(request: FastifyRequest): string {
  const raw = `${request.protocol}://${request.host}`;
  // Through URL so a default port matches what browsers send (Host 'x:80' ↔ Origin 'http://x').
  return originOf(raw) ?? raw;
}
