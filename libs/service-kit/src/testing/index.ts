import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { signInternalHeaders, type SignInput } from '../internal-auth';

/** A database of its own for one test file. */
export interface TestDatabase {
  /** Connection string of the new database. */
  url: string;
  name: string;
  /** Drops the database (closing any connection left open). */
  drop(): Promise<void>;
}

/** The secret tests sign internal calls with (≥16 characters, like the real one). */
export const TEST_INTERNAL_SECRET = 'tiendita-test-internal-secret';

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_ADMIN_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_ADMIN_URL no está definida: corre las pruebas con `npm test` (la configuración global de jest la define)');
  return url;
}

async function admin<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a brand-new, empty database with a random name on the test server, so test files
 * never share state. Call drop() in afterAll, after closing your pools.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `tiendita_test_${randomBytes(6).toString('hex')}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * The PUBLIC_URL tests run with (the gateway, identity and catalog require one): a reserved name
 * (RFC 2606), so a link built from it is recognisable and never reaches a real site.
 */
export const TEST_PUBLIC_URL = 'http://tiendita.test';

/** Environment for a service's createApp(env) in tests: the given database, quiet logs, test secret, TEST_PUBLIC_URL. */
export function testEnv(databaseUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return { DATABASE_URL: databaseUrl, INTERNAL_SECRET: TEST_INTERNAL_SECRET, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: TEST_PUBLIC_URL, ...extra };
}

/** Signed headers for a test call to a service, as the gateway would send them. */
export function testCallerHeaders(input: SignInput, secret = TEST_INTERNAL_SECRET): Record<string, string> {
  return signInternalHeaders(secret, input);
}

/**
 * A signed test call for `app.inject()` (or fetch): the JSON body is serialised once and its hash
 * signed, as service-kit's InternalClient does. `app.inject(signedRequest({ method: 'POST', url, payload, userId, storeId }))`.
 */
export function signedRequest(
  input: { method: string; url: string; payload?: unknown; userId?: string | null; storeId?: string | null; headers?: Record<string, string> },
  secret = TEST_INTERNAL_SECRET,
): { method: string; url: string; payload?: string; headers: Record<string, string> } {
  const body = input.payload === undefined ? undefined : JSON.stringify(input.payload);
  const signed = signInternalHeaders(secret, { method: input.method, path: input.url, userId: input.userId, storeId: input.storeId, body });
  return {
    method: input.method,
    url: input.url,
    ...(body !== undefined ? { payload: body } : {}),
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...input.headers, ...signed },
  };
}
