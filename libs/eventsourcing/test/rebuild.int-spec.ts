import type { PoolClient } from 'pg';
import { pipelineRangeSize, PostgresTransport, ProjectionRunner, RebuildInProgressError, RebuildMismatchError, type PostgresEventStore, type Projection, type RebuildProgress } from '../src';
import { eventually, ledgerProjection, migratedStore, openTestDb, rowsOf, type TestDb } from './support';

let db: TestDb;
let bank: PostgresEventStore;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  db = await openTestDb();
  bank = await migratedStore(db.pool, 'bank');
  for (let i = 0; i < 400; i++) await bank.append(`acc-${i % 37}`, [{ type: i % 5 ? 'Deposited' : 'Withdrawn', data: { amount: i } }], 'any');
});
afterAll(async () => {
  bank.close();
  await db.close();
});

function runnerFor(schema: string, projections: Projection[]) {
  const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url, pollIntervalMs: 100 });
  const runner = new ProjectionRunner({ pool: db.pool, schema, transport, projections, logger: quiet, rebuildBatchSize: 64 });
  return { runner, close: async () => (await runner.stop(), await transport.close()) };
}

/** The ledger projection with an extra index whose name follows the physical table name. */
function indexedLedger(version = 1, scale = 1): Projection {
  const base = ledgerProjection('ledger', ['bank'], version);
  return {
    ...base,
    async setup(tx: PoolClient, t) {
      await base.setup(tx, t);
      const accounts = t.ledger_accounts;
      await tx.query(`CREATE INDEX IF NOT EXISTS ${accounts.split('.')[1]}_balance_idx ON ${accounts} (balance)`);
    },
    async apply(tx, events, t) {
      await base.apply(tx, scale === 1 ? events : events.map((e) => ({ ...e, data: { amount: (e.data as { amount: number }).amount * scale } })), t);
    },
  };
}

describe('rebuild', () => {
  it('fills and drains its pipeline with small ranges: 1/8 of the range size first, doubling, and at most half of what is left', () => {
    expect([0, 1, 2, 3, 4, 10].map((i) => pipelineRangeSize(i, 100_000))).toEqual([12_500, 25_000, 50_000, 100_000, 100_000, 100_000]);
    expect([0, 1, 2, 3].map((i) => pipelineRangeSize(i, 5))).toEqual([1, 2, 4, 5]);
    expect([1_000_000, 150_000, 100_000, 50_000, 25_000, 12_500, 3].map((left) => pipelineRangeSize(9, 100_000, left))).toEqual([
      100_000, 75_000, 50_000, 25_000, 12_500, 12_500, 12_500,
    ]);
  });

  it('rebuilds into shadow tables with progress, verifies against the live tables and swaps them in, twice in a row', async () => {
    const r = runnerFor('rep_a', [indexedLedger()]);
    await r.runner.start();
    await r.runner.caughtUp();
    const before = await rowsOf(db.pool, 'rep_a.ledger_accounts');
    for (let round = 0; round < 2; round++) {
      const progress: RebuildProgress[] = [];
      const result = await r.runner.rebuild('ledger', (p) => progress.push(p));
      expect(result).toMatchObject({ projection: 'ledger', events: 400, verified: true });
      expect(progress.length).toBeGreaterThan(1);
      const last = progress[progress.length - 1];
      expect(last).toMatchObject({ done: 400, total: 400, etaSeconds: 0 });
      expect(progress.every((p) => p.eventsPerSecond > 0 && p.done <= p.total)).toBe(true);
    }
    expect(await rowsOf(db.pool, 'rep_a.ledger_accounts')).toEqual(before);
    const idx = await db.pool.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'rep_a' AND tablename = 'ledger_accounts' ORDER BY 1`);
    expect(idx.rows.map((x) => x.indexname)).toEqual(['ledger_accounts_balance_idx', 'ledger_accounts_pkey']);
    const leftovers = await db.pool.query(`SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE nspname = 'rep_a' AND relname LIKE '%rebuild%'`);
    expect(leftovers.rows).toEqual([]);
    // The live projection keeps running after the swap.
    await bank.append('acc-new', [{ type: 'Deposited', data: { amount: 9 } }], 0);
    await r.runner.caughtUp();
    expect((await db.pool.query(`SELECT balance FROM rep_a.ledger_accounts WHERE stream_id = 'acc-new'`)).rows).toEqual([{ balance: '9' }]);
    expect(await r.runner.states()).toEqual([expect.objectContaining({ status: 'running', version: 1 })]);
    await r.close();
  });

  it('refuses to swap when the rebuild differs from the live read model, and leaves the live one as it was', async () => {
    const r = runnerFor('rep_b', [indexedLedger()]);
    await r.runner.start();
    await r.runner.caughtUp();
    await db.pool.query(`UPDATE rep_b.ledger_accounts SET balance = balance + 1 WHERE stream_id = 'acc-3'`);
    const tampered = await rowsOf(db.pool, 'rep_b.ledger_accounts');
    const err = await r.runner.rebuild('ledger').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RebuildMismatchError);
    expect((err as RebuildMismatchError).differences).toEqual([{ table: 'ledger_accounts', onlyLive: 1, onlyShadow: 1 }]);
    expect(await rowsOf(db.pool, 'rep_b.ledger_accounts')).toEqual(tampered);
    expect(await r.runner.states()).toEqual([expect.objectContaining({ status: 'running' })]);
    const shadow = await db.pool.query(`SELECT to_regclass('rep_b.ledger_accounts__rebuild') AS t`);
    expect(shadow.rows[0].t).toBeNull();
    await r.close();
  });

  it('rebuilds a projection whose version changed at start, without comparing, and serves the old rows until the swap', async () => {
    const v1 = runnerFor('rep_c', [indexedLedger(1)]);
    await v1.runner.start();
    await v1.runner.caughtUp();
    await v1.close();
    const old = await rowsOf(db.pool, 'rep_c.ledger_accounts');

    const v2 = runnerFor('rep_c', [indexedLedger(2, 100)]);
    let seenDuringRebuild: string[] | null = null;
    let read: Promise<void> | null = null;
    const reader = await db.pool.connect();
    const runner = v2.runner as unknown as { rebuild: ProjectionRunner['rebuild'] };
    const original = runner.rebuild.bind(v2.runner);
    runner.rebuild = (name, opts) =>
      original(name, {
        ...(typeof opts === 'object' ? opts : {}),
        onProgress: (p) => {
          // Read the live table from another connection while the shadow is being built.
          if (read || p.phase !== 'build') return;
          read = reader.query('SELECT * FROM rep_c.ledger_accounts').then((res) => {
            seenDuringRebuild = res.rows.map((x) => JSON.stringify(x)).sort();
          });
        },
      });
    await v2.runner.start();
    await v2.runner.caughtUp();
    await read;
    reader.release();
    expect(seenDuringRebuild).toEqual(old);
    const rows = await db.pool.query(`SELECT stream_id, balance FROM rep_c.ledger_accounts WHERE stream_id = 'acc-1'`);
    const expected = (await bank.readStream('acc-1')).reduce((s, e) => s + (e.data as { amount: number }).amount * 100, 0);
    expect(rows.rows).toEqual([{ stream_id: 'acc-1', balance: String(expected) }]);
    expect(await v2.runner.states()).toEqual([expect.objectContaining({ version: 2, status: 'running' })]);
    await bank.append('acc-v2', [{ type: 'Deposited', data: { amount: 2 } }], 0);
    await v2.runner.caughtUp();
    expect((await db.pool.query(`SELECT balance FROM rep_c.ledger_accounts WHERE stream_id = 'acc-v2'`)).rows).toEqual([{ balance: '200' }]);
    await v2.close();
  });

  it('keeps the live table readable and up to date while appends continue during the rebuild; the swap loses nothing', async () => {
    const r = runnerFor('rep_d', [indexedLedger()]);
    await r.runner.start();
    await r.runner.caughtUp();
    let stop = false;
    let reads = 0;
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        await bank.append(`live-${i % 5}`, [{ type: 'Deposited', data: { amount: 1 } }], 'any');
        const res = await db.pool.query('SELECT count(*)::int AS n FROM rep_d.ledger_accounts');
        expect(res.rows[0].n).toBeGreaterThan(0);
        reads++;
      }
    })();
    await r.runner.rebuild('ledger');
    await r.runner.rebuild('ledger');
    stop = true;
    await writer;
    await r.runner.caughtUp();
    expect(reads).toBeGreaterThan(0);
    const live = await rowsOf(db.pool, 'rep_d.ledger_accounts');
    const again = await r.runner.rebuild('ledger');
    expect(again.verified).toBe(true);
    expect(await rowsOf(db.pool, 'rep_d.ledger_accounts')).toEqual(live);
    await r.close();
  });

  it('refuses a second rebuild of the same projection while one runs, here or from another process, without disturbing it; progress counts against the end taken at the start', async () => {
    const base = indexedLedger();
    // Slow enough to be caught in the middle: each batch of 64 events takes 60 ms more.
    const slow: Projection = { ...base, apply: async (tx, events, t) => (await new Promise((r) => setTimeout(r, 60)), base.apply(tx, events, t)) };
    const r = runnerFor('rep_e', [slow]);
    await r.runner.start();
    await r.runner.caughtUp();
    const atStart = Number((await db.pool.query('SELECT count(*) AS n FROM bank.events')).rows[0].n);
    const progress: RebuildProgress[] = [];
    const first = r.runner.rebuild('ledger', (p) => progress.push(p));
    await eventually(async () => progress.some((p) => p.phase === 'build' && p.done > 0), 10000, 'the build under way');
    for (let i = 0; i < 20; i++) await bank.append(`during-${i}`, [{ type: 'Deposited', data: { amount: 1 } }], 0);

    const other = runnerFor('rep_e', [slow]); // npm run replay in another process
    const refused = await other.runner.rebuild('ledger').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RebuildInProgressError);
    expect((refused as Error).message).toBe('La proyección ledger ya se está reconstruyendo; espera a que termine');
    await expect(r.runner.rebuild('ledger')).rejects.toBeInstanceOf(RebuildInProgressError);
    // The refused calls left the running rebuild's shadow tables and state alone.
    expect((await db.pool.query(`SELECT to_regclass('rep_e.ledger_accounts__rebuild') IS NOT NULL AS ok`)).rows[0].ok).toBe(true);
    expect(await r.runner.states()).toEqual([expect.objectContaining({ status: 'rebuilding' })]);

    const result = await first;
    expect(result).toMatchObject({ verified: true, events: atStart + 20 });
    const build = progress.filter((p) => p.phase === 'build');
    expect(build.length).toBeGreaterThan(2);
    // The build's end is the position taken at the start; what was appended meanwhile is caught up after it.
    expect(build.every((p) => p.total === atStart)).toBe(true);
    for (const p of build.filter((x) => x.done > 0)) expect(p.etaSeconds).toBeCloseTo((atStart - p.done) / p.eventsPerSecond, 6);
    expect(progress[progress.length - 1]).toMatchObject({ done: atStart + 20, total: atStart + 20, etaSeconds: 0 });
    expect(await r.runner.states()).toEqual([expect.objectContaining({ status: 'running' })]);
    // And a rebuild after it runs normally.
    expect((await other.runner.rebuild('ledger')).verified).toBe(true);
    await other.close();
    await r.close();
  });
});
