import { expect } from 'vitest';
import { AppError, type ErrorCode } from '../../src/core/errors.ts';
import type { DomainEvent, StreamType } from '../../src/eventstore/handleCommand.ts';

/** The pure part of a stream type: what a decider test needs, no store. */
export type Decider<State, Event extends DomainEvent, Command> = Pick<
  StreamType<State, Event, Command>,
  'initial' | 'evolve' | 'decide'
>;

/**
 * given(stream, ...history).when(command).thenYields(...events) | .thenNothing() | .thenFails(code)
 *
 * The history is folded with the stream's own evolve. The state and the command are frozen before
 * `decide` sees them, and `decide` runs twice, so a decider that mutates its input, answers a
 * promise or is not deterministic fails every test written with this. The outcome methods are
 * not named `then`: an object with a `then` method is a thenable, and `await` would call it.
 */
export function given<State, Event extends DomainEvent, Command>(
  stream: Decider<State, Event, Command>,
  ...history: Event[]
) {
  const state = fold(stream, stream.initial(), history);
  return { state, when: (command: Command) => when(stream, state, command) };
}

function when<State, Event extends DomainEvent, Command>(
  stream: Decider<State, Event, Command>,
  state: State,
  command: Command,
) {
  const decide = (): Event[] => {
    const events = stream.decide(deepFreeze(command), deepFreeze(state));
    expect(Array.isArray(events), 'decide answers an array of events, synchronously').toBe(true);
    return events;
  };
  const decided = (): Event[] => {
    const events = decide();
    expect(decide(), 'decide is deterministic').toEqual(events);
    return events;
  };
  return {
    /** Asserts the exact events decided; returns the state they lead to. */
    thenYields(...expected: Event[]): State {
      const events = decided();
      expect(events).toEqual(expected);
      return fold(stream, state, events);
    },

    /** An idempotent repeat, or a worker's outcome that no longer applies: no event. */
    thenNothing(): void {
      expect(decided()).toEqual([]);
    },

    /** Asserts the refusal's AppError code; returns the error for assertions on its message. */
    thenFails(code: ErrorCode): AppError {
      let events: Event[];
      try {
        events = decide();
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        expect(error.code, error.message).toBe(code);
        return error;
      }
      return expect.fail(
        `expected the command to fail with ${code}; it decided ${JSON.stringify(events.map((event) => event.type))}`,
      );
    },

    /** What was decided, for tests that derive their expectation (the table-driven ones). */
    outcome(): { events: Event[]; state: State } | { refused: AppError } {
      try {
        decide();
      } catch (error) {
        if (error instanceof AppError) return { refused: error };
        throw error;
      }
      const events = decided();
      return { events, state: fold(stream, state, events) };
    },
  };
}

function fold<State, Event extends DomainEvent, Command>(
  stream: Decider<State, Event, Command>,
  state: State,
  events: readonly Event[],
): State {
  return events.reduce((current, event) => stream.evolve(current, event), state);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
