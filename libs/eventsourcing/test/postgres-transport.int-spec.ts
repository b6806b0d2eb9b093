import { randomBytes } from 'node:crypto';
import { Pool, type PoolClient } from 'pg';
import { heldBackDelay, notifyChannel, PostgresEventStore, PostgresTransport, ProjectionRunner, type RecordedEventWithTx, type Subscription } from '../src';
import { recordStatements } from '../src/testing';
import { eventually, ledgerProjection, migratedStore, openTestDb, type TestDb } from './support';

/** A pool whose clients record the text of every statement they send. */
function recordingPool(url: string): { pool: Pool; texts: string[] } {
  const pool = new Pool({ connectionString: url, max: 4 });
  return { pool, texts: recordStatements(pool) };
}

/** Statements that read a source's events under the safe read bound (a pass's read, or its probe). */
const eventReads = (texts: string[], source: string) => texts.filter((t) => t.includes(`${source}.events`) && t.includes('pg_snapshot_xip')).length;
/** Statements that ask for a source's newest position (one index entry). */
const newestReads = (texts: string[], source: string) => texts.filter((t) => t.includes(`${source}.events e ORDER BY e.transaction_id DESC`)).length;

// Each test commits a dozen small transactions (DDL, appends, checkpoints) and some hold a transaction
// open on purpose. Its waits are bounded and name what they wait for; the whole test gets more than
// jest's 30 s because under the full suite (other files creating and dropping databases on the same
// disk) a commit's WAL flush can stall for seconds, and a 30 s timeout then hides which step was slow.
jest.setTimeout(90_000);

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

describe('the postgres transport, woken with nothing new', () => {
  it('answers a NOTIFY with nothing new without a commit (its locked pass rolls back); a new event still arrives at once', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    // The transport's own pool, whose clients count the commits they send (a commit of a transaction
    // that locked the checkpoint row waits for a WAL flush; a rollback does not).
    const { pool, texts } = recordingPool(db.url);
    const commits = () => texts.filter((t) => /\bCOMMIT\b/.test(t)).length;
    const transport = new PostgresTransport({ pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
    const seen: string[] = [];
    let sub: Subscription | null = null;
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        handle: async (events: RecordedEventWithTx[], _tx: PoolClient) => {
          seen.push(...events.map((e) => e.streamId));
        },
      });
      await store.append('s-1', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 1, 10_000, 'the first event');
      await new Promise((r) => setTimeout(r, 200)); // the pass after the batch
      texts.length = 0;

      for (let i = 0; i < 20; i++) {
        await db.pool.query('SELECT pg_notify($1, $2)', [notifyChannel(source), '']);
        await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise((r) => setTimeout(r, 300));
      expect(commits()).toBe(0);

      await store.append('s-2', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 2, 2_000, 'the second event, woken by its NOTIFY');
      expect(seen).toEqual(['s-1', 's-2']);
      expect(commits()).toBeGreaterThan(0);
      // caughtUp() still takes the locked path and ends.
      await sub.caughtUp();
    } finally {
      await sub?.stop();
      await transport.close();
      await pool.end();
    }
  });

  it('looks again shortly for an event an older transaction held back, without waiting for the poll', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    const transport = new PostgresTransport({ pool: db.pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
    const seen: string[] = [];
    let sub: Subscription | null = null;
    const older = await db.pool.connect();
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        handle: async (events: RecordedEventWithTx[]) => {
          seen.push(...events.map((e) => e.streamId));
        },
      });
      await store.append('s-1', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 1, 10_000, 'the first event');
      // A transaction of this database with an id, still open: events committed after it began are
      // not readable until it ends, and its end sends no NOTIFY.
      await older.query('BEGIN');
      await older.query('SELECT pg_current_xact_id()');
      await store.append('s-2', [{ type: 'Happened', data: {} }], 0);
      // Held back across many looks (5, 10, 20, 40, then every 50 ms).
      await new Promise((r) => setTimeout(r, 1_200));
      expect(seen).toEqual(['s-1']);
      const ended = Date.now();
      await older.query('COMMIT');
      await eventually(async () => seen.length === 2, 5_000, 'the held-back event');
      // Far sooner than the 60 s poll: the look-again waits at most 50 ms.
      expect(Date.now() - ended).toBeLessThan(2_000);
      expect(seen).toEqual(['s-1', 's-2']);
    } finally {
      await older.query('ROLLBACK').catch(() => undefined);
      older.release();
      await sub?.stop();
      await transport.close();
    }
  });

  it('looks again for a held-back event after 5 ms, doubling up to 50 ms at most, never past the poll', () => {
    expect([1, 2, 3, 4, 5, 6, 20, 1000].map((look) => heldBackDelay(look, 1000))).toEqual([5, 10, 20, 40, 50, 50, 50, 50]);
    expect([1, 2, 3, 4].map((look) => heldBackDelay(look, 15))).toEqual([5, 10, 15, 15]);
  });
});

describe('the postgres transport does not read a source that has not changed', () => {
  it('its poll asks an idle source only for its newest position, and still finds events that came without a NOTIFY, committed out of order', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    const recorded = recordingPool(db.url);
    const transport = new PostgresTransport({ pool: recorded.pool, schema: consumer, connectionString: db.url, pollIntervalMs: 50 });
    const seen: string[] = [];
    let sub: Subscription | null = null;
    const older = await db.pool.connect();
    const insert = (db: Pool | PoolClient, streamId: string) =>
      db.query(`INSERT INTO ${source}.events (stream_id, stream_position, type, data, metadata) VALUES ($1, 1, 'Happened', '{}', '{}')`, [streamId]);
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        handle: async (events: RecordedEventWithTx[]) => {
          seen.push(...events.map((e) => e.streamId));
        },
      });
      await store.append('s-1', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => seen.length === 1, 10_000, 'the first event');
      await new Promise((r) => setTimeout(r, 200));
      recorded.texts.length = 0;
      await new Promise((r) => setTimeout(r, 600));
      expect(newestReads(recorded.texts, source)).toBeGreaterThanOrEqual(3); // the polls ran…
      expect(eventReads(recorded.texts, source)).toBe(0); // …and read no events

      // No NOTIFY from here on. An older transaction writes an event and stays open; a younger one
      // writes another and commits: it is committed but held back by the safe read bound.
      await older.query('BEGIN');
      await insert(older, 's-older');
      await insert(db.pool, 's-2');
      await new Promise((r) => setTimeout(r, 300));
      expect(seen).toEqual(['s-1']);
      await older.query('COMMIT');
      await eventually(async () => seen.length === 3, 5_000, 'the events committed out of order');
      expect(seen).toEqual(['s-1', 's-older', 's-2']);
    } finally {
      await older.query('ROLLBACK').catch(() => undefined);
      older.release();
      await sub?.stop();
      await transport.close();
      await recorded.pool.end();
    }
  });

  it("a projection's caughtUp for one source does not read its other sources", async () => {
    const a = `src_${randomBytes(4).toString('hex')}`;
    const b = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const storeA = await migratedStore(db.pool, a);
    const storeB = await migratedStore(db.pool, b);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    const recorded = recordingPool(db.url);
    const transport = new PostgresTransport({ pool: recorded.pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
    const runner = new ProjectionRunner({ pool: recorded.pool, schema: consumer, transport, projections: [ledgerProjection('ledger', [a, b])] });
    try {
      await runner.start();
      await storeB.append('b-1', [{ type: 'Deposited', data: { amount: 1 } }], 0);
      await runner.caughtUp('ledger');
      await new Promise((r) => setTimeout(r, 100));
      recorded.texts.length = 0;
      await storeA.append('a-1', [{ type: 'Deposited', data: { amount: 2 } }], 0);
      await runner.caughtUp('ledger', a);
      expect((await db.pool.query(`SELECT stream_id, balance::int FROM ${consumer}.ledger_accounts ORDER BY stream_id`)).rows).toEqual([
        { stream_id: 'a-1', balance: 2 },
        { stream_id: 'b-1', balance: 1 },
      ]);
      expect(recorded.texts.filter((t) => t.includes(`${b}.events`))).toEqual([]);
    } finally {
      await runner.stop();
      await transport.close();
      storeA.close();
      storeB.close();
      await recorded.pool.end();
    }
  });
});

describe("the postgres transport's own pools", () => {
  it("delivers and wakes while every connection of the commands' pool is taken (a WAL-flush stall's queue), through its pass pool and the store's notify pool", async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    await migratedStore(db.pool, source);
    // The service's pool: two connections, both held by "commands" for the whole test.
    const commands = new Pool({ connectionString: db.url, max: 2 });
    const passPool = new Pool({ connectionString: db.url, max: 2 });
    const notifyPool = new Pool({ connectionString: db.url, max: 1 });
    const writerPool = new Pool({ connectionString: db.url, max: 1 });
    // The writer appends on a pool of its own here, so that only the NOTIFY's pool is in question.
    const writer = new PostgresEventStore(writerPool, source, { notifyPool });
    const transport = new PostgresTransport({ pool: commands, passPool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
    const seen: string[] = [];
    let sub: Subscription | null = null;
    const held: PoolClient[] = [];
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        handle: async (events: RecordedEventWithTx[]) => {
          seen.push(...events.map((e) => e.streamId));
        },
      });
      await sub.caughtUp();
      held.push(await commands.connect(), await commands.connect());
      let queued = false;
      const waiting = commands.connect().then((c) => {
        queued = true;
        c.release();
      });
      await writer.append('s-1', [{ type: 'Happened', data: {} }], 0);
      // Woken by its NOTIFY (the poll is a minute away) and read on the pass pool.
      await eventually(async () => seen.length === 1, 5_000, 'the event, with the commands pool exhausted');
      expect(seen).toEqual(['s-1']);
      expect(queued).toBe(false);
      held.splice(0).forEach((c) => c.release());
      await waiting;
      expect(queued).toBe(true);
    } finally {
      held.splice(0).forEach((c) => c.release());
      await sub?.stop();
      await transport.close();
      writer.close();
      await Promise.all([commands.end(), passPool.end(), notifyPool.end(), writerPool.end()]);
    }
  });
});

describe('the postgres transport gathers a steady stream (batchDelayMs)', () => {
  it('reads a quiet source at once, gathers a stream into fewer batches, and caughtUp() cuts the wait short', async () => {
    const source = `src_${randomBytes(4).toString('hex')}`;
    const consumer = `consumer_${randomBytes(4).toString('hex')}`;
    const store = await migratedStore(db.pool, source);
    await db.pool.query(`CREATE SCHEMA ${consumer}`);
    const transport = new PostgresTransport({ pool: db.pool, schema: consumer, connectionString: db.url, pollIntervalMs: 60_000 });
    const batches: string[][] = [];
    let sub: Subscription | null = null;
    try {
      sub = await transport.subscribe({
        group: 'g',
        source,
        batchDelayMs: 300,
        handle: async (events: RecordedEventWithTx[]) => {
          batches.push(events.map((e) => e.streamId));
        },
      });
      await sub.caughtUp();
      // Quiet source: its NOTIFY is answered at once.
      let started = Date.now();
      await store.append('s-0', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => batches.flat().length === 1, 5_000, 'the first event');
      expect(Date.now() - started).toBeLessThan(250);
      // A stream, one event every 20 ms for 200 ms: gathered into a few batches, not ten.
      for (let i = 1; i <= 10; i++) {
        await store.append(`s-${i}`, [{ type: 'Happened', data: {} }], 0);
        await new Promise((r) => setTimeout(r, 20));
      }
      await eventually(async () => batches.flat().length === 11, 5_000, 'the stream');
      expect(batches.length).toBeLessThanOrEqual(4);
      expect(batches.flat()).toEqual(Array.from({ length: 11 }, (_, i) => `s-${i}`));
      // Right after a batch the subscription gathers for 300 ms; a caughtUp() does not wait that long.
      await store.append('s-11', [{ type: 'Happened', data: {} }], 0);
      await eventually(async () => batches.flat().length === 12, 5_000, 'the event after the stream');
      await store.append('s-12', [{ type: 'Happened', data: {} }], 0);
      started = Date.now();
      await sub.caughtUp();
      expect(batches.flat()).toContain('s-12');
      expect(Date.now() - started).toBeLessThan(280);
    } finally {
      await sub?.stop();
      await transport.close();
    }
  });
});
