import { ErrorCode } from '@tiendita/contracts';
import { Client, type PoolClient } from 'pg';
import { createTestDatabase } from '@tiendita/service-kit/testing';
import { ConcurrencyError, PostgresEventStore, PostgresTransport, START, type RecordedEventWithTx, type Subscription } from '../src';
import { migratedStore, openTestDb, type TestDb } from './support';

let db: TestDb;

beforeAll(async () => {
  db = await openTestDb(40);
});
afterAll(async () => {
  await db.close();
});

describe('append', () => {
  let store: PostgresEventStore;
  beforeAll(async () => {
    store = await migratedStore(db.pool, 'orders');
  });
  afterAll(() => store.close());

  it('two appends at the same expected version: exactly one succeeds, and the stream has no gaps', async () => {
    for (let round = 0; round < 20; round++) {
      const stream = `order-${round}`;
      await store.append(stream, [{ type: 'OrderPlaced', data: { n: 0 } }, { type: 'OrderConfirmed', data: {} }], 0);
      const results = await Promise.allSettled([
        store.append(stream, [{ type: 'OrderShipped', data: { by: 'a' } }], 2),
        store.append(stream, [{ type: 'OrderCancelled', data: { by: 'b' } }, { type: 'RefundIssued', data: {} }], 2),
      ]);
      const ok = results.filter((r) => r.status === 'fulfilled');
      const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(ok).toHaveLength(1);
      expect(failed).toHaveLength(1);
      expect(failed[0].reason).toBeInstanceOf(ConcurrencyError);
      expect(failed[0].reason).toMatchObject({ code: ErrorCode.concurrency, details: { streamId: stream, expectedVersion: 2 } });
      const positions = (await store.readStream(stream)).map((e) => e.streamPosition);
      expect(positions).toEqual(Array.from({ length: positions.length }, (_, i) => i + 1));
      expect([3, 4]).toContain(positions.length);
    }
  });

  it('refuses an expected version beyond the end of the stream, and a new stream when one exists', async () => {
    await store.append('late', [{ type: 'A', data: {} }], 0);
    await expect(store.append('late', [{ type: 'B', data: {} }], 5)).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.append('late', [{ type: 'B', data: {} }], 0)).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.append('nowhere', [{ type: 'B', data: {} }], 1)).rejects.toBeInstanceOf(ConcurrencyError);
    const r = await store.append('late', [{ type: 'B', data: {} }, { type: 'C', data: {} }], 1);
    expect(r.nextExpectedVersion).toBe(3);
    expect((await store.readStream('late')).map((e) => [e.streamPosition, e.type])).toEqual([
      [1, 'A'],
      [2, 'B'],
      [3, 'C'],
    ]);
    expect((await store.readStream('nowhere')).length).toBe(0);
  });

  it('never leaves a gap: a version beyond the end is refused whether or not the store saw the stream, and a rolled-back append is forgotten', async () => {
    await store.append('g', [{ type: 'A', data: {} }], 0);
    // A second store instance knows nothing of 'g': it probes.
    const other = new PostgresEventStore(db.pool, 'orders');
    await expect(other.append('g', [{ type: 'B', data: {} }], 3)).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(other.append('g', [{ type: 'B', data: {} }, { type: 'C', data: {} }], 2)).rejects.toBeInstanceOf(ConcurrencyError);
    // An append inside a transaction that rolls back must not count as seen.
    const tx = await db.pool.connect();
    await tx.query('BEGIN');
    await store.append('g', [{ type: 'B', data: {} }], 1, {}, tx);
    expect((await store.readStream('g', 0, tx)).length).toBe(2);
    await tx.query('ROLLBACK');
    tx.release();
    await expect(store.append('g', [{ type: 'C', data: {} }], 2)).rejects.toBeInstanceOf(ConcurrencyError);
    await expect(store.append('g', [{ type: 'C', data: {} }, { type: 'D', data: {} }], 2)).rejects.toBeInstanceOf(ConcurrencyError);
    await store.append('g', [{ type: 'B', data: {} }], 1);
    await other.append('g', [{ type: 'C', data: {} }], 2);
    expect((await store.readStream('g')).map((e) => [e.streamPosition, e.type])).toEqual([
      [1, 'A'],
      [2, 'B'],
      [3, 'C'],
    ]);
    other.close();
  });

  it("appends with expected version 'any' at the end of the stream and fills the envelope", async () => {
    await store.append('free', [{ type: 'A', data: { x: 1 } }], 'any', { storeId: 'store-1', actor: 'user-1', correlationId: 'c-1' });
    const r = await store.append('free', [{ type: 'B', data: {} }], 'any');
    expect(r.nextExpectedVersion).toBe(2);
    const [a] = await store.readStream('free');
    expect(a).toMatchObject({ streamId: 'free', streamPosition: 1, type: 'A', data: { x: 1 } });
    expect(a.metadata).toMatchObject({ storeId: 'store-1', actor: 'user-1', correlationId: 'c-1', causationId: null, schemaVersion: 1 });
    expect(a.metadata.eventId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('appendEach: events for several streams in one statement, each after what its stream holds, in the order given', async () => {
    await store.append('each-a', [{ type: 'A1', data: {} }, { type: 'A2', data: {} }], 0);
    const r = await store.appendEach([
      { streamId: 'each-a', event: { type: 'A3', data: { n: 3 } }, metadata: { storeId: 'store-1', actor: 'user-a', eventId: '00000000-0000-4000-8000-0000000000a3' } },
      { streamId: 'each-b', event: { type: 'B1', data: { n: 1 } } },
      { streamId: 'each-a', event: { type: 'A4', data: { n: 4 } }, metadata: { occurredAt: '2026-01-02T03:04:05.000Z' } },
      { streamId: 'each-b', event: { type: 'B2', data: { n: 2 } } },
    ]);
    expect(r.map((x) => [x.streamId, x.streamPosition])).toEqual([['each-a', 3], ['each-b', 1], ['each-a', 4], ['each-b', 2]]);
    expect(r.map((x) => x.globalPosition)).toEqual([...r.map((x) => x.globalPosition)].sort((x, y) => x - y));
    const a = await store.readStream('each-a');
    expect(a.map((e) => [e.streamPosition, e.type])).toEqual([[1, 'A1'], [2, 'A2'], [3, 'A3'], [4, 'A4']]);
    expect(a[2].metadata).toMatchObject({ storeId: 'store-1', actor: 'user-a', eventId: '00000000-0000-4000-8000-0000000000a3', causationId: null });
    expect(a[3].metadata.occurredAt).toBe('2026-01-02T03:04:05.000Z');
    expect(new Set(a.slice(2).map((e) => e.transactionId)).size).toBe(1);
    expect((await store.readStream('each-b')).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await store.appendEach([])).toEqual([]);
  });

  it('appendEach: a conflict with another append writes nothing of the call and answers ConcurrencyError', async () => {
    await store.append('each-c', [{ type: 'C1', data: {} }], 0);
    const client = await db.pool.connect();
    try {
      // Another transaction holds position 2 of each-c, uncommitted: appendEach waits for it, then collides.
      await client.query('BEGIN');
      await store.append('each-c', [{ type: 'C2', data: { by: 'other' } }], 1, {}, client);
      const pending = store.appendEach([
        { streamId: 'each-d', event: { type: 'D1', data: {} } },
        { streamId: 'each-c', event: { type: 'C2', data: { by: 'each' } } },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.query('COMMIT');
      await expect(pending).rejects.toMatchObject({ code: ErrorCode.concurrency, details: { streamId: 'each-c' } });
    } finally {
      client.release();
    }
    expect((await store.readStream('each-c')).map((e) => e.data)).toEqual([{}, { by: 'other' }]);
    expect(await store.readStream('each-d')).toEqual([]);
  });
});

describe('readAll', () => {
  it('orders transaction ids as numbers, not strings, across a decimal digit boundary, page by page', async () => {
    const store = await migratedStore(db.pool, 'digits');
    // Committed rows with explicit old transaction ids on both sides of a power of ten below the
    // oldest transaction in flight: p-1 < p numerically, but 'p' < 'p-1' as text ('1000' < '999').
    const xmin = Number((await db.pool.query('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x')).rows[0].x);
    const p = 10 ** Math.floor(Math.log10(xmin - 1));
    await db.pool.query(
      `INSERT INTO digits.events (stream_id, stream_position, type, data, metadata, transaction_id) VALUES
        ('s', 1, 'A', '{}', '{"eventId":"e1"}', $1), ('s', 2, 'B', '{}', '{"eventId":"e2"}', $1),
        ('t', 1, 'C', '{}', '{"eventId":"e3"}', $2), ('u', 1, 'D', '{}', '{"eventId":"e4"}', $2),
        ('v', 1, 'E', '{}', '{"eventId":"e5"}', '2')`,
      [String(p - 1), String(p)],
    );
    const seen: string[] = [];
    let from = START;
    for (;;) {
      const page = await store.readAll(from, 2);
      if (page.length === 0) break;
      seen.push(...page.map((e) => `${e.transactionId}:${e.type}`));
      const last = page[page.length - 1];
      from = { transactionId: last.transactionId, globalPosition: last.globalPosition };
    }
    expect(seen).toEqual(['2:E', `${p - 1}:A`, `${p - 1}:B`, `${p}:C`, `${p}:D`]);
    store.close();
  });

  it('never returns an event of a transaction still in flight, nor one after it', async () => {
    const store = await migratedStore(db.pool, 'inflight');
    await store.append('a', [{ type: 'First', data: {} }], 0);
    const open = await db.pool.connect();
    await open.query('BEGIN');
    await store.append('b', [{ type: 'Held', data: {} }], 0, {}, open);
    await store.append('c', [{ type: 'Later', data: {} }], 0); // committed, but after the open transaction
    expect((await store.readAll(START, 100)).map((e) => e.type)).toEqual(['First']);
    await open.query('COMMIT');
    open.release();
    expect((await store.readAll(START, 100)).map((e) => e.type)).toEqual(['First', 'Held', 'Later']);
    store.close();
  });
  it('is not held back by a transaction in flight in another database of the same server, which cannot write here', async () => {
    const store = await migratedStore(db.pool, 'elsewhere');
    const other = await createTestDatabase();
    const foreign = new Client({ connectionString: other.url });
    await foreign.connect();
    await foreign.query('BEGIN');
    await foreign.query('SELECT pg_current_xact_id()');
    // In this database, a transaction that started after the foreign one commits an event.
    await store.append('x', [{ type: 'Visible', data: {} }], 0);
    expect((await store.readAll(START, 10)).map((e) => e.type)).toEqual(['Visible']);
    // A transaction of this database, though, still holds readers back.
    const local = await db.pool.connect();
    await local.query('BEGIN');
    await local.query('SELECT pg_current_xact_id()');
    await store.append('y', [{ type: 'Waiting', data: {} }], 0);
    expect((await store.readAll(START, 10)).map((e) => e.type)).toEqual(['Visible']);
    await local.query('COMMIT');
    local.release();
    expect((await store.readAll(START, 10)).map((e) => e.type)).toEqual(['Visible', 'Waiting']);
    await foreign.query('ROLLBACK');
    await foreign.end();
    await other.drop();
    store.close();
  });
});

describe('a subscriber reading while concurrent writers commit out of order', () => {
  it('delivers every committed event exactly once, in the global order, skipping none, and never a rolled-back one', async () => {
    const store = await migratedStore(db.pool, 'gaps');
    await db.pool.query('CREATE SCHEMA consumer; CREATE TABLE consumer.seen (event_id text PRIMARY KEY, seq integer NOT NULL)');
    const transport = new PostgresTransport({ pool: db.pool, schema: 'consumer', connectionString: db.url, pollIntervalMs: 50 });
    const delivered: RecordedEventWithTx[] = [];
    let seq = 0;
    const sub: Subscription = await transport.subscribe({
      group: 'consumer.gaps',
      source: 'gaps',
      batchSize: 5,
      handle: async (events, tx: PoolClient) => {
        // The primary key turns a second delivery into a failure of the test.
        for (const e of events) await tx.query('INSERT INTO consumer.seen VALUES ($1, $2)', [e.metadata.eventId, seq++]);
        delivered.push(...events);
      },
    });

    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    const rand = (n: number) => Math.floor(Math.random() * n);
    const committed = new Set<string>();
    const rolledBack = new Set<string>();
    const writer = async (w: number) => {
      for (let i = 0; i < 20; i++) {
        const tag = `${w}-${i}`;
        const stream = `w${w}-s${i % 3}`;
        const events = Array.from({ length: 1 + rand(3) }, (_, k) => ({ type: 'Happened', data: { tag, k } }));
        const fate = rand(5);
        if (fate === 0) {
          await store.append(stream, events, 'any');
          committed.add(tag);
          continue;
        }
        const client = await db.pool.connect();
        try {
          await client.query('BEGIN');
          // Sometimes take the transaction id first and the positions later: the xid order and the
          // position order then disagree, the case a global_position-only reader gets wrong.
          if (fate === 1) {
            await client.query('SELECT pg_current_xact_id()');
            await sleep(rand(30));
          }
          await store.append(stream, events, 'any', {}, client);
          if (fate === 2) await client.query('SELECT pg_sleep($1)', [rand(40) / 1000]);
          else await sleep(rand(40));
          if (fate === 3) {
            await client.query('ROLLBACK');
            rolledBack.add(tag);
          } else {
            await client.query('COMMIT');
            committed.add(tag);
          }
        } finally {
          client.release();
        }
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, w) => writer(w)));
    await sub.caughtUp();

    const all = await db.pool.query<{ event_id: string; transaction_id: string; global_position: string }>(
      `SELECT metadata->>'eventId' AS event_id, transaction_id::text AS transaction_id, global_position FROM gaps.events e ORDER BY e.transaction_id, e.global_position`,
    );
    expect(delivered.map((e) => e.metadata.eventId)).toEqual(all.rows.map((r) => r.event_id));
    expect(new Set(delivered.map((e) => e.metadata.eventId)).size).toBe(delivered.length);
    const tags = new Set(delivered.map((e) => (e.data as { tag: string }).tag));
    expect([...tags].sort()).toEqual([...committed].sort());
    for (const tag of rolledBack) expect(tags.has(tag)).toBe(false);
    expect(rolledBack.size).toBeGreaterThan(0);
    // Every delivered event comes after the one before it in the global order.
    for (let i = 1; i < delivered.length; i++) {
      const a = delivered[i - 1];
      const b = delivered[i];
      const before = BigInt(a.transactionId) < BigInt(b.transactionId) || (a.transactionId === b.transactionId && a.globalPosition < b.globalPosition);
      expect(before).toBe(true);
    }
    // The out-of-order commits really happened: positions alone are not ascending.
    const positions = delivered.map((e) => e.globalPosition);
    expect(positions.some((p, i) => i > 0 && p < positions[i - 1])).toBe(true);
    expect((await db.pool.query('SELECT count(*)::int AS n FROM consumer.seen')).rows[0].n).toBe(delivered.length);

    await sub.stop();
    await transport.close();
    store.close();
  });
});
