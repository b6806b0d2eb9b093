import type { PoolClient } from 'pg';
import {
  DeadLetterNotFoundError,
  DeadLetterRetryError,
  DeadLetters,
  PostgresTransport,
  ProjectionRunner,
  reaction,
  toEnvelope,
  transportDeadLettersDdl,
  type PostgresEventStore,
  type Projection,
  type RecordedEventWithTx,
} from '../src';
import { applyLedger, eventually, ledgerProjection, migratedStore, openTestDb, rowsOf, type TestDb } from './support';

/**
 * The operator's side of dead letters (`npm run replay -- --dead-letters / --retry / --skip`): a
 * DeadLetters of its own, as another process has, against a ProjectionRunner that plays the
 * running service.
 */
let db: TestDb;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

/** A ledger that cannot apply 'Poisoned' while `state.broken` (the bug), and can after the fix. */
function fragileLedger(state: { broken: boolean }): Projection {
  return {
    name: 'fragile',
    version: 1,
    sources: ['till'],
    tables: ['fragile_accounts', 'fragile_kinds'],
    async setup(tx: PoolClient, t) {
      await tx.query(`CREATE TABLE IF NOT EXISTS ${t.fragile_accounts} (stream_id text PRIMARY KEY, events integer NOT NULL, balance bigint NOT NULL, last_type text NOT NULL)`);
      await tx.query(`CREATE TABLE IF NOT EXISTS ${t.fragile_kinds} (type text PRIMARY KEY, events integer NOT NULL)`);
    },
    async apply(tx: PoolClient, events: RecordedEventWithTx[], t) {
      await applyLedger(tx, events, t.fragile_accounts, t.fragile_kinds);
      if (state.broken && events.some((e) => e.type === 'Poisoned')) throw new Error('no sé aplicar Poisoned');
    },
  };
}

/** The running service: a runner with its own transport. */
function service(schema: string, projections: Projection[]) {
  const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url, pollIntervalMs: 100 });
  const runner = new ProjectionRunner({ pool: db.pool, schema, transport, projections, batchSize: 4, logger: quiet });
  return { runner, close: async () => (await runner.stop(), await transport.close()) };
}

/** The operator's tool: another transport and DeadLetters on the same database. */
function tool(schema: string, projections: Projection[]) {
  const transport = new PostgresTransport({ pool: db.pool, schema, connectionString: db.url });
  return { dead: new DeadLetters({ pool: db.pool, schema, projections, transport, logger: quiet }), close: () => transport.close() };
}

async function history(store: PostgresEventStore): Promise<void> {
  for (let i = 0; i < 6; i++) await store.append(`a-${i}`, [{ type: 'Deposited', data: { amount: 1 + i } }], 0);
  await store.append('a-poison', [{ type: 'Poisoned', data: { amount: 100 } }], 0);
  for (let i = 0; i < 6; i++) await store.append(`a-${i}`, [{ type: 'Deposited', data: { amount: 10 } }], 1);
}

const checkpoint = async (schema: string) =>
  Number((await db.pool.query(`SELECT global_position FROM ${schema}.subscription_checkpoints WHERE group_name = $1`, [`${schema}.fragile`])).rows[0].global_position);
const state = async (runner: ProjectionRunner) => (await runner.states()).find((s) => s.name === 'fragile');

describe('dead letters from the replay tool', () => {
  it('lists a dead-lettered event; a retry with the bug still there fails and changes nothing; after the fix it is applied and the running service follows again', async () => {
    const till = await migratedStore(db.pool, 'till');
    await history(till);
    const bug = { broken: true };
    const svc = service('dl_a', [fragileLedger(bug)]);
    await svc.runner.start();
    await eventually(async () => (await state(svc.runner))?.status === 'paused', 10000, 'fragile paused');
    const op = tool('dl_a', [fragileLedger(bug)]);

    // Dead-lettered after the runner's 3 attempts (maxAttempts); the retry that fails counts a fourth.
    const listed = await op.dead.list();
    expect(listed).toEqual([
      expect.objectContaining({ id: 'dl_a.fragile:1', kind: 'projection', projection: 'fragile', source: 'till', type: 'Poisoned', streamId: 'a-poison', error: 'no sé aplicar Poisoned', attempts: 3 }),
    ]);
    expect(listed[0].position).toEqual({ transactionId: expect.stringMatching(/^\d+$/), globalPosition: 7 });
    expect(await checkpoint('dl_a')).toBe(6);

    const failed = await op.dead.retry('dl_a.fragile:1').catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(DeadLetterRetryError);
    expect((failed as Error).message).toBe('El evento Poisoned ' + listed[0].eventId + ' volvió a fallar en fragile: no sé aplicar Poisoned');
    expect(await op.dead.list()).toEqual([expect.objectContaining({ id: 'dl_a.fragile:1', attempts: 4 })]);
    expect(await checkpoint('dl_a')).toBe(6);
    expect(await state(svc.runner)).toMatchObject({ status: 'paused' });
    expect(await svc.runner.resumeReleased()).toEqual([]);

    bug.broken = false; // the fix is deployed
    const done = await op.dead.retry('dl_a.fragile:1');
    expect(done).toMatchObject({ outcome: 'applied', events: 1, resumed: true });
    expect(await op.dead.list()).toEqual([]);
    expect(await checkpoint('dl_a')).toBe(7);
    expect(await state(svc.runner)).toMatchObject({ status: 'running', lastError: null });
    expect((await db.pool.query(`SELECT balance::int FROM dl_a.fragile_accounts WHERE stream_id = 'a-poison'`)).rows).toEqual([{ balance: 100 }]);

    // The running service subscribes it again and applies the rest, and what comes after.
    expect(await svc.runner.resumeReleased()).toEqual(['fragile']);
    await till.append('a-late', [{ type: 'Deposited', data: { amount: 5 } }], 0);
    await svc.runner.caughtUp();
    const reference = service('dl_ref', [ledgerProjection('fragile', ['till'])]);
    await reference.runner.start();
    await reference.runner.caughtUp();
    expect(await rowsOf(db.pool, 'dl_a.fragile_accounts')).toEqual(await rowsOf(db.pool, 'dl_ref.fragile_accounts'));
    expect(await rowsOf(db.pool, 'dl_a.fragile_kinds')).toEqual(await rowsOf(db.pool, 'dl_ref.fragile_kinds'));
    await reference.close();
    await svc.close();
    await op.close();
    till.close();
  });

  it('a skipped event is left out for good: the checkpoint moves past it and the projection goes on without it', async () => {
    const till = await migratedStore(db.pool, 'till');
    const bug = { broken: true };
    const svc = service('dl_b', [fragileLedger(bug)]);
    await svc.runner.start();
    await eventually(async () => (await state(svc.runner))?.status === 'paused', 10000, 'fragile paused');
    const op = tool('dl_b', [fragileLedger(bug)]);
    const [entry] = await op.dead.list();
    expect(entry.id).toBe('dl_b.fragile:1');

    const skipped = await op.dead.skip(entry.id);
    expect(skipped).toMatchObject({ outcome: 'skipped', resumed: true, entry: { type: 'Poisoned', streamId: 'a-poison' } });
    expect(await op.dead.list()).toEqual([]);
    expect(await checkpoint('dl_b')).toBe(entry.position!.globalPosition);
    expect(await svc.runner.resumeReleased()).toEqual(['fragile']);
    await svc.runner.caughtUp();
    const total = Number((await db.pool.query(`SELECT count(*) AS n FROM till.events`)).rows[0].n);
    expect((await db.pool.query(`SELECT sum(events)::int AS n FROM dl_b.fragile_accounts`)).rows[0].n).toBe(total - 1);
    expect((await db.pool.query(`SELECT count(*)::int AS n FROM dl_b.fragile_accounts WHERE stream_id = 'a-poison'`)).rows[0].n).toBe(0);

    // Unknown and malformed ids are refused in one Spanish line.
    await expect(op.dead.retry('dl_b.fragile:1')).rejects.toThrow(new DeadLetterNotFoundError('No existe el dead letter dl_b.fragile:1 (npm run replay -- --dead-letters los lista)'));
    await expect(op.dead.skip('fragile-1')).rejects.toThrow(/^Id de dead letter inválido: fragile-1/);
    await svc.close();
    await op.close();
    till.close();
  });

  it('a rebuild after the fix applies the dead-lettered event, clears the dead letter, and the running service follows again', async () => {
    const till = await migratedStore(db.pool, 'till');
    const bug = { broken: true };
    const svc = service('dl_c', [fragileLedger(bug)]);
    await svc.runner.start();
    await eventually(async () => (await state(svc.runner))?.status === 'paused', 10000, 'fragile paused');
    bug.broken = false;
    // `npm run replay -- dl_c.fragile --no-verify` from another process.
    const replay = service('dl_c', [fragileLedger(bug)]);
    const result = await replay.runner.rebuild('fragile', { verify: false });
    expect(result.events).toBe(Number((await db.pool.query(`SELECT count(*) AS n FROM till.events`)).rows[0].n));
    await replay.close();
    const op = tool('dl_c', [fragileLedger(bug)]);
    expect(await op.dead.list()).toEqual([]);
    expect(await state(svc.runner)).toMatchObject({ status: 'running', lastError: null });
    expect(await svc.runner.resumeReleased()).toEqual(['fragile']);
    await till.append('c-late', [{ type: 'Deposited', data: { amount: 7 } }], 0);
    await svc.runner.caughtUp();
    expect((await db.pool.query(`SELECT balance::int FROM dl_c.fragile_accounts WHERE stream_id = 'c-late'`)).rows).toEqual([{ balance: 7 }]);
    await svc.close();
    await op.close();
    till.close();
  });

  it('refused Kafka messages: listed with their reason; one that is a real event is retried by a rebuild, a forged one and another group’s can only be skipped', async () => {
    const till = await migratedStore(db.pool, 'till');
    const ledger = ledgerProjection('fragile', ['till']);
    const svc = service('dl_d', [ledger]);
    await svc.runner.start();
    await svc.runner.caughtUp();
    // What the Kafka consumer of dl_d would have stored: the relay's envelope of a real event whose
    // signature did not check out (so the projection never saw it), a message that is not JSON, and
    // a message refused for a group that is not a projection.
    const missed = (await till.readStream('a-3'))[1];
    await db.pool.query(transportDeadLettersDdl('dl_d'));
    await db.pool.query(
      `INSERT INTO dl_d.transport_dead_letters (group_name, source, partition, kafka_offset, reason, value) VALUES
         ('dl_d.fragile', 'till', 2, '41', 'firma del mensaje inválida o ausente', $1),
         ('dl_d.fragile', 'till', 0, '7', 'el mensaje no es JSON', 'hola'),
         ('dl_d.stock-reactions', 'till', 1, '3', 'firma del mensaje inválida o ausente', $1)`,
      [JSON.stringify(toEnvelope(missed))],
    );
    await db.pool.query(`UPDATE dl_d.fragile_accounts SET events = events - 1, balance = balance - 10 WHERE stream_id = 'a-3'`);
    const op = tool('dl_d', [ledger]);
    const listed = await op.dead.list();
    expect(listed.map((e) => [e.id, e.kind, e.projection, e.type, e.error])).toEqual([
      ['dl_d.fragile@till/0/7', 'transport', 'fragile', null, 'el mensaje no es JSON'],
      ['dl_d.fragile@till/2/41', 'transport', 'fragile', 'Deposited', 'firma del mensaje inválida o ausente'],
      ['dl_d.stock-reactions@till/1/3', 'transport', null, 'Deposited', 'firma del mensaje inválida o ausente'],
    ]);

    await expect(op.dead.retry('dl_d.fragile@till/0/7')).rejects.toThrow(
      'El mensaje dl_d.fragile@till/0/7 no corresponde a ningún evento de till (el mensaje no es JSON): no hay nada que reintentar; descártalo con --skip',
    );
    await expect(op.dead.retry('dl_d.stock-reactions@till/1/3')).rejects.toThrow(/^dl_d\.stock-reactions no es una proyección de dl_d/);
    const rebuilt = await op.dead.retry('dl_d.fragile@till/2/41');
    expect(rebuilt).toMatchObject({ outcome: 'rebuilt' });
    const reference = service('dl_ref2', [ledgerProjection('fragile', ['till'])]);
    await reference.runner.start();
    await reference.runner.caughtUp();
    expect(await rowsOf(db.pool, 'dl_d.fragile_accounts')).toEqual(await rowsOf(db.pool, 'dl_ref2.fragile_accounts'));
    await reference.close();
    expect(await op.dead.skip('dl_d.fragile@till/0/7')).toMatchObject({ outcome: 'skipped' });
    expect(await op.dead.skip('dl_d.stock-reactions@till/1/3')).toMatchObject({ outcome: 'skipped' });
    expect(await op.dead.list()).toEqual([]);
    await svc.close();
    await op.close();
    till.close();
  });

  it("a reaction's dead letter: a retry hands the event back to the running service, which acts on it with its code now; a skip moves past it without acting", async () => {
    const bell = await migratedStore(db.pool, 'bell');
    await bell.append('r-ok', [{ type: 'Deposited', data: { amount: 1 } }], 0);
    await bell.append('r-poison', [{ type: 'Poisoned', data: { amount: 1 } }], 0);
    const bug = { broken: true };
    const notify = reaction({
      name: 'notify',
      sources: ['bell'],
      apply: async (tx, events) => {
        if (bug.broken && events.some((e) => e.type === 'Poisoned')) throw new Error('no sé reaccionar a Poisoned');
        // Its effect lives in the service's own table, in the runner's transaction.
        await tx.query('CREATE TABLE IF NOT EXISTS dl_e.effects (stream_id text NOT NULL)');
        for (const e of events) await tx.query('INSERT INTO dl_e.effects VALUES ($1)', [e.streamId]);
      },
    });
    const svc = service('dl_e', [notify]);
    await svc.runner.start();
    await eventually(async () => (await svc.runner.states()).find((x) => x.name === 'notify')?.status === 'paused', 15000, 'notify paused');
    // What the reaction did, as its transaction committed it (a batch that failed left nothing).
    const acted = async () => (await db.pool.query('SELECT stream_id FROM dl_e.effects ORDER BY stream_id')).rows.map((r) => r.stream_id);
    const notifyCheckpoint = async () =>
      Number((await db.pool.query(`SELECT global_position FROM dl_e.subscription_checkpoints WHERE group_name = 'dl_e.notify'`)).rows[0].global_position);
    // The operator's tool knows only the read models (a reaction's code needs the service).
    const op = tool('dl_e', []);
    const [entry] = await op.dead.list();
    expect(entry).toMatchObject({ id: 'dl_e.notify:1', kind: 'projection', projection: 'notify', type: 'Poisoned', streamId: 'r-poison', error: 'no sé reaccionar a Poisoned', attempts: 3 });
    expect(await notifyCheckpoint()).toBe(1);

    // Retried with the bug still there: handed back, the service fails on it again and dead-letters it again.
    expect(await op.dead.retry(entry.id)).toMatchObject({ outcome: 'requeued', resumed: true, entry: { type: 'Poisoned' } });
    expect(await op.dead.list()).toEqual([]);
    expect(await notifyCheckpoint()).toBe(1);
    expect(await svc.runner.resumeReleased()).toEqual(['notify']);
    await eventually(async () => (await op.dead.list()).length === 1, 15000, 'dead-lettered again');
    const [again] = await op.dead.list();
    expect(again).toMatchObject({ type: 'Poisoned', streamId: 'r-poison', attempts: 3 });
    expect(await acted()).toEqual(['r-ok']);

    // After the fix, a retry makes the running service act on it, once, and go on.
    bug.broken = false;
    expect(await op.dead.retry(again.id)).toMatchObject({ outcome: 'requeued', resumed: true });
    await eventually(async () => (await svc.runner.resumeReleased()).length > 0 || !svc.runner.isPaused('notify'), 10000, 'notify resumed');
    await svc.runner.caughtUp('notify');
    expect(await acted()).toEqual(['r-ok', 'r-poison']);
    expect(await notifyCheckpoint()).toBe(2);
    expect((await svc.runner.states())[0]).toMatchObject({ name: 'notify', status: 'running', lastError: null });

    // A skip: the next poison is left out; the checkpoint moves past it and nothing acts on it.
    bug.broken = true;
    await bell.append('r-poison-2', [{ type: 'Poisoned', data: { amount: 2 } }], 0);
    await eventually(async () => (await op.dead.list()).length === 1, 15000, 'second poison dead-lettered');
    const [second] = await op.dead.list();
    expect(await op.dead.skip(second.id)).toMatchObject({ outcome: 'skipped', resumed: true, entry: { streamId: 'r-poison-2' } });
    expect(await notifyCheckpoint()).toBe(3);
    expect(await svc.runner.resumeReleased()).toEqual(['notify']);
    bug.broken = false;
    await bell.append('r-after', [{ type: 'Deposited', data: { amount: 3 } }], 0);
    await svc.runner.caughtUp('notify');
    expect(await acted()).toEqual(['r-after', 'r-ok', 'r-poison']);
    await svc.close();
    await op.close();
    bell.close();
  });
});
