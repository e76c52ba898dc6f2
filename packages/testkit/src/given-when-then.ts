import { expect } from 'vitest';

/** The refusal a decider gives: a stable code, a message, optional details. */
export interface DeciderRejection<Code extends string = string> {
  readonly code: Code;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** What a decider answers: the events to append, or a typed rejection. */
export type DeciderDecision<Event, Code extends string = string> =
  | { readonly ok: true; readonly events: readonly Event[] }
  | { readonly ok: false; readonly rejection: DeciderRejection<Code> };

/** A pure decider: `decide(command, state)` and `evolve(state, event)` from an initial state. */
export interface Decider<State, Command, Event, Code extends string = string> {
  decide: (command: Command, state: State) => DeciderDecision<Event, Code>;
  evolve: (state: State, event: Event) => State;
  initialState: State;
}

/** The assertions after `given(...).when(...)`. */
export interface DeciderThen<State, Event, Code extends string> {
  /** Asserts the command is accepted with exactly these events; returns the state they lead to. */
  then: (expected: readonly Event[]) => State;
  /** Asserts the command is refused with this code (and, if given, details containing these). */
  thenRejects: (code: Code, details?: Readonly<Record<string, unknown>>) => void;
  /** The raw decision, for assertions the two above cannot express. */
  decision: () => DeciderDecision<Event, Code>;
}

/** `given(history).when(command)`: the history is folded with `evolve` before deciding. */
export interface DeciderGiven<State, Command, Event, Code extends string> {
  when: (command: Command) => DeciderThen<State, Event, Code>;
  state: () => State;
}

/** A given/when/then harness for a decider, asserting with vitest's `expect`. */
export interface DeciderSpec<State, Command, Event, Code extends string> {
  given: (events: readonly Event[]) => DeciderGiven<State, Command, Event, Code>;
}

/**
 * Builds `given(events).when(command).then(expectedEvents)` / `.thenRejects(code)` for any
 * decider whose `decide` answers `{ ok: true, events } | { ok: false, rejection }`.
 */
export const deciderSpec = <State, Command, Event, Code extends string = string>(
  decider: Decider<State, Command, Event, Code>,
): DeciderSpec<State, Command, Event, Code> => {
  const fold = (state: State, events: readonly Event[]): State =>
    events.reduce(decider.evolve, state);

  return {
    given: (history) => {
      const state = (): State => fold(decider.initialState, history);
      return {
        state,
        when: (command) => {
          const before = state();
          const decision = (): DeciderDecision<Event, Code> => decider.decide(command, before);
          return {
            decision,
            then: (expected) => {
              const actual = decision();
              const refusal = actual.ok ? '' : JSON.stringify(actual.rejection);
              expect(actual.ok, `expected acceptance, got ${refusal}`).toBe(true);
              if (actual.ok) expect(actual.events).toEqual(expected);
              return fold(before, expected);
            },
            thenRejects: (code, details) => {
              const actual = decision();
              expect(actual.ok, `expected a rejection ${code}`).toBe(false);
              if (actual.ok) return;
              expect(actual.rejection.code).toBe(code);
              expect(typeof actual.rejection.message).toBe('string');
              if (details !== undefined) expect(actual.rejection.details).toMatchObject(details);
            },
          };
        },
      };
    },
  };
};
