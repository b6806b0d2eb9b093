import type { Pool } from 'pg';
import { type GatewayTestDb, openGatewayDb } from '../../test/support/gateway-db';
import { GATEWAY_SCHEMA } from '../migrations';
import { PgSessionStore } from './pg-session-store';

let db: GatewayTestDb;
let pool: Pool;
const table = `${GATEWAY_SCHEMA}.sessions`;
const HOUR = 3600 * 1000;

beforeAll(async () => {
  db = await openGatewayDb();
  pool = db.pool;
});

afterAll(() => db?.close());

function store(cacheMs = 2000): PgSessionStore {
  return new PgSessionStore({ pool, durablePool: pool, table, defaultMaxAgeMs: HOUR, absoluteMaxAgeMs: 24 * HOUR, cacheMs });
}

const get = (s: PgSessionStore, sid: string) =>
  new Promise<Record<string, unknown> | null>((resolve, reject) => s.get(sid, (error, value) => (error ? reject(error) : resolve((value as Record<string, unknown>) ?? null))));
const set = (s: PgSessionStore, sid: string, session: Record<string, unknown>) => new Promise<void>((resolve, reject) => s.set(sid, session, (error) => (error ? reject(error) : resolve())));
const destroy = (s: PgSessionStore, sid: string) => new Promise<void>((resolve, reject) => s.destroy(sid, (error) => (error ? reject(error) : resolve())));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function session(userId: string) {
  return { cookie: { expires: new Date(Date.now() + HOUR).toISOString(), originalMaxAge: HOUR }, passport: { userId, storeId: `tienda-${userId}` }, createdAt: Date.now() };
}

describe('PgSessionStore: session reads kept in memory for a moment (real PostgreSQL)', () => {
  it('answers the calls that follow a read from memory, each with its own copy, and reads the row again after cacheMs', async () => {
    const s = store(300);
    await set(s, 'sid-cache', session('u1'));
    const first = await get(s, 'sid-cache');
    expect(first?.passport).toEqual({ userId: 'u1', storeId: 'tienda-u1' });
    // A change by one request never reaches the next one.
    (first!.passport as Record<string, unknown>).storeId = 'otra';
    // Deleted behind the store's back (as another gateway process would): still served for now...
    await pool.query(`DELETE FROM ${table} WHERE sid = $1`, ['sid-cache']);
    expect((await get(s, 'sid-cache'))?.passport).toEqual({ userId: 'u1', storeId: 'tienda-u1' });
    // ...and not once the short lifetime has passed.
    await sleep(350);
    expect(await get(s, 'sid-cache')).toBeNull();
  });

  it('ends a session at once when it is destroyed through the store, and when its user is signed out everywhere', async () => {
    const s = store();
    await set(s, 'sid-a', session('u2'));
    await set(s, 'sid-b', session('u2'));
    await set(s, 'sid-c', session('u3'));
    expect(await get(s, 'sid-a')).not.toBeNull();
    expect(await get(s, 'sid-b')).not.toBeNull();
    expect(await get(s, 'sid-c')).not.toBeNull();
    await destroy(s, 'sid-a');
    expect(await get(s, 'sid-a')).toBeNull();
    expect(await s.destroyAllOfUser('u2')).toBe(1);
    expect(await get(s, 'sid-b')).toBeNull();
    expect(await get(s, 'sid-c')).not.toBeNull();
  });

  it('never keeps a read that raced a delete: the session stays ended', async () => {
    const s = store();
    await set(s, 'sid-race', session('u4'));
    // Started before the delete, answered with the row still there: used by its own callers only.
    const reading = get(s, 'sid-race');
    await destroy(s, 'sid-race');
    await reading;
    expect(await get(s, 'sid-race')).toBeNull();
    await set(s, 'sid-race2', session('u5'));
    const racing = get(s, 'sid-race2');
    await s.destroyAllOfUser('u5');
    await racing;
    expect(await get(s, 'sid-race2')).toBeNull();
  });

  it('serves what was last written, and shares one read between calls that miss together', async () => {
    const s = store();
    await set(s, 'sid-w', { ...session('u6'), touchedAt: 1 });
    await set(s, 'sid-w', { ...session('u6'), touchedAt: 2 });
    expect((await get(s, 'sid-w'))?.touchedAt).toBe(2);
    // The same real pool, counting the statements sent through it.
    let reads = 0;
    const counting = { query: (...args: Parameters<Pool['query']>) => (reads++, pool.query(...args)) } as unknown as Pool;
    const reader = new PgSessionStore({ pool: counting, durablePool: pool, table, defaultMaxAgeMs: HOUR, absoluteMaxAgeMs: 24 * HOUR });
    const all = await Promise.all(Array.from({ length: 10 }, () => get(reader, 'sid-w')));
    expect(all.every((x) => x?.touchedAt === 2)).toBe(true);
    expect(await get(reader, 'sid-w')).toMatchObject({ touchedAt: 2 });
    expect(reads).toBe(1);
    expect(reader.cachedSessions).toBe(1);
  });

  it('keeps nothing with cacheMs 0, and never an expired row', async () => {
    const s = store(0);
    await set(s, 'sid-none', session('u7'));
    expect(await get(s, 'sid-none')).not.toBeNull();
    expect(s.cachedSessions).toBe(0);
    const t = store();
    await set(t, 'sid-old', { ...session('u8'), cookie: { expires: new Date(Date.now() - 1000).toISOString() } });
    expect(await get(t, 'sid-old')).toBeNull();
    expect(t.cachedSessions).toBe(0);
  });
});
