import { ForbiddenError } from '@tiendita/eventsourcing';
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

/**
 * CSRF defence by origin: a state-changing call must say where it comes from (Origin, else
 * Referer) and that must be this site (the Host the browser used, PUBLIC_URL or ALLOWED_ORIGINS).
 * Browsers always send Origin on cross-site writes; a call that sends neither is refused too.
 */
export function createOriginCheck(options: { publicUrl?: string; allowedOrigins: string[] }) {
  const fixed = new Set<string>(options.allowedOrigins.map((o) => originOf(o)).filter((o): o is string => o !== null));
  if (options.publicUrl) {
    const own = originOf(options.publicUrl);
    if (own) fixed.add(own);
  }
  return function checkOrigin(request: FastifyRequest): void {
    if (SAFE_METHODS.has(request.method)) return;
    const origin = request.headers.origin;
    const referer = request.headers.referer;
    const claimed = typeof origin === 'string' && origin !== 'null' ? originOf(origin) : typeof origin !== 'string' && typeof referer === 'string' ? originOf(referer) : null;
    if (claimed && (fixed.has(claimed) || claimed === ownOrigin(request))) return;
    throw new ForbiddenError(CSRF_MESSAGE);
  };
}

/** The origin the browser used to reach us: scheme and Host (X-Forwarded-* only with TRUST_PROXY). */
export function ownOrigin(request: FastifyRequest): string {
  const raw = `${request.protocol}://${request.host}`;
  // Through URL so a default port matches what browsers send (Host 'x:80' ↔ Origin 'http://x').
  return originOf(raw) ?? raw;
}
