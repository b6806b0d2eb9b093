import { IllegalStateError, fold } from '../src';
import { deciderSpec } from '../src/testing';
import { counterDecider } from './counter';

const spec = deciderSpec(counterDecider);

describe('deciderSpec given/when/then', () => {
  it('then: the events a command decides on the folded history', () => {
    spec.given([{ type: 'Incremented', data: { by: 2 } }]).when({ type: 'Increment', by: 3 }).then([{ type: 'Incremented', data: { by: 3 } }]);
  });

  it('then: no events when there is nothing to do', () => {
    spec.given([]).when({ type: 'Reset' }).then([]);
  });

  it('thenThrows: the typed error and its exact message', () => {
    spec.given([{ type: 'Incremented', data: { by: 9 } }]).when({ type: 'Increment', by: 2 }).thenThrows(IllegalStateError, 'Límite alcanzado');
  });

  it('events: the decided events for assertions of another shape', () => {
    const events = spec.given([{ type: 'Incremented', data: { by: 1 } }]).when({ type: 'Reset' }).events();
    expect(events.map((e) => e.type)).toEqual(['Reset']);
  });

  it('fold applies evolve over the history from the initial state', () => {
    expect(
      fold(counterDecider, [
        { type: 'Incremented', data: { by: 4 } },
        { type: 'Reset', data: {} },
        { type: 'Incremented', data: { by: 5 } },
      ]),
    ).toEqual({ value: 5 });
  });
});
