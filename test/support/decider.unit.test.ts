import { expect, test } from 'vitest';
import { AppError } from '../../src/core/errors.ts';
import { given, type Decider } from './decider.ts';

/** A counter that may only go up to 2: the smallest stream type the helper can be checked on. */
type Counted = { type: 'Counted'; data: { by: number } };
type Count = { type: 'Count'; by: number };
const counter = (
  decide: Decider<{ total: number }, Counted, Count>['decide'],
): Decider<{ total: number }, Counted, Count> => ({
  initial: () => ({ total: 0 }),
  evolve: (state, event) => ({ total: state.total + event.data.by }),
  decide,
});
const honest = counter((command, state) => {
  if (state.total + command.by > 2) throw new AppError('invalid_state', 'The counter stops at 2.');
  return command.by === 0 ? [] : [{ type: 'Counted', data: { by: command.by } }];
});
const counted = (by: number): Counted => ({ type: 'Counted', data: { by } });

test('a decider that changes the state it was given fails the test', () => {
  const mutating = counter((command, state) => {
    state.total += command.by;
    return [counted(command.by)];
  });
  expect(() =>
    given(mutating, counted(1)).when({ type: 'Count', by: 1 }).thenYields(counted(1)),
  ).toThrow(TypeError);
});

test('a decider that answers differently to the same command fails the test', () => {
  let calls = 0;
  const drifting = counter(() => [counted(++calls)]);
  expect(() => given(drifting).when({ type: 'Count', by: 1 }).outcome()).toThrow(/deterministic/);
});

test('a decider that answers a promise fails the test', () => {
  const asynchronous = counter((async () => [counted(1)]) as unknown as Decider<
    { total: number },
    Counted,
    Count
  >['decide']);
  expect(() => given(asynchronous).when({ type: 'Count', by: 1 }).thenNothing()).toThrow(
    /synchronously/,
  );
});

test('thenFails fails when the command is accepted, or refused with another code', () => {
  expect(() => given(honest).when({ type: 'Count', by: 1 }).thenFails('invalid_state')).toThrow(
    /decided \["Counted"\]/,
  );
  expect(() =>
    given(honest, counted(2)).when({ type: 'Count', by: 1 }).thenFails('not_found'),
  ).toThrow(/counter stops at 2/);
});

test('thenYields and thenNothing fail on other events', () => {
  expect(() => given(honest).when({ type: 'Count', by: 1 }).thenYields(counted(2))).toThrow();
  expect(() => given(honest).when({ type: 'Count', by: 1 }).thenNothing()).toThrow();
});

test('the history folds into the state; thenYields answers the state the events lead to', () => {
  const after = given(honest, counted(1));
  expect(after.state).toEqual({ total: 1 });
  expect(after.when({ type: 'Count', by: 1 }).thenYields(counted(1))).toEqual({ total: 2 });
  given(honest, counted(1)).when({ type: 'Count', by: 0 }).thenNothing();
  expect(
    given(honest, counted(2)).when({ type: 'Count', by: 1 }).thenFails('invalid_state').message,
  ).toBe('The counter stops at 2.');
});
