import { expect, test } from 'vitest';
import {
  DEFAULT_RETRY_DELAYS_MS,
  nextRetryDelay,
  parseRetryDelays,
  retryAfterMs,
} from '../../../src/features/webhooks/delivery/retrySchedule.ts';

test('the default schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the immediate first attempt', () => {
  expect(parseRetryDelays(undefined)).toEqual([
    5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
  ]);
  expect(parseRetryDelays(' ')).toEqual([...DEFAULT_RETRY_DELAYS_MS]);
});

test('INKSTREAM_WEBHOOK_RETRY_DELAYS reads ms, s, m and h', () => {
  expect(parseRetryDelays('1s,1s,2s')).toEqual([1000, 1000, 2000]);
  expect(parseRetryDelays('250ms, 1.5s,5m,1h')).toEqual([250, 1500, 300_000, 3_600_000]);
  for (const bad of ['1', '1d', 'soon', '1s,,2s', '-1s'])
    expect(() => parseRetryDelays(bad), bad).toThrow(/INKSTREAM_WEBHOOK_RETRY_DELAYS/);
});

test('each delay is jittered by at most ±20%, and the schedule ends', () => {
  const delays = [1000, 60_000];
  expect(nextRetryDelay(delays, 1, () => 0)).toBe(800);
  expect(nextRetryDelay(delays, 1, () => 0.5)).toBe(1000);
  expect(nextRetryDelay(delays, 1, () => 0.999999)).toBe(1200);
  expect(nextRetryDelay(delays, 2, () => 0)).toBe(48_000);
  expect(nextRetryDelay(delays, 3, () => 0.5)).toBeNull();
  expect(nextRetryDelay(delays, 0, () => 0.5)).toBeNull();
});

test('Retry-After is read in seconds or as a date', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  expect(retryAfterMs('120', now)).toBe(120_000);
  expect(retryAfterMs('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
  expect(retryAfterMs(undefined, now)).toBeNull();
  expect(retryAfterMs('later', now)).toBeNull();
});
