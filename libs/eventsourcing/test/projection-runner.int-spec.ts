import type { PoolClient } from 'pg';
import { PostgresTransport, ProjectionRunner, reaction, type PostgresEventStore, type Projection, type RecordedEventWithTx } from '../src';
import { applyLedger, eventually, ledgerProjection, migratedStore, openTestDb, rowsOf, type TestDb } from './support';

let db: TestDb;
let bank: PostgresEventStore;

beforeAll(async () => {
  db = await openTestDb();
  bank = await migratedStore(db.pool, 'bank');
});
afterAll(async () => {
  bank.close();
  await db.close();
});

function runnerFor(schema: string, projections: Projection[]) {
  const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url, pollIntervalMs: 200 });
  const runner = new ProjectionRunner({ pool: db.pool, schema, transport, projections, batchSize: 7, logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
  return {
    runner,
    async close() {
      await runner.stop();
      await transport.close();
    },
  };
}

async function deposit(stream: string, amounts: number[], type = 'Deposited'): Promise<void> {
  const current = await bank.readStream(stream);
  await bank.append(stream, amounts.map((amount) => ({ type, data: { amount } })), current.length);
}

/** Runners a test started, stopped even when it fails (a running one keeps jest from exiting). */
const afterEachClose: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(afterEachClose.splice(0).map((close) => close()));
});

describe('ProjectionRunner', () => {
  it('applies batches with their checkpoint in one transaction and resumes where it stopped after a restart', async () => {
    for (let i = 0; i < 10; i++) await deposit(`acc-${i % 3}`, [1, 2, 3]);
    const first = runnerFor('reports_a', [ledgerProjection('ledger', ['bank'])]);
    await first.runner.start();
    await first.runner.caughtUp();
    const cp = await db.pool.query(`SELECT global_position FROM reports_a.subscription_checkpoints WHERE group_name = 'reports_a.ledger' AND source = 'bank'`);
    expect(Number(cp.rows[0].global_position)).toBe(30);
    await first.close();

    for (let i = 0; i < 5; i++) await deposit(`acc-${i % 3}`, [10]);
    const second = runnerFor('reports_a', [ledgerProjection('ledger', ['bank'])]);
    await second.runner.start();
    await second.runner.caughtUp();
    const rows = await db.pool.query(`SELECT stream_id, events, balance FROM reports_a.ledger_accounts ORDER BY stream_id`);
    expect(rows.rows).toEqual([
      { stream_id: 'acc-0', events: 14, balance: '44' },
      { stream_id: 'acc-1', events: 11, balance: '38' },
      { stream_id: 'acc-2', events: 10, balance: '28' },
    ]);
    expect(await second.runner.states()).toEqual([expect.objectContaining({ name: 'ledger', version: 1, status: 'running', lastError: null })]);
    await second.close();
  });

  it('skips an eventId it has already applied', async () => {
    const store = await migratedStore(db.pool, 'dup_src');
    await store.append('s-1', [{ type: 'Deposited', data: { amount: 5 } }], 0, { eventId: '3f1c1a52-93a4-4a53-8a4c-6ad1a9b1f001' });
    // The same event delivered again (an at-least-once producer retried it).
    await store.append('s-1', [{ type: 'Deposited', data: { amount: 5 } }], 1, { eventId: '3f1c1a52-93a4-4a53-8a4c-6ad1a9b1f001' });
    await store.append('s-1', [{ type: 'Deposited', data: { amount: 7 } }], 2);
    const r = runnerFor('reports_dup', [ledgerProjection('ledger', ['dup_src'])]);
    await r.runner.start();
    await r.runner.caughtUp();
    const rows = await db.pool.query(`SELECT events, balance FROM reports_dup.ledger_accounts`);
    expect(rows.rows).toEqual([{ events: 2, balance: '12' }]);
    await r.close();
    store.close();
  });

  it('applies one batch of a projection at a time across its sources, so two sources cannot miss each other (no write skew)', async () => {
    const items = await migratedStore(db.pool, 'items_src');
    const levels = await migratedStore(db.pool, 'levels_src');
    // Item rows copy their level at creation; a level change updates the item row if it exists.
    // Run concurrently, a creation could read the old level while the change misses the new item.
    const joined: Projection = {
      name: 'joined',
      version: 1,
      sources: ['items_src', 'levels_src'],
      tables: ['joined_items', 'joined_levels'],
      async setup(tx: PoolClient, t) {
        await tx.query(`CREATE TABLE IF NOT EXISTS ${t.joined_items} (id text PRIMARY KEY, level integer)`);
        await tx.query(`CREATE TABLE IF NOT EXISTS ${t.joined_levels} (id text PRIMARY KEY, level integer NOT NULL)`);
      },
      async apply(tx: PoolClient, events: RecordedEventWithTx[], t) {
        for (const e of events) {
          const id = (e.data as { id: string }).id;
          if (e.type === 'ItemCreated') {
            const level = (await tx.query(`SELECT level FROM ${t.joined_levels} WHERE id = $1`, [id])).rows[0]?.level ?? null;
            await tx.query('SELECT pg_sleep(0.03)');
            await tx.query(`INSERT INTO ${t.joined_items} VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, level]);
          } else {
            const level = (e.data as { level: number }).level;
            await tx.query(`INSERT INTO ${t.joined_levels} VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET level = EXCLUDED.level`, [id, level]);
            await tx.query('SELECT pg_sleep(0.03)');
            await tx.query(`UPDATE ${t.joined_items} SET level = $2 WHERE id = $1`, [id, level]);
          }
        }
      },
    };
    const r = runnerFor('reports_join', [joined]);
    await r.runner.start();
    for (let i = 0; i < 8; i++) {
      await levels.append(`level-${i}`, [{ type: 'LevelSet', data: { id: `i${i}`, level: 1 } }], 0);
      await r.runner.caughtUp();
      await Promise.all([
        items.append(`item-${i}`, [{ type: 'ItemCreated', data: { id: `i${i}` } }], 0),
        levels.append(`level-${i}`, [{ type: 'LevelSet', data: { id: `i${i}`, level: 2 } }], 1),
      ]);
    }
    await r.runner.caughtUp();
    const rows = await db.pool.query(`SELECT i.id, i.level AS item_level, l.level FROM reports_join.joined_items i JOIN reports_join.joined_levels l USING (id) ORDER BY i.id`);
    expect(rows.rows).toHaveLength(8);
    for (const row of rows.rows) expect(row).toEqual({ id: row.id, item_level: 2, level: 2 });
    await r.close();
    items.close();
    levels.close();
  });

  it('dead-letters an event a projection cannot apply and pauses only that projection; the others catch up', async () => {
    const store = await migratedStore(db.pool, 'shop');
    let broken = true;
    const fragile: Projection = {
      name: 'fragile',
      version: 1,
      sources: ['shop'],
      tables: ['fragile_accounts', 'fragile_kinds'],
      async setup(tx: PoolClient, t) {
        await tx.query(`CREATE TABLE IF NOT EXISTS ${t.fragile_accounts} (stream_id text PRIMARY KEY, events integer NOT NULL, balance bigint NOT NULL, last_type text NOT NULL)`);
        await tx.query(`CREATE TABLE IF NOT EXISTS ${t.fragile_kinds} (type text PRIMARY KEY, events integer NOT NULL)`);
      },
      async apply(tx: PoolClient, events: RecordedEventWithTx[], t) {
        await applyLedger(tx, events, t.fragile_accounts, t.fragile_kinds);
        // Fails after writing: the runner must undo this event's writes only.
        if (broken && events.some((e) => e.type === 'Poisoned')) throw new Error('no sé aplicar Poisoned');
      },
    };
    const healthy = ledgerProjection('healthy', ['shop']);
    for (let i = 0; i < 10; i++) await store.append(`p-${i}`, [{ type: 'Deposited', data: { amount: 1 } }], 0);
    await store.append('p-poison', [{ type: 'Poisoned', data: { amount: 100 } }], 0);
    for (let i = 0; i < 10; i++) await store.append(`p-${i}`, [{ type: 'Deposited', data: { amount: 1 } }], 1);

    const r = runnerFor('reports_dl', [fragile, healthy]);
    await r.runner.start();
    await eventually(async () => (await r.runner.states()).find((s) => s.name === 'fragile')?.status === 'paused', 10000, 'fragile paused');
    await r.runner.caughtUp();
    await store.append('p-late', [{ type: 'Deposited', data: { amount: 3 } }], 0);
    await r.runner.caughtUp();

    // The healthy projection saw all 22 events; the fragile one stopped right before the poison.
    expect((await db.pool.query(`SELECT sum(events)::int AS n FROM reports_dl.healthy_accounts`)).rows[0].n).toBe(22);
    expect((await db.pool.query(`SELECT sum(events)::int AS n, sum(balance)::int AS b FROM reports_dl.fragile_accounts`)).rows[0]).toEqual({ n: 10, b: 10 });
    const dead = await r.runner.deadLetters();
    expect(dead).toHaveLength(1);
    expect(dead[0]).toMatchObject({ projection: 'fragile', source: 'shop', type: 'Poisoned', streamId: 'p-poison', globalPosition: 11, error: 'no sé aplicar Poisoned', data: { amount: 100 } });
    const states = await r.runner.states();
    expect(states.find((s) => s.name === 'fragile')).toMatchObject({ status: 'paused', lastError: expect.stringContaining('no sé aplicar Poisoned') });
    expect(states.find((s) => s.name === 'healthy')).toMatchObject({ status: 'running', lastError: null });
    const cp = await db.pool.query(`SELECT global_position FROM reports_dl.subscription_checkpoints WHERE group_name = 'reports_dl.fragile'`);
    expect(Number(cp.rows[0].global_position)).toBe(10);
    await r.close();

    // A restart keeps it paused; after the fix, resume() retries from the poisoned event.
    const again = runnerFor('reports_dl', [fragile, healthy]);
    await again.runner.start();
    await again.runner.caughtUp();
    expect((await db.pool.query(`SELECT sum(events)::int AS n FROM reports_dl.fragile_accounts`)).rows[0].n).toBe(10);
    broken = false;
    await again.runner.resume('fragile');
    await again.runner.caughtUp();
    expect(await rowsOf(db.pool, 'reports_dl.fragile_accounts')).toEqual(await rowsOf(db.pool, 'reports_dl.healthy_accounts'));
    expect((await again.runner.states()).find((s) => s.name === 'fragile')).toMatchObject({ status: 'running', lastError: null });
    await again.close();
    store.close();
  });

  it('a reaction that keeps failing on one event is retried with a growing wait, then dead-lettered: it pauses alone, keeps its checkpoint, and is never rebuilt', async () => {
    const store = await migratedStore(db.pool, 'orders_src');
    await db.pool.query('CREATE TABLE IF NOT EXISTS public.effects (event_id text PRIMARY KEY, stream_id text NOT NULL)');
    const attemptsAt: number[] = [];
    // Its effect is not a table of its own: it writes elsewhere (as inventory's reactions append events).
    const notify = (version: number) =>
      reaction({
        name: 'notify',
        version,
        sources: ['orders_src'],
        async apply(tx, events) {
          for (const e of events) {
            if (e.type === 'Poisoned') {
              // The runner tries the batch, then event by event: one attempt is the single-event call.
              if (events.length === 1) attemptsAt.push(Date.now());
              throw new Error('no sé reaccionar a Poisoned');
            }
            await tx.query('INSERT INTO public.effects (event_id, stream_id) VALUES ($1, $2)', [e.metadata.eventId, e.streamId]);
          }
        },
      });
    const start = (version: number) => {
      const transport = new PostgresTransport({ pool: db.pool, schema: 'reacts', connectionString: db.url, pollIntervalMs: 200, retryDelayMs: 150 });
      const runner = new ProjectionRunner({ pool: db.pool, schema: 'reacts', transport, projections: [ledgerProjection('seen', ['orders_src'])], logger: { info: () => undefined, warn: () => undefined, error: () => undefined } });
      runner.add(notify(version));
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await runner.stop();
        await transport.close();
      };
      return { runner, close };
    };

    // An older consumer of the same group had handled the first two events already.
    await store.append('o-1', [{ type: 'Placed', data: { amount: 1 } }], 0);
    await store.append('o-2', [{ type: 'Placed', data: { amount: 1 } }], 0);
    const handled = await db.pool.query<{ transaction_id: string; global_position: string }>(`SELECT transaction_id::text, global_position FROM orders_src.events WHERE stream_id = 'o-2'`);
    const first = start(1);
    afterEachClose.push(first.close);
    await first.runner.migrate();
    await db.pool.query(`INSERT INTO reacts.subscription_checkpoints (group_name, source, partition, transaction_id, global_position) VALUES ('reacts.notify', 'orders_src', 0, $1::xid8, $2)`, [
      handled.rows[0].transaction_id,
      handled.rows[0].global_position,
    ]);
    await store.append('o-3', [{ type: 'Placed', data: { amount: 1 } }], 0);
    await store.append('o-poison', [{ type: 'Poisoned', data: { amount: 1 } }], 0);
    await store.append('o-4', [{ type: 'Placed', data: { amount: 1 } }], 0);
    await first.runner.start();
    await eventually(async () => (await first.runner.states()).find((x) => x.name === 'notify')?.status === 'paused', 10000, 'notify paused');
    await first.runner.caughtUp();

    // Three attempts, each after a longer wait than the one before (new events do not cut it short).
    expect(attemptsAt).toHaveLength(3);
    const gaps = [attemptsAt[1] - attemptsAt[0], attemptsAt[2] - attemptsAt[1]];
    expect(gaps[0]).toBeGreaterThanOrEqual(140);
    expect(gaps[1]).toBeGreaterThanOrEqual(290);
    // Only what came after its checkpoint, up to the poison.
    expect((await db.pool.query('SELECT stream_id FROM public.effects ORDER BY stream_id')).rows.map((r) => r.stream_id)).toEqual(['o-3']);
    expect(await first.runner.deadLetters('notify')).toEqual([expect.objectContaining({ source: 'orders_src', streamId: 'o-poison', type: 'Poisoned', error: 'no sé reaccionar a Poisoned', attempts: 3 })]);
    expect((await db.pool.query(`SELECT status, kind FROM reacts.projections WHERE name = 'notify'`)).rows[0]).toEqual({ status: 'paused', kind: 'reaction' });
    expect(first.runner.isPaused('notify')).toBe(true);
    // The projection beside it saw everything.
    expect((await db.pool.query('SELECT count(*)::int AS n FROM reacts.seen_accounts')).rows[0].n).toBe(5);
    expect(first.runner.isPaused('seen')).toBe(false);
    await expect(first.runner.rebuild('notify')).rejects.toThrow('notify es una reacción: no se reconstruye (repetiría sus efectos)');
    await first.close();

    // A new version is recorded without a rebuild, and a pause survives the restart.
    const second = start(2);
    afterEachClose.push(second.close);
    await second.runner.start();
    await second.runner.caughtUp();
    expect(await second.runner.states()).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'notify', version: 2, status: 'paused' })]));
    expect(second.runner.isPaused('notify')).toBe(true);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM public.effects')).rows[0].n).toBe(1);
    await second.close();
    store.close();
  });
});
