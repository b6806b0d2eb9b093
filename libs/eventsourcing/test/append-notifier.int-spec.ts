import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { AppendNotifier, BUSY_APPENDS_PER_SECOND } from '../src/append-notifier';
import { notifyChannel } from '../src/event-table';
import { openTestDb, type TestDb } from './support';

jest.setTimeout(60_000);

let db: TestDb;
beforeAll(async () => {
  db = await openTestDb();
});
afterAll(async () => {
  await db.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts the NOTIFYs of a schema's channel, as a subscriber's LISTEN connection receives them. */
async function listen(schema: string): Promise<{ count: () => number; close: () => Promise<void> }> {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  let n = 0;
  client.on('notification', () => n++);
  await client.query(`LISTEN ${notifyChannel(schema)}`);
  return { count: () => n, close: () => client.end() };
}

describe('the NOTIFYs after appends', () => {
  it('go out within the quiet delay while appends are few, and at most once per busy delay under a steady stream', async () => {
    const schema = `nt_${randomBytes(4).toString('hex')}`;
    const listener = await listen(schema);
    const notifier = new AppendNotifier(db.pool, schema, 5, 200);
    try {
      // Few appends, 60 ms apart: each is announced at once.
      for (let i = 0; i < 5; i++) {
        notifier.schedule(false);
        await sleep(60);
      }
      await sleep(100);
      expect(listener.count()).toBe(5);

      // A steady stream: more than BUSY_APPENDS_PER_SECOND appends within a second…
      const appendsPerTick = 10;
      const ticks = Math.ceil((BUSY_APPENDS_PER_SECOND * 1.5) / appendsPerTick);
      for (let i = 0; i < ticks; i++) {
        for (let k = 0; k < appendsPerTick; k++) notifier.schedule(false);
        await sleep(1000 / ticks);
      }
      // …and in the second after it, appends every 20 ms for a second share NOTIFYs 200 ms apart.
      const before = listener.count();
      const started = Date.now();
      while (Date.now() - started < 1000) {
        notifier.schedule(false);
        await sleep(20);
      }
      await sleep(300);
      const busy = listener.count() - before;
      // ~50 appends: at most one NOTIFY per 200 ms (5 or 6 with the trailing one), far fewer than appends.
      expect(busy).toBeGreaterThanOrEqual(2);
      expect(busy).toBeLessThanOrEqual(8);

      // Quiet again: a lone append after a quiet second is announced at once.
      await sleep(2100);
      const quiet = listener.count();
      notifier.schedule(false);
      await sleep(100);
      expect(listener.count()).toBe(quiet + 1);
    } finally {
      notifier.close();
      await listener.close();
    }
  });
});
