import type { PoolClient } from 'pg';
import { fold, type Decider } from './decider';
import { ConcurrencyError } from './errors';
import type { Position, PostgresEventStore } from './event-store';
import type { AppendMetadata, DomainEvent } from './types';

export interface HandleCommandOptions {
  metadata?: AppendMetadata;
  /** Attempts after the first on ConcurrencyError before answering 409. */
  retries?: number;
  /** Run inside this transaction (no retry then: the caller owns the transaction). */
  client?: PoolClient;
  /**
   * The caller knows the stream is new (an id it has just made, or one it read empty a moment ago):
   * the first attempt decides on the initial state without reading the stream. If the stream exists
   * after all, the append clashes and the next attempt reads it as usual.
   */
  newStream?: boolean;
}

export interface HandleCommandResult<State, Event extends DomainEvent> {
  newEvents: Event[];
  newState: State;
  /** Stream version after the command. */
  version: number;
  /**
   * Global position of the last event appended, or null when the command appended nothing (a
   * repeated idempotent command): what a read-your-writes wait waits for, with no second query.
   */
  position: Position | null;
}

/**
 * One command: load the stream, fold it, decide, append with the expected version; on a
 * version clash load again and retry, then let ConcurrencyError answer 409.
 */
export async function handleCommand<State, Command, Event extends DomainEvent>(
  store: PostgresEventStore,
  streamId: string,
  decider: Decider<State, Command, Event>,
  command: Command,
  options: HandleCommandOptions = {},
): Promise<HandleCommandResult<State, Event>> {
  const retries = options.client ? 0 : (options.retries ?? 3);
  for (let attempt = 0; ; attempt++) {
    const recorded = attempt === 0 && options.newStream ? [] : await store.readStream(streamId, 0, options.client);
    const events = recorded.map((r) => ({ type: r.type, data: r.data }) as Event);
    const state = fold(decider, events);
    const newEvents = decider.decide(command, state);
    const version = recorded.length;
    if (newEvents.length === 0) return { newEvents, newState: state, version, position: null };
    try {
      const res = await store.append(streamId, newEvents, version, options.metadata, options.client);
      return { newEvents, newState: newEvents.reduce(decider.evolve, state), version: res.nextExpectedVersion, position: res.position };
    } catch (err) {
      if (err instanceof ConcurrencyError && (attempt < retries || (attempt === 0 && options.newStream && !options.client))) {
        await new Promise((r) => setTimeout(r, 2 + Math.random() * 10 * (attempt + 1)));
        continue;
      }
      throw err;
    }
  }
}
