import { expect, test } from 'vitest';
import { backoffDelayMs, retryAfterMs } from '../../../src/integrations/llm/retry.ts';
import { createSemaphore } from '../../../src/integrations/llm/semaphore.ts';

const now = Date.parse('2026-01-01T00:00:00Z');

test('retry-after is read as seconds, as an HTTP date, or from retry-after-ms', () => {
  expect(retryAfterMs(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
  expect(retryAfterMs(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:20 GMT' }), now)).toBe(
    20_000,
  );
  expect(retryAfterMs(new Headers({ 'retry-after': '3', 'retry-after-ms': '120' }), now)).toBe(120);
  expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
  expect(retryAfterMs(new Headers(), now)).toBeUndefined();
});

test('backoff doubles per attempt up to the cap, with jitter inside the upper half of the step', () => {
  const policy = (r: number) => ({ baseDelayMs: 100, maxDelayMs: 1000, random: () => r });
  expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, policy(0)))).toEqual([
    50, 100, 200, 400, 500, 500,
  ]);
  expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelayMs(a, policy(0.99)))).toEqual([
    100, 199, 398, 796, 995, 995,
  ]);
});

test('the semaphore runs at most `limit` tasks at once, in arrival order', async () => {
  const semaphore = createSemaphore(2);
  const started: number[] = [];
  const releases: Array<() => void> = [];
  const tasks = [0, 1, 2, 3].map((i) =>
    semaphore.run(
      () =>
        new Promise<number>((resolve) => {
          started.push(i);
          releases.push(() => resolve(i));
        }),
    ),
  );
  await Promise.resolve();
  expect(started).toEqual([0, 1]);
  expect(semaphore.waiting).toBe(2);
  releases[0]();
  await tasks[0];
  await Promise.resolve();
  expect(started).toEqual([0, 1, 2]);
  releases[1]();
  await tasks[1];
  await Promise.resolve();
  releases[2]();
  releases[3]();
  expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3]);
  expect(semaphore.active).toBe(0);
});
