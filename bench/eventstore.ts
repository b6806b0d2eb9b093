// `npm run bench -- eventstore`: the event store against plain SQL, side by side, on one PostgreSQL.
//
// In a dedicated database created for the run (and dropped after it):
//  1. single-event appends, 8 concurrent writers on distinct streams, events/s, against a plain
//     single-row INSERT into an identical table (same columns, defaults and indexes);
//  2. 100-event appends against a plain 100-row INSERT, same writers;
//     (both measured in alternating rounds, so drift of the machine hits both sides alike)
//  3. over 1,000,000 events: catch-up read rate (readAll pages), a plain keyset SELECT of the same
//     rows and columns, and a ProjectionRunner rebuild (a per-stream and per-type read model)
//     as events/s and as a ratio to the plain keyset read;
//  4. append-to-visible latency (p50, p99) of a live postgres subscription while writers append at
//     half the single-event rate measured in 1 (open loop: an append is sent when due).
// Last line: {"append1_ratio":…,"append100_ratio":…,"rebuild_eps":…,"rebuild_ratio":…,"visible_p99_ms":…}
// Targets: append1 ≥ 0.80, append100 ≥ 0.70, rebuild ≥ 50,000 events/s and ≥ 0.25, visible p99 ≤ 100 ms.
// Knobs: BENCH_SETTLE=0 skips the VACUUM before phase 4, BENCH_EVENTS (1000000), BENCH_SECONDS per side and round (1.5), BENCH_ROUNDS (10), BENCH_LATENCY_SECONDS (10).
import { PostgresEventStore, PostgresTransport, ProjectionRunner, START, type Projection, type RecordedEventWithTx } from '@tiendita/eventsourcing';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createBenchDatabase } from './_db';
import { percentile, round2, runBench, sleep } from './_measure';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 1.5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 10);
const WRITERS = 8;
const READ_PAGE = 5000;

const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const int = (x: number) => Math.round(x);
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const log = (line: string) => console.log(line);

/** The metadata the store writes, built the same way for the plain side. */
function metadata(): string {
  return JSON.stringify({
    eventId: randomUUID(),
    schemaVersion: 1,
    storeId: 'store-1',
    occurredAt: new Date().toISOString(),
    correlationId: null,
    causationId: null,
    actor: null,
  });
}

const payload = (i: number) => ({ amount: i % 1000, note: 'venta en caja' });

/** Runs `work(writer)` in a loop on WRITERS concurrent writers for `seconds`; events/s. */
async function measure(seconds: number, perCall: number, work: (writer: number, i: number) => Promise<void>): Promise<number> {
  let calls = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; performance.now() < until; i++) {
        await work(w, i);
        calls++;
      }
    }),
  );
  return (calls * perCall) / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const db = await createBenchDatabase('eventstore', adminUrl);
  const dbName = db.name;
  const pool = new pg.Pool({ connectionString: db.url, max: 24 });
  pool.on('error', () => undefined);
  log(`eventstore bench: database ${dbName}, ${WRITERS} writers, ${fmt(EVENTS)} events for the read side`);
  try {
    const server = (await pool.query<{ v: string; fsync: string; sc: string }>(`SELECT version() AS v, current_setting('fsync') AS fsync, current_setting('synchronous_commit') AS sc`)).rows[0];
    log(`PostgreSQL: ${server.v.split(' on ')[0]}, fsync=${server.fsync}, synchronous_commit=${server.sc}`);

    // ---- 1 and 2: appends against plain INSERTs into an identical table ---------------------------
    const store = new PostgresEventStore(pool, 'bench', process.env.BENCH_NOTIFY_DELAY_MS ? { notifyDelayMs: Number(process.env.BENCH_NOTIFY_DELAY_MS) } : {});
    await store.migrate();
    const plainStore = new PostgresEventStore(pool, 'plain'); // only for its DDL: the identical table
    await plainStore.migrate();
    plainStore.close();
    const plainInsert1 = 'INSERT INTO plain.events (stream_id, stream_position, type, data, metadata) VALUES ($1, $2, $3, $4, $5)';
    const plainInsert100 =
      'INSERT INTO plain.events (stream_id, stream_position, type, data, metadata) VALUES ' +
      Array.from({ length: 100 }, (_, k) => `($${k * 5 + 1}, $${k * 5 + 2}, $${k * 5 + 3}, $${k * 5 + 4}, $${k * 5 + 5})`).join(', ');

    const version = new Map<string, number>();
    let streamSeq = 0;
    const nextStream = (prefix: string, w: number) => `${prefix}-${w}-${streamSeq++}`;
    const storeStreams = Array.from({ length: WRITERS }, (_, w) => nextStream('s', w));
    const plainStreams = Array.from({ length: WRITERS }, (_, w) => nextStream('p', w));

    const runStore1 = () =>
      measure(SECONDS, 1, async (w, i) => {
        const s = storeStreams[w];
        const v = version.get(s) ?? 0;
        await store.append(s, [{ type: 'SaleRecorded', data: payload(i) }], v);
        version.set(s, v + 1);
      });
    const runPlain1 = () =>
      measure(SECONDS, 1, async (w, i) => {
        const s = plainStreams[w];
        const v = version.get(s) ?? 0;
        await pool.query({ name: 'plain1', text: plainInsert1, values: [s, v + 1, 'SaleRecorded', JSON.stringify(payload(i)), metadata()] });
        version.set(s, v + 1);
      });
    const hundred = Array.from({ length: 100 }, (_, k) => ({ type: 'SaleRecorded', data: payload(k) }));
    const runStore100 = () =>
      measure(SECONDS, 100, async (w) => {
        const s = storeStreams[w];
        const v = version.get(s) ?? 0;
        await store.append(s, hundred, v);
        version.set(s, v + 100);
      });
    const runPlain100 = () =>
      measure(SECONDS, 100, async (w) => {
        const s = plainStreams[w];
        const v = version.get(s) ?? 0;
        const values: unknown[] = [];
        for (let k = 0; k < 100; k++) values.push(s, v + k + 1, 'SaleRecorded', JSON.stringify(payload(k)), metadata());
        await pool.query({ name: 'plain100', text: plainInsert100, values });
        version.set(s, v + 100);
      });

    // Warm-up: connections, prepared statements, caches.
    await measure(0.5, 1, async (w, i) => void (await store.append(`warm-${w}`, [{ type: 'W', data: payload(i) }], 'any')));
    await runPlain1();

    const a1: { store: number; plain: number }[] = [];
    const a100: { store: number; plain: number }[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate which side goes first.
      if (r % 2 === 0) a1.push({ plain: await runPlain1(), store: await runStore1() });
      else a1.push({ store: await runStore1(), plain: await runPlain1() });
      log(`  append×1   round ${r + 1}: store ${fmt(a1[r].store)} ev/s, plain INSERT ${fmt(a1[r].plain)} rows/s, ratio ${round2(a1[r].store / a1[r].plain)}`);
    }
    for (let r = 0; r < ROUNDS; r++) {
      if (r % 2 === 0) a100.push({ plain: await runPlain100(), store: await runStore100() });
      else a100.push({ store: await runStore100(), plain: await runPlain100() });
      log(`  append×100 round ${r + 1}: store ${fmt(a100[r].store)} ev/s, plain INSERT ${fmt(a100[r].plain)} rows/s, ratio ${round2(a100[r].store / a100[r].plain)}`);
    }
    // Each round pairs the two sides back to back; the ratio is the median of the rounds' ratios,
    // so a burst of load from another process on the machine skews one round, not the figure.
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    };
    const append1Store = sum(a1.map((x) => x.store)) / ROUNDS;
    const append1Plain = sum(a1.map((x) => x.plain)) / ROUNDS;
    const append100Store = sum(a100.map((x) => x.store)) / ROUNDS;
    const append100Plain = sum(a100.map((x) => x.plain)) / ROUNDS;
    const append1Ratio = median(a1.map((x) => x.store / x.plain));
    const append100Ratio = median(a100.map((x) => x.store / x.plain));
    log(`append×1:   store ${fmt(append1Store)} ev/s vs plain ${fmt(append1Plain)} rows/s (means) → median ratio ${round2(append1Ratio)} (ratio of means ${round2(append1Store / append1Plain)})`);
    log(`append×100: store ${fmt(append100Store)} ev/s vs plain ${fmt(append100Plain)} rows/s (means) → median ratio ${round2(append100Ratio)} (ratio of means ${round2(append100Store / append100Plain)})`);

    // ---- 3: reads and rebuild over EVENTS events ------------------------------------------------
    const source = new PostgresEventStore(pool, 'sales');
    await source.migrate();
    const fillStarted = performance.now();
    const CHUNK = 20_000;
    const STREAMS = 10_000;
    for (let from = 0; from < EVENTS; from += CHUNK) {
      // One transaction per chunk, so the history spans many transaction ids like a real one.
      await pool.query(
        `INSERT INTO sales.events (stream_id, stream_position, type, data, metadata)
         SELECT 'sale-' || (g % $3), g / $3 + 1, CASE WHEN g % 5 = 0 THEN 'SaleRefunded' ELSE 'SaleRecorded' END,
                jsonb_build_object('amount', g % 1000, 'note', 'venta en caja'),
                jsonb_build_object('eventId', gen_random_uuid(), 'schemaVersion', 1, 'storeId', 'store-' || (g % 50),
                  'occurredAt', now(), 'correlationId', null, 'causationId', null, 'actor', null)
         FROM generate_series($1::int, $2::int) AS g`,
        [from, Math.min(from + CHUNK, EVENTS) - 1, STREAMS],
      );
    }
    await pool.query('VACUUM ANALYZE sales.events');
    log(`filled ${fmt(EVENTS)} events in ${round2((performance.now() - fillStarted) / 1000)} s`);

    const client = await pool.connect();
    const columns = 'global_position, stream_id, stream_position, type, data, metadata, transaction_id::text, recorded_at';
    const keyset = async (): Promise<number> => {
      const t0 = performance.now();
      let last = 0;
      let n = 0;
      for (;;) {
        const r = await client.query({ name: 'keyset', text: `SELECT ${columns} FROM sales.events WHERE global_position > $1 ORDER BY global_position LIMIT $2`, values: [last, READ_PAGE] });
        if (r.rows.length === 0) break;
        n += r.rows.length;
        last = Number(r.rows[r.rows.length - 1].global_position);
      }
      if (n !== EVENTS) throw new Error(`keyset read ${n} rows`);
      return n / ((performance.now() - t0) / 1000);
    };
    const catchUp = async (): Promise<number> => {
      const t0 = performance.now();
      let from = START;
      let n = 0;
      for (;;) {
        const page = await source.readAll(from, READ_PAGE, client);
        if (page.length === 0) break;
        n += page.length;
        const last = page[page.length - 1];
        from = { transactionId: last.transactionId, globalPosition: last.globalPosition };
      }
      if (n !== EVENTS) throw new Error(`catch-up read ${n} events`);
      return n / ((performance.now() - t0) / 1000);
    };
    await keyset(); // warm the cache for both
    const keysetEps = await keyset();
    const catchUpEps = await catchUp();
    client.release();
    log(`plain keyset SELECT: ${fmt(keysetEps)} rows/s; catch-up readAll: ${fmt(catchUpEps)} events/s (${round2(catchUpEps / keysetEps)} of keyset)`);

    const projection: Projection = {
      name: 'sales_by_stream',
      version: 1,
      sources: ['sales'],
      tables: ['sales_by_stream', 'sales_by_type'],
      async setup(tx, t) {
        await tx.query(`CREATE TABLE IF NOT EXISTS ${t.sales_by_stream} (stream_id text PRIMARY KEY, sales integer NOT NULL, total bigint NOT NULL, last_type text NOT NULL)`);
        await tx.query(`CREATE TABLE IF NOT EXISTS ${t.sales_by_type} (type text PRIMARY KEY, sales integer NOT NULL)`);
      },
      async apply(tx, events: RecordedEventWithTx[], t) {
        const streams: string[] = new Array(events.length);
        const amounts: number[] = new Array(events.length);
        const types: string[] = new Array(events.length);
        for (let i = 0; i < events.length; i++) {
          const e = events[i];
          streams[i] = e.streamId;
          amounts[i] = (e.data as { amount: number }).amount;
          types[i] = e.type;
        }
        await tx.query(
          `INSERT INTO ${t.sales_by_stream} AS a (stream_id, sales, total, last_type)
           SELECT s, count(*), sum(amount), (array_agg(type ORDER BY ord DESC))[1]
           FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS u(s, amount, type, ord) GROUP BY s
           ON CONFLICT (stream_id) DO UPDATE SET sales = a.sales + EXCLUDED.sales, total = a.total + EXCLUDED.total, last_type = EXCLUDED.last_type`,
          [streams, amounts, types],
        );
        await tx.query(
          `INSERT INTO ${t.sales_by_type} AS k (type, sales) SELECT type, count(*) FROM unnest($1::text[]) AS u(type) GROUP BY type
           ON CONFLICT (type) DO UPDATE SET sales = k.sales + EXCLUDED.sales`,
          [types],
        );
      },
    };
    const transport = new PostgresTransport({ pool, schema: 'reporting', connectionString: db.url });
    const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const runner = new ProjectionRunner({ pool, schema: 'reporting', transport, projections: [projection], logger: quiet });
    let lastLine = 0;
    const first = await runner.rebuild('sales_by_stream', (p) => {
      if (Date.now() - lastLine < 2000) return;
      lastLine = Date.now();
      log(`  rebuild: ${fmt(p.done)}/${fmt(p.total)} events, ${fmt(p.eventsPerSecond)} ev/s, ETA ${p.etaSeconds === null ? '?' : round2(p.etaSeconds)} s`);
    });
    // Second run: a replay of a live projection, compared with the live tables before the swap.
    const second = await runner.rebuild('sales_by_stream');
    const check = await pool.query<{ n: string }>('SELECT sum(sales) AS n FROM reporting.sales_by_stream');
    if (Number(check.rows[0].n) !== EVENTS) throw new Error(`rebuild counted ${check.rows[0].n} events`);
    const rebuildEps = first.eventsPerSecond;
    const rebuildRatio = rebuildEps / keysetEps;
    log(
      `rebuild: ${fmt(first.events)} events in ${round2(first.seconds)} s → ${fmt(rebuildEps)} ev/s (${round2(rebuildRatio)} of keyset); ` +
        `replay with verify: ${round2(second.seconds)} s (${fmt(second.eventsPerSecond)} ev/s, verified=${second.verified})`,
    );
    await transport.close();

    // ---- 4: append-to-visible latency at half the single-event rate -----------------------------
    const rate = append1Store / 2;
    // Let the database settle after the million-event load and the rebuilds: first what autovacuum
    // would soon do by itself (vacuum and statistics of the freshly filled tables: otherwise it
    // starts in the middle of this phase and competes with the writers for the 2 cores and the
    // WAL), then a checkpoint, so dirty pages are flushed before rather than during the phase.
    // The latency measured is the steady state's, as in the catalog bench.
    const settle = performance.now();
    if (process.env.BENCH_SETTLE !== '0') await pool.query('VACUUM (ANALYZE)');
    await pool.query('CHECKPOINT');
    log(`settled (${process.env.BENCH_SETTLE === '0' ? 'CHECKPOINT only' : 'VACUUM ANALYZE + CHECKPOINT'}) in ${round2((performance.now() - settle) / 1000)} s`);
    // As a service runs them (libs/service-kit EventSourcingModule): the NOTIFYs and the subscription's
    // passes on small pools of their own, apart from the writers' pool and its queue.
    const notifyPool = new pg.Pool({ connectionString: db.url, max: 1 });
    const passPool = new pg.Pool({ connectionString: db.url, max: 4 });
    const writer = new PostgresEventStore(pool, 'bench', { notifyPool, ...(process.env.BENCH_NOTIFY_DELAY_MS ? { notifyDelayMs: Number(process.env.BENCH_NOTIFY_DELAY_MS) } : {}) });
    const live = new PostgresTransport({ pool, passPool, schema: 'watcher', connectionString: db.url });
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    /** Due time to append committed, to tell the write path's share of the latency. */
    const committed: number[] = [];
    const sub = await live.subscribe({
      group: 'watcher.latency',
      source: 'bench',
      handle: async (events) => {
        const now = performance.now();
        for (const e of events) {
          const t = sentAt.get(e.metadata.eventId);
          if (t !== undefined) latencies.push(now - t);
        }
      },
    });
    await sub.caughtUp();
    const total = Math.round(rate * LATENCY_SECONDS);
    // BENCH_WAIT_EVENTS=1: what the server's active backends wait on during the phase, sampled every 10 ms.
    const waits = new Map<string, number>();
    let sampling = process.env.BENCH_WAIT_EVENTS === '1';
    // Client backends at work, and background processes other than in their idle main loop (named
    // in any case: PostgreSQL 18 writes BgwriterMain where 15 writes BgWriterMain).
    const sampler = (async () => {
      if (!sampling) return;
      const c = new pg.Client({ connectionString: db.url });
      await c.connect();
      while (sampling) {
        const r = await c.query<{ w: string; n: number }>(
          `SELECT CASE WHEN backend_type = 'client backend' THEN coalesce(wait_event_type || ':' || wait_event, 'CPU')
                       ELSE backend_type || '=' || coalesce(wait_event, 'CPU') END AS w, count(*)::int AS n
           FROM pg_stat_activity
           WHERE pid <> pg_backend_pid()
             AND CASE WHEN backend_type = 'client backend' THEN state = 'active'
                      ELSE lower(coalesce(wait_event, '')) NOT IN ('checkpointermain', 'walwritermain', 'bgwriterhibernate', 'bgwritermain', 'autovacuummain', 'logicallaunchermain', 'ioworkermain') END
           GROUP BY 1`,
        );
        for (const row of r.rows) waits.set(row.w, (waits.get(row.w) ?? 0) + row.n);
        await sleep(10);
      }
      await c.end();
    })();
    const t0 = performance.now();
    let late = 0;
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total; i++) {
      const due = t0 + (i / rate) * 1000;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      else if (wait < -50) late++;
      const eventId = randomUUID();
      sentAt.set(eventId, due);
      const p = writer
        .append(`lat-${i}`, [{ type: 'SaleRecorded', data: payload(i) }], 0, { eventId })
        .then(() => {
          committed.push(performance.now() - due);
        })
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
    sampling = false;
    await sampler;
    if (waits.size > 0) log(`wait events (samples): ${[...waits].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([w, n]) => `${w} ${n}`).join(', ')}`);
    await sub.caughtUp();
    await sub.stop();
    await live.close();
    writer.close();
    await Promise.all([notifyPool.end(), passPool.end()]);
    latencies.sort((a, b) => a - b);
    committed.sort((a, b) => a - b);
    log(`append committed (due → commit): p50 ${round2(percentile(committed, 50))} ms, p99 ${round2(percentile(committed, 99))} ms`);
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    log(`visible latency at ${fmt(rate)} ev/s (${fmt(total)} appends, ${late} sent >50 ms late): p50 ${round2(p50)} ms, p99 ${round2(p99)} ms, max ${round2(latencies[latencies.length - 1])} ms`);
    if (latencies.length !== total) throw new Error(`saw ${latencies.length} of ${total} events`);

    store.close();
    source.close();
    const ok = (b: boolean) => (b ? 'ok' : 'MISSED');
    log(
      `targets: append1 ≥ 0.80 ${ok(append1Ratio >= 0.8)}, append100 ≥ 0.70 ${ok(append100Ratio >= 0.7)}, rebuild ≥ 50,000 ev/s ${ok(rebuildEps >= 50_000)} and ≥ 0.25 ${ok(rebuildRatio >= 0.25)}, visible p99 ≤ 100 ms ${ok(p99 <= 100)}`,
    );
    console.log(
      JSON.stringify({
        append1_ratio: round2(append1Ratio),
        append100_ratio: round2(append100Ratio),
        rebuild_eps: int(rebuildEps),
        rebuild_ratio: round2(rebuildRatio),
        visible_p99_ms: round2(p99),
      }),
    );
  } finally {
    await pool.end();
    await db.drop();
  }
}

runBench(main);
