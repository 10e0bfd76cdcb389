import { expect, test } from 'vitest';
import { fixedWindows } from '../../src/http/rateLimit.ts';

test("a window starts with a key's first request and lasts its duration; each key has its own", () => {
  let now = 1_000;
  const count = fixedWindows(60_000, () => now);
  expect(count('key_a')).toEqual({ consumed: 1, msBeforeNext: 60_000 });
  now += 59_999;
  expect(count('key_a')).toEqual({ consumed: 2, msBeforeNext: 1 });
  expect(count('key_b')).toEqual({ consumed: 1, msBeforeNext: 60_000 });
  now += 1;
  expect(count('key_a')).toEqual({ consumed: 1, msBeforeNext: 60_000 });
});
