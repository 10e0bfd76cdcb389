import { afterEach, expect, test, vi } from 'vitest';
import { createLimiter, type Release } from '../../src/core/limiter.ts';

afterEach(() => {
  vi.useRealTimers();
});

/** Acquires without awaiting, recording when each is granted. */
function grants(
  limiter: ReturnType<typeof createLimiter>,
  key: string,
  count: number,
  label = key,
) {
  const granted: string[] = [];
  const releases: Release[] = [];
  const all = Array.from({ length: count }, (_, i) =>
    limiter.acquire(key).then((release) => {
      granted.push(`${label}${i}`);
      releases.push(release);
    }),
  );
  return { granted, releases, all };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('a key never has more than its limit in flight, and waiters are served in arrival order', async () => {
  const limiter = createLimiter({ concurrency: 2 });
  const { granted, releases } = grants(limiter, 'https://a.example', 5, 'a');
  await settle();
  expect(granted).toEqual(['a0', 'a1']);
  expect(limiter.inFlight('https://a.example')).toBe(2);
  expect(limiter.waiting('https://a.example')).toBe(3);
  releases[1]();
  releases[1](); // a second call of the same release frees nothing more
  await settle();
  expect(granted).toEqual(['a0', 'a1', 'a2']);
  expect(limiter.inFlight('https://a.example')).toBe(2);
  releases[0]();
  releases[2]();
  await settle();
  expect(granted).toEqual(['a0', 'a1', 'a2', 'a3', 'a4']);
});

test('a full key does not slow another key', async () => {
  const limiter = createLimiter({ concurrency: 1 });
  const busy = grants(limiter, 'https://slow.example', 3, 's');
  const other = grants(limiter, 'https://fast.example', 1, 'f');
  await settle();
  expect(busy.granted).toEqual(['s0']);
  expect(other.granted).toEqual(['f0']);
});

test('a waiter that gives up takes nothing and leaves the queue', async () => {
  const limiter = createLimiter({ concurrency: 1 });
  const first = await limiter.acquire('k');
  const abort = new AbortController();
  const abandoned = limiter.acquire('k', { signal: abort.signal });
  const next = grants(limiter, 'k', 1, 'n');
  abort.abort(new Error('stopping'));
  await expect(abandoned).rejects.toThrow('stopping');
  expect(limiter.waiting('k')).toBe(1);
  first();
  await settle();
  expect(next.granted).toEqual(['n0']);
  await expect(
    limiter.acquire('k', { signal: AbortSignal.abort(new Error('already')) }),
  ).rejects.toThrow('already');
});

test('run releases its slot when the task throws', async () => {
  const limiter = createLimiter({ concurrency: 1 });
  await expect(
    limiter.run('k', async () => {
      throw new Error('boom');
    }),
  ).rejects.toThrow('boom');
  expect(limiter.inFlight('k')).toBe(0);
  expect(await limiter.run('k', async () => 'ran')).toBe('ran');
});

test('pauseUntil holds new work of that key until the time (a Retry-After), other keys go on', async () => {
  vi.useFakeTimers({ now: 0 });
  const limiter = createLimiter({ concurrency: 4 });
  limiter.pauseUntil('provider', 30_000);
  const paused = grants(limiter, 'provider', 2, 'p');
  const other = grants(limiter, 'other', 1, 'o');
  await vi.advanceTimersByTimeAsync(29_999);
  expect(paused.granted).toEqual([]);
  expect(other.granted).toEqual(['o0']);
  await vi.advanceTimersByTimeAsync(1);
  expect(paused.granted).toEqual(['p0', 'p1']);
});

test('a rate window starts at most its limit of cost per window, costly heads are not overtaken', async () => {
  vi.useFakeTimers({ now: 0 });
  const limiter = createLimiter({ concurrency: 10, rate: { limit: 100, windowMs: 60_000 } });
  const granted: string[] = [];
  for (const [label, cost] of [
    ['a', 60],
    ['b', 30],
    ['c', 50],
    ['d', 5],
  ] as const) {
    void limiter.acquire('tokens', { cost }).then((release) => {
      granted.push(label);
      release();
    });
  }
  await vi.advanceTimersByTimeAsync(0);
  expect(granted).toEqual(['a', 'b']);
  await vi.advanceTimersByTimeAsync(59_999);
  expect(granted).toEqual(['a', 'b']);
  await vi.advanceTimersByTimeAsync(1);
  expect(granted).toEqual(['a', 'b', 'c', 'd']);
});
