import { expect, test } from 'vitest';
import { classifyFailure, type HttpFailure } from '../../../src/integrations/github/errors.ts';

const now = Date.parse('2026-03-01T09:00:00Z');
const context = {
  operation: 'create a commit in acme/site',
  repository: 'acme/site',
  permission: 'contents:write',
};
const classify = (failure: Partial<HttpFailure>) =>
  classifyFailure({ status: 500, headers: {}, message: 'x', ...failure }, context, now);

test("rate limits: retry-after wins, then the reset time, then GitHub's advice of a minute", () => {
  expect(classify({ status: 429, headers: { 'retry-after': '7' } })).toMatchObject({
    code: 'rate_limited',
    retryable: true,
    retryAfterMs: 7000,
  });
  const reset = String(now / 1000 + 90);
  expect(
    classify({
      status: 403,
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
    }),
  ).toMatchObject({ retryAfterMs: 90_000 });
  expect(
    classify({ status: 403, message: 'You have exceeded a secondary rate limit.' }),
  ).toMatchObject({ code: 'rate_limited', retryAfterMs: 60_000 });
  expect(classify({ status: 429 })).toMatchObject({ code: 'rate_limited', retryAfterMs: 60_000 });
});

test('a 403 names the permission GitHub says it accepts, else the one the operation needs', () => {
  expect(
    classify({ status: 403, headers: { 'x-accepted-github-permissions': 'pull_requests=write' } })
      .reason,
  ).toMatch(/Grant it pull_requests:write on acme\/site/);
  expect(
    classify({ status: 403, message: 'Resource not accessible by integration' }).reason,
  ).toMatch(/Grant it contents:write/);
});

test('a moved branch is a conflict, other refusals are validation failures, silence is unavailable', () => {
  expect(classify({ status: 422, message: 'Update is not a fast forward' })).toMatchObject({
    code: 'conflict',
    retryable: false,
  });
  expect(classify({ status: 409, message: 'Git Repository is empty.' })).toMatchObject({
    code: 'conflict',
  });
  expect(classify({ status: 400, message: 'Problems parsing JSON' })).toMatchObject({
    code: 'validation_failed',
    retryable: false,
  });
  expect(classify({ status: 0, message: 'connect ECONNREFUSED' })).toMatchObject({
    code: 'unavailable',
    retryable: true,
  });
  expect(classify({ status: 504 })).toMatchObject({
    code: 'unavailable',
    retryable: true,
    status: 504,
  });
});
