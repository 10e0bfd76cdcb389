import { expect, test } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import {
  decideUsage,
  evolveUsage,
  initialUsage,
  type Usage,
  type UsageCommand,
  type UsageEvent,
} from '../../../src/domain/accounts/usage.ts';

const at = '2026-03-10T09:00:00.000Z';
const take = (articleId: string, counted = 0): UsageCommand => ({
  type: 'TakeArticleSlot',
  accountId: 'acc_1',
  articleId,
  month: '2026-03',
  plan: 'free',
  limit: 2,
  counted,
  at,
});
const release = (articleId: string): UsageCommand => ({
  type: 'ReleaseArticleSlot',
  accountId: 'acc_1',
  articleId,
  month: '2026-03',
  reason: 'topic already written',
  at,
});

function given(...commands: UsageCommand[]): Usage {
  return commands.reduce(
    (state, command) =>
      decideUsage(command, state).reduce((s: Usage, e: UsageEvent) => evolveUsage(s, e), state),
    initialUsage(),
  );
}

function refusal(command: UsageCommand, state: Usage): string {
  try {
    decideUsage(command, state);
  } catch (error) {
    if (isAppError(error) && error.code === 'payment_required') return error.message;
    throw error;
  }
  throw new Error('expected a 402');
}

test('slots are taken until the limit, then the quota is refused with a message naming it', () => {
  const state = given(take('art_1'), take('art_2'));
  expect(state.holders).toEqual(['art_1', 'art_2']);
  expect(refusal(take('art_3'), state)).toBe(
    'Article quota reached: the free plan allows 2 articles per calendar month (2026-03). It resets next month, or upgrade the plan.',
  );
});

test('taking again for an article that holds a slot appends nothing', () => {
  expect(decideUsage(take('art_1'), given(take('art_1'), take('art_2')))).toEqual([]);
});

test('a released slot can be taken by another article; releasing what is not held appends nothing', () => {
  const state = given(take('art_1'), take('art_2'), release('art_1'));
  expect(state.holders).toEqual(['art_2']);
  expect(decideUsage(take('art_3'), state)).toEqual([
    {
      type: 'ArticleSlotTaken',
      data: expect.objectContaining({ articleId: 'art_3', month: '2026-03', limit: 2 }),
    },
  ]);
  expect(decideUsage(release('art_1'), state)).toEqual([]);
});

test('what the read models already count is a floor under the ledger', () => {
  expect(refusal(take('art_1', 2), initialUsage())).toMatch(/Article quota reached/);
  expect(refusal(take('art_2', 2), given(take('art_1')))).toMatch(/Article quota reached/);
  // Not added to it: the read models' one article is the ledger's art_1.
  expect(decideUsage(take('art_2', 1), given(take('art_1')))).toHaveLength(1);
});

test('the project cap names itself', () => {
  const first: UsageCommand = {
    type: 'TakeProjectSlot',
    accountId: 'acc_1',
    projectId: 'prj_1',
    plan: 'free',
    limit: 1,
    counted: 0,
    at,
  };
  const state = given(first);
  expect(refusal({ ...first, projectId: 'prj_2' }, state)).toBe(
    'Project cap reached: the free plan allows 1 project. Upgrade the plan to add more.',
  );
  expect(
    given(first, {
      type: 'ReleaseProjectSlot',
      accountId: 'acc_1',
      projectId: 'prj_1',
      reason: 'not created',
      at,
    }).holders,
  ).toEqual([]);
});
