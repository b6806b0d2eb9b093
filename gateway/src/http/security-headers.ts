import fastifyHelmet from '@fastify/helmet';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { GatewayConfig } from '../config';

/**
 * Security headers on every answer (API, web build, single-page fallback). The CSP fits the
 * Vite build: scripts only from our origin, inline styles allowed (antd writes style
 * attributes), images also from https (product photos), no framing by other sites.
 */
export async function registerSecurityHeaders(app: NestFastifyApplication, config: GatewayConfig): Promise<void> {
  const behindTls = config.TRUST_PROXY === '1';
  await app.register(fastifyHelmet, {
    global: true,
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
  });
}
