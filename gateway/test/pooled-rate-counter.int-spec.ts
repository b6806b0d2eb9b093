import { createPool } from '@tiendita/service-kit';
import type pg from 'pg';
import { freePort } from '../../scripts/lib/free-ports.cjs';
import { GATEWAY_SCHEMA } from '../src/migrations';
import { PooledRateCounter } from '../src/security/pooled-rate-counter';
import { type GatewayTestDb, openGatewayDb } from './support/gateway-db';

const TABLE = `${GATEWAY_SCHEMA}.rate_limits`;
let db: GatewayTestDb;
let pool: pg.Pool;

beforeAll(async () => {
  db = await openGatewayDb();
  pool = db.pool;
});

afterAll(() => db?.close());

const rule = (bucket: string, limit = 3, windowSeconds = 600) => ({ bucket, limit, windowSeconds });
const stored = async (bucket: string) => (await pool.query<{ hits: number }>(`SELECT hits FROM ${TABLE} WHERE bucket = $1`, [bucket])).rows.map((r) => r.hits);

describe('public orders per address, counted in memory and written in one statement', () => {
  it('one process counts exactly: past the limit is full, with the seconds left in the window', async () => {
    let now = Date.UTC(2026, 10, 28, 15, 0, 30);
    const counter = new PooledRateCounter(pool, TABLE, 10_000, () => now);
    const states = [1, 2, 3, 4].map(() => counter.hit(rule('order:tienda:ip:10.0.0.1')));
    expect(states.map((s) => [s.hits, s.full])).toEqual([[1, false], [2, false], [3, false], [4, true]]);
    expect(states[3].retryAfterSeconds).toBe(570);
    // Nothing written until the flush; then the window's total, once.
    expect(await stored('order:tienda:ip:10.0.0.1')).toEqual([]);
    await counter.flush();
    expect(await stored('order:tienda:ip:10.0.0.1')).toEqual([4]);
    await counter.flush();
    expect(await stored('order:tienda:ip:10.0.0.1')).toEqual([4]);
    // The next window starts from nothing; the ended one is forgotten once written.
    now += 600_000;
    expect(counter.hit(rule('order:tienda:ip:10.0.0.1'))).toMatchObject({ hits: 1, full: false });
    await counter.close();
    expect(await stored('order:tienda:ip:10.0.0.1')).toEqual([4, 1]);
  });

  it('hits being written still count while the write is under way', async () => {
    const counter = new PooledRateCounter(pool, TABLE, 10_000);
    for (let i = 0; i < 4; i++) counter.hit(rule('order:w:ip:10.0.0.7', 4));
    const writing = counter.flush();
    expect(counter.hit(rule('order:w:ip:10.0.0.7', 4))).toMatchObject({ hits: 5, full: true });
    await writing;
    expect(counter.hit(rule('order:w:ip:10.0.0.7', 4))).toMatchObject({ hits: 6, full: true });
    await counter.close();
    expect(await stored('order:w:ip:10.0.0.7')).toEqual([6]);
  });

  it('two gateways see each other’s hits after a write; an IPv6 /64 is one address', async () => {
    const a = new PooledRateCounter(pool, TABLE, 10_000);
    const b = new PooledRateCounter(pool, TABLE, 10_000);
    a.hit(rule('order:t:ip:2001:db8:1:2::1'));
    a.hit(rule('order:t:ip:2001:db8:1:2::99'));
    await a.flush();
    expect(b.hit(rule('order:t:ip:2001:db8:1:2:aaaa::5')).hits).toBe(1); // b has not written yet
    await b.flush(); // learns the total: 3
    expect(b.hit(rule('order:t:ip:2001:db8:1:2::7'))).toMatchObject({ hits: 4, full: true });
    await Promise.all([a.close(), b.close()]);
    expect((await pool.query(`SELECT hits FROM ${TABLE} WHERE bucket LIKE 'order:t:ip:2001:db8:1:2:%'`)).rows.map((r) => r.hits)).toEqual([4]);
  });

  it('hits a write could not store are written with the next one', async () => {
    const down = createPool(`postgres://postgres@127.0.0.1:${await freePort()}/nada`, { max: 1 });
    down.on('error', () => undefined);
    const counter = new PooledRateCounter(down, TABLE, 10_000);
    counter.hit(rule('order:x:ip:10.9.9.9'));
    counter.hit(rule('order:x:ip:10.9.9.9'));
    await expect(counter.flush()).rejects.toThrow();
    // The same counter on a database that answers: the two hits were kept.
    (counter as unknown as { pool: pg.Pool }).pool = pool;
    await counter.close();
    await down.end().catch(() => undefined);
    expect(await stored('order:x:ip:10.9.9.9')).toEqual([2]);
  });
});
