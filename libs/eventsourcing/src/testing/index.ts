import type { Decider } from '../decider';
import type { DomainEvent } from '../types';

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
