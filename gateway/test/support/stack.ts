/* eslint-disable @typescript-eslint/no-explicit-any -- responses are read loosely in tests, like fetch().json() */
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { RegisterRequest } from '@tiendita/contracts';
import { createTestDatabase, TEST_PUBLIC_URL, testEnv, type TestDatabase } from '@tiendita/service-kit/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
// A port free right now on 127.0.0.1 (a service's, chosen before any service starts so each knows every other's URL).
import { freePort } from '../../../scripts/lib/free-ports.cjs';

export type StackService = 'identity' | 'catalog' | 'ordering' | 'inventory' | 'reporting';

const URL_VARIABLE: Record<StackService, string> = {
  identity: 'IDENTITY_URL',
  catalog: 'CATALOG_URL',
  ordering: 'ORDERING_URL',
  inventory: 'INVENTORY_URL',
  reporting: 'REPORTING_URL',
};

// A port nothing listens on: calls to a service that was not started answer 503.
const NOWHERE = 'http://127.0.0.1:9';

/** Limits raised for ordinary tests, which register and log in many times from 127.0.0.1. */
export const RELAXED_LIMITS: Record<string, string> = {
  RATE_LOGIN_PER_IP: '10000',
  RATE_REGISTER_PER_IP: '10000',
  RATE_REGISTER_PER_ACCOUNT: '10000',
  RATE_FORGOT_PER_IP: '10000',
  RATE_FORGOT_PER_ACCOUNT: '10000',
  RATE_RESET_PER_IP: '10000',
  RATE_SUBSCRIBE_PER_IP: '10000',
  RATE_ORDER_PER_IP: '10000',
};

/** Ordering's limits on public orders (issue 26), raised for ordinary tests the same way (they order with one phone, in large quantities). */
export const RELAXED_ORDER_LIMITS: Record<string, string> = {
  ORDER_RATE_PER_PHONE: '10000',
  ORDER_MAX_PENDING_PER_PHONE: '10000',
  ORDER_DEFAULT_MAX_UNITS_PER_LINE: '1000000',
  ORDER_DEFAULT_MAX_UNITS_PER_ORDER: '1000000',
};

export interface StackOptions {
  /** Services to start in-process (default ['identity']). The gateway always starts. */
  services?: StackService[];
  /** Extra environment for the gateway (e.g. low RATE_* limits to test them, PUBLIC_URL). */
  gatewayEnv?: Record<string, string>;
  /** Extra environment per service (e.g. { identity: { SMTP_URL } }). */
  serviceEnv?: Partial<Record<StackService, Record<string, string>>>;
  /** Second argument of a service's createApp(env, options), e.g. { identity: { clock } }. */
  serviceOptions?: Partial<Record<StackService, unknown>>;
  /** Keep the production rate limits (default: relaxed to 10000 so tests are not throttled). */
  productionRateLimits?: boolean;
  /** Second argument of the gateway's createApp(env, options), e.g. { logDestination } to read its log lines. */
  gatewayOptions?: unknown;
}

export interface RunningService {
  app: NestFastifyApplication;
  /** http://127.0.0.1:<port> */
  url: string;
}

export interface Stack {
  /** Base URL of the gateway, e.g. http://127.0.0.1:41234 — every test call goes here. */
  url: string;
  /**
   * The gateway's PUBLIC_URL (TEST_PUBLIC_URL unless gatewayEnv gives one): the base of mailed links.
   * Every process of the stack gets the same one unless serviceEnv gives a service its own.
   */
  publicUrl: string;
  gateway: NestFastifyApplication;
  services: Partial<Record<StackService, RunningService>>;
  db: TestDatabase;
  /** A pool on the test database, to look at tables (closed by stop()). */
  pool: pg.Pool;
  /** DATA_DIR of every process (a temporary folder, removed by stop()). */
  dataDir: string;
  /** A new browser-like client with its own cookie jar. */
  client(options?: ClientOptions): StackClient;
  /** Closes everything and drops the database. */
  stop(): Promise<void>;
}

type CreateApp = (env: Record<string, string | undefined>, options?: unknown) => Promise<NestFastifyApplication>;

async function loadCreateApp(name: StackService | 'gateway'): Promise<CreateApp> {
  const mod = (name === 'gateway' ? await import('../../src/app') : await import(`../../../services/${name}/src/app`)) as { createApp: CreateApp };
  return mod.createApp;
}

async function listen(app: NestFastifyApplication, port = 0): Promise<string> {
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  if (!address || typeof address === 'string') throw new Error('sin dirección');
  return `http://127.0.0.1:${address.port}`;
}

/**
 * Starts a test stack over real HTTP: a fresh database (createTestDatabase), the chosen services
 * in-process on random ports, and the gateway pointing at them. Use it from any *.e2e-spec.ts:
 *
 * ```ts
 * let stack: Stack;
 * beforeAll(async () => { stack = await startStack({ services: ['identity', 'catalog'] }); });
 * afterAll(() => stack?.stop());
 *
 * it('lists my products', async () => {
 *   const owner = stack.client();
 *   await registerAndLogin(owner);            // a new owner and store, signed in
 *   const res = await owner.get('/api/products');
 *   expect(res.status).toBe(200);
 * });
 * ```
 *
 * Clients send the gateway's own Origin on writes (the CSRF check), keep cookies like a browser,
 * and never follow redirects. Rate limits are relaxed unless `productionRateLimits` is set.
 */
export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const names = options.services ?? ['identity'];
  const publicUrl = options.gatewayEnv?.PUBLIC_URL ?? TEST_PUBLIC_URL;
  const db = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'tiendita-stack-'));
  const started: Partial<Record<StackService, RunningService>> = {};
  const apps: NestFastifyApplication[] = [];
  let pool: pg.Pool | null = null;
  try {
    // Every service learns every other's URL (identity → catalog as much as catalog → inventory); one not started is NOWHERE.
    const ports = new Map<StackService, number>();
    for (const name of names) ports.set(name, await freePort());
    const known = Object.fromEntries((Object.keys(URL_VARIABLE) as StackService[]).map((n) => [URL_VARIABLE[n], ports.has(n) ? `http://127.0.0.1:${ports.get(n)}` : NOWHERE]));
    for (const name of names) {
      const createApp = await loadCreateApp(name);
      const relaxed = name === 'ordering' && !options.productionRateLimits ? RELAXED_ORDER_LIMITS : {};
      const app = await createApp(testEnv(db.url, { DATA_DIR: dataDir, PUBLIC_URL: publicUrl, ...known, ...relaxed, ...(options.serviceEnv?.[name] ?? {}) }), options.serviceOptions?.[name]);
      apps.push(app);
      started[name] = { app, url: await listen(app, ports.get(name)) };
    }
    const urls: Record<string, string> = {};
    for (const name of Object.keys(URL_VARIABLE) as StackService[]) urls[URL_VARIABLE[name]] = started[name]?.url ?? NOWHERE;
    const createGateway = await loadCreateApp('gateway');
    const gateway = await createGateway(
      testEnv(db.url, {
        DATA_DIR: dataDir,
        PUBLIC_URL: publicUrl,
        WEB_DIST_DIR: join(dataDir, 'no-web-build'),
        ...urls,
        ...(options.productionRateLimits ? {} : RELAXED_LIMITS),
        ...(options.gatewayEnv ?? {}),
      }),
      options.gatewayOptions,
    );
    apps.push(gateway);
    const url = await listen(gateway);
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
    // An idle connection killed from outside (another run's pg_terminate_backend) must not crash the test file.
    pool.on('error', () => undefined);
    const stackPool = pool;
    return {
      url,
      publicUrl,
      gateway,
      services: started,
      db,
      pool: stackPool,
      dataDir,
      client: (clientOptions) => new StackClient(url, clientOptions),
      async stop() {
        // A test may leave a connection busy (an upload cut at the body limit while the client
        // still sends): drop every socket first, or the server's close waits for the client's timeout.
        for (const app of apps) (app.getHttpServer() as import('node:http').Server).closeAllConnections?.();
        for (const app of apps.reverse()) await app.close().catch(() => undefined);
        await stackPool.end().catch(() => undefined);
        await db.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await db.drop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface ClientOptions {
  /** Origin sent on writes: the gateway's own by default; null sends none; a string sends that. */
  origin?: string | null;
  /** Source address the gateway sees, via X-Forwarded-For (only with TRUST_PROXY=1). */
  forwardedFor?: string;
}

export interface StackResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: T;
  text: string;
}

/** A browser-like HTTP client for the stack: a cookie jar, Origin on writes, no redirects followed. */
export class StackClient {
  readonly cookies = new Map<string, string>();

  constructor(
    readonly baseUrl: string,
    private readonly options: ClientOptions = {},
  ) {}

  get<T = any>(path: string, headers: Record<string, string> = {}): Promise<StackResponse<T>> {
    return this.request<T>('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<StackResponse<T>> {
    return this.request<T>('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<StackResponse<T>> {
    return this.request<T>('PUT', path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<StackResponse<T>> {
    return this.request<T>('PATCH', path, body, headers);
  }
  delete<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<StackResponse<T>> {
    return this.request<T>('DELETE', path, body, headers);
  }

  /** The value of a cookie the gateway set (e.g. 'tiendita.sid'). */
  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  async request<T = any>(method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<StackResponse<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...extra };
    if (method !== 'GET' && method !== 'HEAD') {
      const origin = this.options.origin === undefined ? this.baseUrl : this.options.origin;
      if (origin !== null && !('origin' in extra)) headers.origin = origin;
    }
    if (this.options.forwardedFor) headers['x-forwarded-for'] = this.options.forwardedFor;
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let payload: string | Uint8Array | undefined;
    if (body !== undefined) {
      if (typeof body === 'string' || body instanceof Uint8Array) payload = body as string | Uint8Array;
      else {
        payload = JSON.stringify(body);
        headers['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(this.baseUrl + path, { method, headers, body: payload, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=').slice(1).join('=')) <= Date.now()) || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
}

let counter = 0;

/** A valid registration payload, unique per call (e-mail and subdomain), with overrides. */
export function newRegistration(overrides: Partial<RegisterRequest> = {}): RegisterRequest {
  counter += 1;
  const tag = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return {
    firstName: 'Ana',
    lastName: 'López',
    email: `owner-${tag}@example.com`,
    password: 'Secreto123',
    storeName: `Tienda ${tag}`,
    subdomain: `tienda-${tag}`,
    businessType: 'grocery',
    storeDepartment: 'Guatemala',
    storeDescription: undefined,
    storePhone: '22223333',
    whatsappNumber: '50212345678',
    storeAddress: undefined,
    ...overrides,
  };
}

/** Registers a new owner with its store and signs the client in. Returns the user and store ids. */
export async function registerAndLogin(client: StackClient, overrides: Partial<RegisterRequest> = {}) {
  const registration = newRegistration(overrides);
  const reg = await client.post('/api/auth/register', registration);
  if (reg.status !== 201) throw new Error(`registro falló: ${reg.status} ${reg.text}`);
  const login = await client.post('/api/auth/login', { email: registration.email, password: registration.password });
  if (login.status !== 200) throw new Error(`inicio de sesión falló: ${login.status} ${login.text}`);
  return {
    registration,
    userId: reg.body.user.id as string,
    storeId: reg.body.store.id as string,
    subdomain: registration.subdomain,
  };
}
