import { portVariable, type ServiceConfig, urlVariable } from '@tiendita/service-kit';
import { join } from 'node:path';
import { z } from 'zod';

const milliseconds = (fallback: number) => z.coerce.number({ error: 'debe ser un número entero' }).int('debe ser un número entero').min(0, 'no puede ser negativo').default(fallback);
const countOrZero = (fallback: number) => z.coerce.number({ error: 'debe ser un número entero' }).int('debe ser un número entero').min(0, 'no puede ser negativo').default(fallback);
const count = (fallback: number) => z.coerce.number({ error: 'debe ser un número entero' }).int('debe ser un número entero').min(1, 'debe ser al menos 1').default(fallback);

/** Environment of the gateway: the base variables, the services' URLs, sessions, limits and the web build. */
export const gatewayConfigShape = {
  PORT: portVariable(3000),
  IDENTITY_URL: urlVariable().default('http://127.0.0.1:3001'),
  CATALOG_URL: urlVariable().default('http://127.0.0.1:3002'),
  ORDERING_URL: urlVariable().default('http://127.0.0.1:3003'),
  INVENTORY_URL: urlVariable().default('http://127.0.0.1:3004'),
  REPORTING_URL: urlVariable().default('http://127.0.0.1:3005'),
  FEL_URL: urlVariable().default('http://127.0.0.1:3006'),
  // gateway/src or gateway/dist → web/dist
  WEB_DIST_DIR: z.string().min(1).default(join(__dirname, '..', '..', 'web', 'dist')),

  /**
   * Public address of the site (https://…): trusted as our own origin and the base of every link
   * the site gives out (previews); required, never taken from a request's Host. `npm start` sets
   * http://localhost:<PORT> unless given.
   */
  PUBLIC_URL: urlVariable(),
  /** More origins allowed to make state-changing calls, comma-separated (e.g. a dev server). */
  ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((value) => (value ?? '').split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean)),
  /**
   * Behind a TLS-terminating proxy: '1' trusts the X-Forwarded-* of the immediate peer (one hop),
   * or list the proxies' addresses/CIDRs ('10.0.0.0/8, loopback'). Also marks the session cookie
   * Secure on https. '0' (default): the gateway faces browsers directly.
   */
  TRUST_PROXY: z.string().trim().min(1).default('0'),
  /** Signs the session cookie (≥ 32 characters); derived from INTERNAL_SECRET when missing. */
  SESSION_SECRET: z.string().min(32, 'debe tener al menos 32 caracteres').optional(),
  /** Sliding lifetime: a session unused this long ends. */
  SESSION_MAX_AGE_HOURS: count(24 * 7),
  /** Absolute lifetime: a session this old ends however often it is used (401, row deleted). */
  SESSION_ABSOLUTE_HOURS: count(24 * 30),
  /** Largest JSON body in bytes (413 above); uploads (non-JSON bodies) have UPLOAD_LIMIT_BYTES. */
  BODY_LIMIT_BYTES: count(1024 * 1024),
  UPLOAD_LIMIT_BYTES: count(10 * 1024 * 1024),

  /**
   * Rate limits (counted in PostgreSQL, so every gateway process agrees). The per-address ones are
   * generous: in Guatemala many people reach the internet through one shared address (a mobile
   * carrier's NAT, a shop's or a café's Wi-Fi), and a limit sized for one person would throttle a
   * whole neighbourhood. Guessing is held back per account and per failing address (below), not here.
   */
  RATE_LOGIN_PER_IP: count(300),
  RATE_LOGIN_IP_WINDOW_MIN: count(10),
  /**
   * Failed logins per account from browsers that never signed in to it, per window (10 per 15 min
   * keeps any hour under 100). Once full, such a browser is refused (429) only if its address has
   * failed logins of its own; a browser that signed in before (device cookie) and a clean address
   * still get in, so nobody can lock an owner out by failing on purpose.
   */
  RATE_LOGIN_FAILURES_PER_ACCOUNT: count(10),
  RATE_LOGIN_ACCOUNT_WINDOW_MIN: count(15),
  /** Failed logins per known browser (device cookie) per RATE_LOGIN_ACCOUNT_WINDOW_MIN. */
  RATE_LOGIN_FAILURES_PER_DEVICE: count(10),
  /** While an account's failures are full, a login from an unknown browser waits this long first (ms). */
  RATE_LOGIN_SLOWDOWN_MS: milliseconds(1000),
  RATE_REGISTER_PER_IP: count(100),
  RATE_REGISTER_PER_ACCOUNT: count(5),
  RATE_REGISTER_WINDOW_MIN: count(60),
  RATE_FORGOT_PER_IP: count(30),
  RATE_FORGOT_PER_ACCOUNT: count(3),
  RATE_FORGOT_WINDOW_MIN: count(15),
  RATE_RESET_PER_IP: count(30),
  RATE_RESET_PER_TOKEN: count(5),
  RATE_RESET_WINDOW_MIN: count(15),
  /** Shop subscriptions (POST /api/public/subscribe/*) per address per window. */
  RATE_SUBSCRIBE_PER_IP: count(30),
  RATE_SUBSCRIBE_WINDOW_MIN: count(15),
  /**
   * Public orders (POST /api/public/orders/{store}) one address may place in one store per window
   * (issue 26): each holds stock. Sized for a shared address; the phone's own limits are ordering's.
   */
  RATE_ORDER_PER_IP: count(30),
  RATE_ORDER_WINDOW_MIN: count(10),
  /**
   * Calls the gateway lets wait on one service at once; past it the Spanish 503 at once, which
   * clients retry (proxy/admission.ts). 0: no cap.
   */
  SERVICE_MAX_IN_FLIGHT: countOrZero(64),
};
export type GatewayConfig = ServiceConfig<typeof gatewayConfigShape>;
