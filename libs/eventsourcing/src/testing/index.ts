import type { Pool } from 'pg';
import type { Decider } from '../decider';
import type { DomainEvent } from '../types';

/**
 * Records the text of every statement the pool's clients send from now on (to count a test's
 * reads or commits); clear it with `texts.length = 0`.
 */
export function recordStatements(pool: Pool): string[] {
  const texts: string[] = [];
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string } | null)?.text;
      if (text) texts.push(text);
      return query(...args);
    };
  });
  return texts;
}

/**
 * given/when/then for deciders, no framework in sight:
 * `given([placed]).when(confirm).then([confirmed])`.
 */
export function deciderSpec<State, Command, Event extends DomainEvent>(decider: Decider<State, Command, Event>) {
  return {
    given(events: Event[]) {
      return {
        when(command: Command) {
          const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
          return {
            then(expected: Event[]) {
              expect(run()).toEqual(expected);
            },
            thenThrows(errorType: new (...args: never[]) => Error, message?: string | RegExp) {
              let thrown: unknown;
              try {
                run();
              } catch (e) {
                thrown = e;
              }
              expect(thrown).toBeInstanceOf(errorType);
              if (message !== undefined) expect((thrown as Error).message).toMatch(message);
            },
            /** The new events, for assertions of another shape. */
            events: run,
          };
        },
      };
    },
  };
}
