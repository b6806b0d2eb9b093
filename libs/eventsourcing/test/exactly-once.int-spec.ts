import fc from 'fast-check';
import type { PoolClient } from 'pg';
import { PostgresTransport, ProjectionRunner, type PostgresEventStore, type Projection, type RecordedEventWithTx } from '../src';
import { eventually, ledgerProjection, migratedStore, openTestDb, rowsOf, type TestDb } from './support';

let db: TestDb;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  db = await openTestDb(30);
});
afterAll(async () => {
  await db.close();
});

function runnerFor(schema: string, projections: Projection[], batchSize = 10) {
  const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url, pollIntervalMs: 50 });
  const runner = new ProjectionRunner({ pool: db.pool, schema, transport, projections, logger: quiet, batchSize, rebuildBatchSize: 16 });
  return { runner, close: async () => (await runner.stop(), await transport.close()) };
}

type Deposit = { stream: number; type: 'Deposited' | 'Withdrawn'; amount: number };

/** What the ledger read model must hold after `events`, computed without SQL. */
function expectedLedger(events: { streamId: string; type: string; amount: number }[]): string[] {
  const accounts = new Map<string, { stream_id: string; events: number; balance: string; last_type: string }>();
  for (const e of events) {
    const a = accounts.get(e.streamId) ?? { stream_id: e.streamId, events: 0, balance: '0', last_type: e.type };
    accounts.set(e.streamId, { stream_id: e.streamId, events: a.events + 1, balance: String(Number(a.balance) + e.amount), last_type: e.type });
  }
  return [...accounts.values()].map((x) => JSON.stringify(x)).sort();
}

async function history(store: PostgresEventStore): Promise<{ streamId: string; type: string; amount: number }[]> {
  const r = await db.pool.query(`SELECT stream_id, type, (data->>'amount')::int AS amount FROM ${store.schema}.events e ORDER BY e.transaction_id, e.global_position`);
  return r.rows.map((x) => ({ streamId: x.stream_id, type: x.type, amount: x.amount }));
}

describe('exactly once', () => {
  it('a projection whose connection is killed after writing, before commit, restarts and equals a full rebuild', async () => {
    const store = await migratedStore(db.pool, 'kill_src');
    const base = ledgerProjection('ledger', ['kill_src']);
    let hang: { pid: (pid: number) => void; gate: Promise<void> } | null = null;
    let release!: () => void;
    const pidSeen = new Promise<number>((resolve) => {
      hang = { pid: resolve, gate: new Promise<void>((r) => (release = r)) };
    });
    const crashing: Projection = {
      ...base,
      async apply(tx: PoolClient, events: RecordedEventWithTx[], t) {
        await base.apply(tx, events, t);
        if (hang && events.some((e) => e.streamId === 'victim')) {
          const h = hang;
          hang = null;
          h.pid((await tx.query('SELECT pg_backend_pid() AS pid')).rows[0].pid);
          await h.gate; // written, not committed: the backend dies here
        }
      },
    };
    for (let i = 0; i < 30; i++) await store.append(`acc-${i % 4}`, [{ type: 'Deposited', data: { amount: i } }], 'any');
    const r = runnerFor('kill_rd', [crashing], 8);
    await r.runner.start();
    await r.runner.caughtUp();
    await store.append('victim', [{ type: 'Deposited', data: { amount: 1000 } }], 0);
    for (let i = 0; i < 5; i++) await store.append(`acc-${i}`, [{ type: 'Withdrawn', data: { amount: -i } }], 'any');
    const pid = await pidSeen;
    // The uncommitted write is invisible, then lost with the connection.
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM kill_rd.ledger_accounts WHERE stream_id = 'victim'`)).rows[0].n).toBe(0);
    await db.pool.query('SELECT pg_terminate_backend($1)', [pid]);
    release();
    await eventually(async () => (await db.pool.query(`SELECT count(*)::int AS n FROM kill_rd.ledger_accounts WHERE stream_id = 'victim'`)).rows[0].n === 1, 15000, 'victim applied after the retry');
    await r.runner.caughtUp();
    const live = await rowsOf(db.pool, 'kill_rd.ledger_accounts');
    expect(live).toEqual(expectedLedger(await history(store)));
    const rebuilt = await r.runner.rebuild('ledger');
    expect(rebuilt.verified).toBe(true);
    expect(await rowsOf(db.pool, 'kill_rd.ledger_accounts')).toEqual(live);
    expect(await r.runner.deadLetters()).toEqual([]);
    await r.close();
    store.close();
  });

  it('a projection that fails with a transient error after its UPDATE is retried, not dead-lettered, and applies once', async () => {
    const store = await migratedStore(db.pool, 'retry_src');
    const base = ledgerProjection('ledger', ['retry_src']);
    let failures = 2;
    const flaky: Projection = {
      ...base,
      async apply(tx, events, t) {
        await base.apply(tx, events, t);
        if (failures > 0 && events.some((e) => e.type === 'Withdrawn')) {
          failures--;
          throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
        }
      },
    };
    for (let i = 0; i < 12; i++) await store.append(`acc-${i % 3}`, [{ type: i === 7 ? 'Withdrawn' : 'Deposited', data: { amount: i } }], 'any');
    const r = runnerFor('retry_rd', [flaky], 5);
    await r.runner.start();
    await eventually(async () => failures === 0, 10000, 'both failures');
    await eventually(async () => (await db.pool.query(`SELECT coalesce(sum(events), 0)::int AS n FROM retry_rd.ledger_accounts`)).rows[0].n === 12, 15000, 'all applied');
    expect(await rowsOf(db.pool, 'retry_rd.ledger_accounts')).toEqual(expectedLedger(await history(store)));
    expect(await r.runner.deadLetters()).toEqual([]);
    expect((await r.runner.rebuild('ledger')).verified).toBe(true);
    await r.close();
    store.close();
  });
});

describe('rebuild equivalence', () => {
  let run = 0;
  it('for random event histories, the incremental projection equals a rebuild from zero', async () => {
    const deposit = fc.record({ stream: fc.integer({ min: 0, max: 4 }), type: fc.constantFrom<Deposit['type']>('Deposited', 'Withdrawn'), amount: fc.integer({ min: -500, max: 500 }) });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(deposit, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 40 }),
        async (appends, batchSize, startAfter) => {
          run++;
          const store = await migratedStore(db.pool, `fc_src_${run}`);
          const r = runnerFor(`fc_rd_${run}`, [ledgerProjection('ledger', [`fc_src_${run}`])], batchSize);
          try {
            // Part of the history exists before the runner starts; the rest arrives while it runs.
            for (const [i, events] of appends.entries()) {
              if (i === startAfter) await r.runner.start();
              const stream = `acc-${events[0].stream}`;
              await store.append(stream, events.map((e) => ({ type: e.type, data: { amount: e.amount } })), 'any');
            }
            await r.runner.start();
            await r.runner.caughtUp();
            const live = await rowsOf(db.pool, `fc_rd_${run}.ledger_accounts`);
            const kinds = await rowsOf(db.pool, `fc_rd_${run}.ledger_kinds`);
            expect(live).toEqual(expectedLedger(await history(store)));
            const rebuilt = await r.runner.rebuild('ledger');
            expect(rebuilt).toMatchObject({ verified: true, events: appends.flat().length });
            expect(await rowsOf(db.pool, `fc_rd_${run}.ledger_accounts`)).toEqual(live);
            expect(await rowsOf(db.pool, `fc_rd_${run}.ledger_kinds`)).toEqual(kinds);
          } finally {
            await r.close();
            store.close();
          }
        },
      ),
      { numRuns: 15 },
    );
  });
});
