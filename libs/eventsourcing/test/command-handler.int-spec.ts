import { ErrorCode } from '@tiendita/contracts';
import type { PoolClient } from 'pg';
import { ConcurrencyError, handleCommand, IllegalStateError, PostgresEventStore, type RecordedEventWithTx } from '../src';
import { counterDecider } from './counter';
import { openTestDb, type TestDb } from './support';

let db: TestDb;
let store: PostgresEventStore;

/**
 * A real store on which another writer appends right after each of the next `races` reads of a
 * stream: the command handler's append then clashes, as with a concurrent request.
 */
class RacedStore extends PostgresEventStore {
  races = 0;
  override async readStream(streamId: string, fromVersion = 0, client?: PoolClient): Promise<RecordedEventWithTx[]> {
    const events = await super.readStream(streamId, fromVersion, client);
    if (this.races > 0) {
      this.races--;
      await super.append(streamId, [{ type: 'Incremented', data: { by: 0 } }], events.length);
    }
    return events;
  }
}

beforeAll(async () => {
  db = await openTestDb(20);
  store = new PostgresEventStore(db.pool, 'counters');
  await store.migrate();
});
afterAll(async () => {
  store.close();
  await db.close();
});

describe('handleCommand', () => {
  it('loads, folds, decides and appends with the expected version', async () => {
    const r1 = await handleCommand(store, 'c-1', counterDecider, { type: 'Increment', by: 3 });
    const r2 = await handleCommand(store, 'c-1', counterDecider, { type: 'Increment', by: 4 });
    expect(r1).toEqual({
      newEvents: [{ type: 'Incremented', data: { by: 3 } }],
      newState: { value: 3 },
      version: 1,
      position: { transactionId: expect.stringMatching(/^\d+$/), globalPosition: expect.any(Number) },
    });
    expect(r2).toMatchObject({ newState: { value: 7 }, version: 2 });
    // The position returned is the appended event's own, with no second query.
    const last = await store.readStream('c-1', 1);
    expect(r2.position).toEqual({ transactionId: last[0].transactionId, globalPosition: last[0].globalPosition });
    await expect(handleCommand(store, 'c-1', counterDecider, { type: 'Increment', by: 4 })).rejects.toThrow(new IllegalStateError('Límite alcanzado'));
    const noop = await handleCommand(store, 'c-empty', counterDecider, { type: 'Reset' });
    expect(noop).toEqual({ newEvents: [], newState: { value: 0 }, version: 0, position: null });
  });

  it('decides a new stream without reading it, and reads it when it was not new after all', async () => {
    const reads: string[] = [];
    class CountingStore extends PostgresEventStore {
      override readStream(streamId: string, fromVersion = 0, client?: PoolClient): Promise<RecordedEventWithTx[]> {
        reads.push(streamId);
        return super.readStream(streamId, fromVersion, client);
      }
    }
    const counting = new CountingStore(db.pool, 'counters');
    const fresh = await handleCommand(counting, 'c-new', counterDecider, { type: 'Increment', by: 2 }, { newStream: true, retries: 0 });
    expect([fresh.version, fresh.newState, reads]).toEqual([1, { value: 2 }, []]);
    // Not new: the append clashes, the next attempt reads the stream and decides on what it holds (even with no retries asked for).
    const again = await handleCommand(counting, 'c-new', counterDecider, { type: 'Increment', by: 3 }, { newStream: true, retries: 0 });
    expect([again.version, again.newState, reads]).toEqual([2, { value: 5 }, ['c-new']]);
    expect((await store.readStream('c-new')).map((e) => e.data)).toEqual([{ by: 2 }, { by: 3 }]);
  });

  it('retries on ConcurrencyError and succeeds when the clash goes away', async () => {
    const raced = new RacedStore(db.pool, 'counters');
    raced.races = 2;
    const r = await handleCommand(raced, 'c-2', counterDecider, { type: 'Increment', by: 1 }, { retries: 3 });
    expect(r.version).toBe(3); // two racing events, then ours
    expect((await store.readStream('c-2')).map((e) => e.streamPosition)).toEqual([1, 2, 3]);
    raced.close();
  });

  it('answers 409 with ConcurrencyError once the retries are spent', async () => {
    const raced = new RacedStore(db.pool, 'counters');
    raced.races = 4;
    const err = await handleCommand(raced, 'c-3', counterDecider, { type: 'Increment', by: 1 }, { retries: 3 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConcurrencyError);
    expect(err).toMatchObject({ code: ErrorCode.concurrency, message: 'El registro fue modificado por otra operación. Inténtalo de nuevo.' });
    // Four racing events, none of ours.
    expect((await store.readStream('c-3')).map((e) => e.data)).toEqual([{ by: 0 }, { by: 0 }, { by: 0 }, { by: 0 }]);
    raced.close();
  });

  it('concurrent commands on one stream all land, one after another, with no gaps', async () => {
    await Promise.all(Array.from({ length: 8 }, () => handleCommand(store, 'c-4', counterDecider, { type: 'Increment', by: 1 }, { retries: 20 })));
    const events = await store.readStream('c-4');
    expect(events.map((e) => e.streamPosition)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});
