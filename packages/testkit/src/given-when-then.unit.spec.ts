import { describe, expect, it } from 'vitest';
import { deciderSpec } from './given-when-then';
import type { DeciderDecision } from './given-when-then';

type Command = { type: 'Add'; by: number } | { type: 'Reset' };
type Event = { type: 'Added'; by: number } | { type: 'WasReset' };
type Code = 'TOO_BIG' | 'ALREADY_ZERO';

const decide = (command: Command, total: number): DeciderDecision<Event, Code> => {
  if (command.type === 'Reset') {
    return total === 0
      ? { ok: false, rejection: { code: 'ALREADY_ZERO', message: 'Nothing to reset' } }
      : { ok: true, events: [{ type: 'WasReset' }] };
  }
  return total + command.by > 10
    ? { ok: false, rejection: { code: 'TOO_BIG', message: 'Too big', details: { max: 10 } } }
    : { ok: true, events: [{ type: 'Added', by: command.by }] };
};
const evolve = (total: number, event: Event): number =>
  event.type === 'Added' ? total + event.by : 0;

const { given } = deciderSpec({ decide, evolve, initialState: 0 });

describe('deciderSpec', () => {
  it('folds the history, checks the events and returns the state they lead to', () => {
    expect(given([{ type: 'Added', by: 4 }]).state()).toBe(4);
    const after = given([{ type: 'Added', by: 4 }])
      .when({ type: 'Add', by: 3 })
      .then([{ type: 'Added', by: 3 }]);
    expect(after).toBe(7);
  });

  it('checks the rejection code and details', () => {
    given([{ type: 'Added', by: 8 }])
      .when({ type: 'Add', by: 3 })
      .thenRejects('TOO_BIG', { max: 10 });
    given([]).when({ type: 'Reset' }).thenRejects('ALREADY_ZERO');
  });

  it('fails when the decision differs from the expectation', () => {
    const scenario = given([{ type: 'Added', by: 8 }]);
    expect(() => scenario.when({ type: 'Add', by: 3 }).then([])).toThrow(/TOO_BIG/);
    expect(() => scenario.when({ type: 'Add', by: 1 }).thenRejects('TOO_BIG')).toThrow();
    expect(() => scenario.when({ type: 'Add', by: 1 }).then([{ type: 'Added', by: 2 }])).toThrow();
    expect(() => scenario.when({ type: 'Reset' }).thenRejects('ALREADY_ZERO')).toThrow();
  });

  it('exposes the raw decision', () => {
    expect(given([]).when({ type: 'Add', by: 1 }).decision()).toEqual({
      ok: true,
      events: [{ type: 'Added', by: 1 }],
    });
  });
});
