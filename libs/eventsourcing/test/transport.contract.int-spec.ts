import { randomBytes } from 'node:crypto';
import type { Pool, PoolClient } from 'pg';
import { KafkaTransport, PostgresTransport, type EventTransport, type RecordedEventWithTx, type SubscribeOptions } from '../src';
import { eventually, migratedStore, openTestDb, type TestDb } from './support';

/**
 * The contract every adapter of the subscription port keeps. It runs against postgres always and
 * against Kafka when KAFKA_BROKERS is set (see libs/eventsourcing/README.md).
 */
interface Adapter {
  name: string;
  /** Whether delivery follows the source's global order (Kafka: only within a stream's partition). */
  globalOrder: boolean;
  make(pool: Pool, url: string, schema: string, sources: string[]): EventTransport;
}

const adapters: Adapter[] = [
  {
    name: 'postgres',
    globalOrder: true,
    make: (pool, url, schema) => new PostgresTransport({ pool, schema, connectionString: url, pollIntervalMs: 100 }),
  },
];
const brokers = (process.env.KAFKA_BROKERS ?? '')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
if (brokers.length > 0) {
  adapters.push({
    name: 'kafka',
    globalOrder: false,
    make: (pool, url, schema, sources) => new KafkaTransport({ pool, schema, brokers, connectionString: url, relay: sources, partitions: 3, relayPollMs: 100 }),
  });
}

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb(30);
});
afterAll(async () => {
  await db.close();
});

const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

describe.each(adapters)('the $name transport keeps the subscription contract', (adapter) => {
  async function setup(sources = 1) {
    const consumer = unique('consumer');
    const names = Array.from({ length: sources }, () => unique('src'));
    const stores = await Promise.all(names.map((s) => migratedStore(db.pool, s)));
    await db.pool.query(`CREATE SCHEMA IF NOT EXISTS ${consumer}; CREATE TABLE ${consumer}.seen (grp text, event_id text, stream_id text, stream_position int, PRIMARY KEY (grp, event_id))`);
    const transport = adapter.make(db.pool, db.url, consumer, names);
    const record = (grp: string) => async (events: RecordedEventWithTx[], tx: PoolClient) => {
      // The primary key makes a second delivery of an applied event fail the test.
      await tx.query(`INSERT INTO ${consumer}.seen SELECT $1, unnest($2::text[]), unnest($3::text[]), unnest($4::int[])`, [
        grp,
        events.map((e) => e.metadata.eventId),
        events.map((e) => e.streamId),
        events.map((e) => e.streamPosition),
      ]);
    };
    const seen = async (grp: string) =>
      (await db.pool.query<{ event_id: string; stream_id: string; stream_position: number }>(`SELECT event_id, stream_id, stream_position FROM ${consumer}.seen WHERE grp = $1`, [grp])).rows;
    return {
      consumer,
      names,
      stores,
      transport,
      record,
      seen,
      async close() {
        await transport.close();
        stores.forEach((s) => s.close());
      },
    };
  }

  it('delivers every event once, each stream in order (and the source in its global order), and resumes from its checkpoint', async () => {
    const t = await setup();
    const [store] = t.stores;
    const source = t.names[0];
    for (let i = 0; i < 30; i++) await store.append(`s-${i % 4}`, [{ type: 'Happened', data: { i } }], 'any');
    const order: RecordedEventWithTx[] = [];
    const options = (): SubscribeOptions => ({
      group: `${t.consumer}.main`,
      source,
      batchSize: 7,
      handle: async (events, tx) => {
        await t.record('main')(events, tx);
        order.push(...events);
      },
    });
    const sub = await t.transport.subscribe(options());
    await sub.caughtUp();
    expect(await t.seen('main')).toHaveLength(30);
    await sub.stop();
    await sub.done;

    for (let i = 30; i < 45; i++) await store.append(`s-${i % 4}`, [{ type: 'Happened', data: { i } }], 'any');
    const again = await t.transport.subscribe(options());
    await again.caughtUp();
    const rows = await t.seen('main');
    expect(rows).toHaveLength(45);
    const byStream = new Map<string, number[]>();
    for (const e of order) byStream.set(e.streamId, [...(byStream.get(e.streamId) ?? []), e.streamPosition]);
    for (const positions of byStream.values()) expect(positions).toEqual(positions.map((_, i) => i + 1));
    if (adapter.globalOrder) {
      const all = await db.pool.query(`SELECT metadata->>'eventId' AS id FROM ${source}.events e ORDER BY e.transaction_id, e.global_position`);
      expect(order.map((e) => e.metadata.eventId)).toEqual(all.rows.map((r) => r.id));
    }
    await again.stop();
    await t.close();
  });

  it("runs the subscriber's batchStart in each batch's transaction before its handler, in the first batch too", async () => {
    const t = await setup();
    const [store] = t.stores;
    for (let i = 0; i < 5; i++) await store.append(`s-${i}`, [{ type: 'Happened', data: { i } }], 0);
    const marks: (string | null)[] = [];
    const sub = await t.transport.subscribe({
      group: `${t.consumer}.start`,
      source: t.names[0],
      batchSize: 2,
      batchStart: "SELECT set_config('tiendita.batch', 'started', true); SAVEPOINT batch_start",
      handle: async (events, tx) => {
        // The savepoint exists (a rollback to it works) and the setting is this transaction's.
        await tx.query('ROLLBACK TO SAVEPOINT batch_start');
        marks.push((await tx.query<{ v: string | null }>("SELECT current_setting('tiendita.batch', true) AS v")).rows[0].v);
        await t.record('start')(events, tx);
      },
    });
    await sub.caughtUp();
    expect(await t.seen('start')).toHaveLength(5);
    expect(marks.length).toBeGreaterThanOrEqual(3);
    expect(marks.every((m) => m === 'started')).toBe(true);
    // Outside a batch the setting is gone: it was local to each batch's transaction.
    expect((await db.pool.query<{ v: string | null }>("SELECT current_setting('tiendita.batch', true) AS v")).rows[0].v ?? '').toBe('');
    await sub.stop();
    await t.close();
  });

  it('rolls back a batch whose handler throws and delivers it again: its effects happen once', async () => {
    const t = await setup();
    const [store] = t.stores;
    for (let i = 0; i < 10; i++) await store.append(`s-${i}`, [{ type: 'Happened', data: { i } }], 0);
    let failures = 2;
    const errors: unknown[] = [];
    const sub = await t.transport.subscribe({
      group: `${t.consumer}.flaky`,
      source: t.names[0],
      handle: async (events, tx) => {
        await t.record('flaky')(events, tx);
        if (failures > 0) {
          failures--;
          throw new Error('falla pasajera');
        }
      },
      onError: (err) => errors.push(err),
    });
    await eventually(async () => (await t.seen('flaky')).length === 10, 20000, 'all 10 applied');
    expect(errors.map((e) => (e as Error).message)).toEqual(['falla pasajera', 'falla pasajera']);
    await sub.stop();
    expect(await t.seen('flaky')).toHaveLength(10);
    await t.close();
  });

  it('a handler that handles part of a batch stops the subscription after committing that part; the next one resumes at the rest', async () => {
    const t = await setup();
    const [store] = t.stores;
    for (let i = 0; i < 6; i++) await store.append('one-stream', [{ type: i === 3 ? 'Stop' : 'Happened', data: { i } }], i);
    const sub = await t.transport.subscribe({
      group: `${t.consumer}.partial`,
      source: t.names[0],
      handle: async (events, tx) => {
        const stopAt = events.findIndex((e) => e.type === 'Stop');
        if (stopAt < 0) return t.record('partial')(events, tx);
        await t.record('partial')(events.slice(0, stopAt), tx);
        return { handled: stopAt };
      },
    });
    await sub.done; // ends by itself
    expect((await t.seen('partial')).map((r) => r.stream_position).sort()).toEqual([1, 2, 3]);
    const rest = await t.transport.subscribe({ group: `${t.consumer}.partial`, source: t.names[0], handle: t.record('partial') });
    await eventually(async () => (await t.seen('partial')).length === 6, 20000, 'the rest applied');
    expect((await t.seen('partial')).map((r) => r.stream_position).sort()).toEqual([1, 2, 3, 4, 5, 6]);
    await rest.stop();
    await t.close();
  });

  it('caughtUp waits for an event committed before the call, even while an older transaction holds the read bound back', async () => {
    const t = await setup();
    const [store] = t.stores;
    await store.append('early', [{ type: 'Happened', data: {} }], 0);
    const sub = await t.transport.subscribe({ group: `${t.consumer}.bound`, source: t.names[0], handle: t.record('bound') });
    await sub.caughtUp();
    const older = await db.pool.connect();
    await older.query('BEGIN');
    await older.query('SELECT pg_current_xact_id()'); // an xid older than the next append's
    await store.append('late', [{ type: 'Happened', data: {} }], 0);
    let resolved = false;
    const waiting = sub.caughtUp().then(() => (resolved = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(resolved).toBe(false); // 'late' is committed but not yet readable without risk of a skip
    await older.query('COMMIT');
    older.release();
    await waiting;
    expect((await t.seen('bound')).map((r) => r.stream_id).sort()).toEqual(['early', 'late']);
    await sub.stop();
    await t.close();
  });

  it('keeps groups independent and reads each source on its own', async () => {
    const t = await setup(2);
    const [a, b] = t.stores;
    await a.append('x', [{ type: 'A', data: {} }, { type: 'A', data: {} }], 0);
    await b.append('y', [{ type: 'B', data: {} }], 0);
    const subs = await Promise.all([
      t.transport.subscribe({ group: `${t.consumer}.g1`, source: t.names[0], handle: t.record('g1') }),
      t.transport.subscribe({ group: `${t.consumer}.g2`, source: t.names[0], handle: t.record('g2') }),
      t.transport.subscribe({ group: `${t.consumer}.g3`, source: t.names[1], handle: t.record('g3') }),
    ]);
    await Promise.all(subs.map((s) => s.caughtUp()));
    expect((await t.seen('g1')).map((r) => r.stream_id)).toEqual(['x', 'x']);
    expect((await t.seen('g2')).map((r) => r.stream_id)).toEqual(['x', 'x']);
    expect((await t.seen('g3')).map((r) => r.stream_id)).toEqual(['y']);
    await Promise.all(subs.map((s) => s.stop()));
    await t.close();
  });
});
