import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfig } from '../config';

/** helmet's options for the gateway: the CSP fits the Vite build (see securityHeaders). */
export function helmetOptions(config: GatewayConfig): HelmetOptions {
  const behindTls = config.TRUST_PROXY !== '0' && config.TRUST_PROXY !== 'false';
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        // Only behind TLS: on plain http it would send the browser to an https that does not exist.
        ...(behindTls ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Product images may be shown by other sites (shared links); the app itself is same-origin.
    crossOriginResourcePolicy: { policy: 'same-site' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: behindTls ? { maxAge: 15552000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  };
}

/**
 * The security headers, computed once by running helmet against a recording response.
 * (@fastify/helmet rebuilds helmet and re-parses the CSP on every request, ~40 µs each; the
 * headers never vary here, so the gateway sets a ready-made map instead.)
 */
export function securityHeaders(config: GatewayConfig): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(helmetOptions(config))({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return headers;
}

/**
 * Security headers on every answer (API, web build, single-page fallback): scripts only from
 * our origin, inline styles allowed (antd writes style attributes), images also from https
 * (product photos), no framing by other sites.
 */
export function registerSecurityHeaders(app: NestFastifyApplication, config: GatewayConfig): void {
  const headers = securityHeaders(config);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
}
