import { assertNever, IllegalStateError, type Decider } from '../src';

/** A tiny decider for the tests: a counter that may not go above its limit. */
export type CounterEvent = { type: 'Incremented'; data: { by: number } } | { type: 'Reset'; data: Record<string, never> };
export type CounterCommand = { type: 'Increment'; by: number } | { type: 'Reset' };
export type Counter = { value: number };

export const LIMIT = 10;

export const counterDecider: Decider<Counter, CounterCommand, CounterEvent> = {
  initialState: () => ({ value: 0 }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'Incremented':
        return { value: state.value + event.data.by };
      case 'Reset':
        return { value: 0 };
      default:
        return state;
    }
  },
  decide: (command, state) => {
    switch (command.type) {
      case 'Increment':
        if (state.value + command.by > LIMIT) throw new IllegalStateError('Límite alcanzado');
        return [{ type: 'Incremented', data: { by: command.by } }];
      case 'Reset':
        return state.value === 0 ? [] : [{ type: 'Reset', data: {} }];
      default:
        return assertNever(command);
    }
  },
};
