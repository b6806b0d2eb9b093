import type { PoolClient } from 'pg';
import { DeadLetterNotFoundError, DeadLetters, PostgresTransport, ProjectionRunner, type Projection, type RecordedEventWithTx } from '../src';
import { applyLedger, eventually, migratedStore, openTestDb, type TestDb } from './support';

/**
 * One store's bad event never stops every store (issue 26): a read model that cannot apply an event
 * of store B sets it aside with B (and B's later events behind it, in order), goes on for every other
 * store, and B is known as blocked until an operator retries or skips it.
 */
jest.setTimeout(60_000);

let db: TestDb;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

/** A ledger that cannot apply a negative amount while `state.broken`: the bug, then its fix. */
function storeLedger(state: { broken: boolean }, source = 'caja'): Projection {
  return {
    name: 'ledger',
    version: 1,
    sources: [source],
    tables: ['ledger_accounts', 'ledger_kinds'],
    async setup(tx: PoolClient, t) {
      await tx.query(`CREATE TABLE IF NOT EXISTS ${t.ledger_accounts} (stream_id text PRIMARY KEY, events integer NOT NULL, balance bigint NOT NULL, last_type text NOT NULL)`);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${t.ledger_kinds} (type text PRIMARY KEY, events integer NOT NULL)`);
    },
    async apply(tx: PoolClient, events: RecordedEventWithTx[], t) {
      if (state.broken && events.some((e) => (e.data as { amount: number }).amount < 0)) throw new Error('monto absurdo');
      await applyLedger(tx, events, t.ledger_accounts, t.ledger_kinds);
    },
  };
}

async function balances(schema: string): Promise<Record<string, number>> {
  const r = await db.pool.query<{ stream_id: string; balance: string }>(`SELECT stream_id, balance FROM ${schema}.ledger_accounts ORDER BY stream_id`);
  return Object.fromEntries(r.rows.map((x) => [x.stream_id, Number(x.balance)]));
}

describe('dead letters per store', () => {
  it('sets one store’s bad event aside with its store, keeps every other store flowing, and releases the store on retry', async () => {
    const schema = 'tienda_aislada';
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    const caja = await migratedStore(db.pool, 'caja');
    const state = { broken: true };
    const projection = storeLedger(state);
    const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url, pollIntervalMs: 100, retryDelayMs: 20 });
    const runner = new ProjectionRunner({ pool: db.pool, schema, transport, projections: [projection], batchSize: 4, logger: quiet });
    const tool = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url });
    try {
      await runner.start();
      await caja.append('a-1', [{ type: 'Venta', data: { amount: 10 } }], 0, { storeId: 'A' });
      await caja.append('b-1', [{ type: 'Venta', data: { amount: 5 } }], 0, { storeId: 'B' });
      await caja.append('b-1', [{ type: 'Venta', data: { amount: -1_000_000 } }], 1, { storeId: 'B' }); // the bad one
      await caja.append('a-2', [{ type: 'Venta', data: { amount: 20 } }], 0, { storeId: 'A' });
      await caja.append('b-1', [{ type: 'Venta', data: { amount: 7 } }], 2, { storeId: 'B' }); // held behind it
      await caja.append('c-1', [{ type: 'Venta', data: { amount: 3 } }], 0, { storeId: 'C' });

      // Every other store goes on; the projection is not paused.
      await eventually(async () => (await balances(schema))['c-1'] === 3, 15_000, 'store C after the bad event');
      expect(await balances(schema)).toEqual({ 'a-1': 10, 'a-2': 20, 'b-1': 5, 'c-1': 3 });
      expect(runner.isPaused('ledger')).toBe(false);
      expect(runner.isStoreBlocked('ledger', 'B')).toBe(true);
      expect(runner.isStoreBlocked('ledger', 'A')).toBe(false);
      // More events of A keep flowing, B's are held in order.
      await caja.append('a-1', [{ type: 'Venta', data: { amount: 1 } }], 1, { storeId: 'A' });
      await caja.append('b-2', [{ type: 'Venta', data: { amount: 9 } }], 0, { storeId: 'B' });
      await eventually(async () => (await balances(schema))['a-1'] === 11, 10_000, 'store A still flowing');

      const dead = new DeadLetters({ pool: db.pool, schema, projections: [projection], transport: tool, logger: quiet });
      await eventually(async () => (await dead.list()).length === 3, 10_000, 'B’s later event held');
      const list = await dead.list();
      expect(list.map((d) => ({ storeId: d.storeId, held: d.held, stream: d.streamId }))).toEqual([
        { storeId: 'B', held: false, stream: 'b-1' },
        { storeId: 'B', held: true, stream: 'b-1' },
        { storeId: 'B', held: true, stream: 'b-2' },
      ]);
      expect(list[0].error).toBe('monto absurdo');
      // A held one waits for the one in front of it.
      await expect(dead.retry(list[1].id)).rejects.toThrow(DeadLetterNotFoundError);

      // The fix is deployed; the operator retries: the bad event, then B's held ones, in order.
      state.broken = false;
      const outcome = await dead.retry(list[0].id);
      expect(outcome).toMatchObject({ outcome: 'applied', events: 3, resumed: true });
      expect(await dead.list()).toEqual([]);
      expect(await balances(schema)).toEqual({ 'a-1': 11, 'a-2': 20, 'b-1': 5 - 1_000_000 + 7, 'b-2': 9, 'c-1': 3 });
      await runner.refreshBlocked();
      expect(runner.isStoreBlocked('ledger', 'B')).toBe(false);
      // B's new events flow again.
      await caja.append('b-2', [{ type: 'Venta', data: { amount: 1 } }], 1, { storeId: 'B' });
      await eventually(async () => (await balances(schema))['b-2'] === 10, 10_000, 'store B flowing again');
    } finally {
      await runner.stop();
      await transport.close();
      await tool.close();
    }
  });

  it('skip leaves the bad event out and applies the store’s held events', async () => {
    const schema = 'tienda_descarte';
    await db.pool.query(`CREATE SCHEMA ${schema}`);
    const caja = await migratedStore(db.pool, 'caja_dos');
    const projection = storeLedger({ broken: true }, 'caja_dos');
    const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url, pollIntervalMs: 100, retryDelayMs: 20 });
    const runner = new ProjectionRunner({ pool: db.pool, schema, transport, projections: [projection], batchSize: 4, logger: quiet });
    const tool = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url });
    try {
      await runner.start();
      await caja.append('s-1', [{ type: 'Venta', data: { amount: -5 } }], 0, { storeId: 'S' });
      await caja.append('s-1', [{ type: 'Venta', data: { amount: 4 } }], 1, { storeId: 'S' });
      const dead = new DeadLetters({ pool: db.pool, schema, projections: [projection], transport: tool, logger: quiet });
      await eventually(async () => (await dead.list()).length === 2, 15_000, 'the bad event and the one behind it');
      expect(runner.isStoreBlocked('ledger', 'S')).toBe(true);
      const [head] = await dead.list();
      expect(await dead.skip(head.id)).toMatchObject({ outcome: 'skipped', resumed: true });
      expect(await dead.list()).toEqual([]);
      expect((await balances(schema))['s-1']).toBe(4);
    } finally {
      await runner.stop();
      await transport.close();
      await tool.close();
    }
  });
});
