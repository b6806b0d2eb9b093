import type { DomainEvent } from './types';

/**
 * A pure decider (Emmett style): decide checks the rules and returns events or throws a typed
 * domain error; evolve folds an event into the state, is total, and never throws.
 */
export interface Decider<State, Command, Event extends DomainEvent> {
  initialState: () => State;
  evolve: (state: State, event: Event) => State;
  decide: (command: Command, state: State) => Event[];
}

/** Folds events into a state with a decider's evolve. */
export function fold<State, Event extends DomainEvent>(decider: Pick<Decider<State, never, Event>, 'initialState' | 'evolve'>, events: readonly Event[]): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/** Compile-time check that a switch over a union handled every case. */
export function assertNever(value: never): never {
  throw new Error(`Caso no manejado: ${JSON.stringify(value)}`);
}
