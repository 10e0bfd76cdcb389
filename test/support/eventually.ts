import { setTimeout as delay } from 'node:timers/promises';

/**
 * Polls `read` until `done` holds for its value, or fails after `timeoutMs` with the last value
 * seen, so a test waits on a condition rather than on a guessed sleep.
 */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs?: number; what?: string; maxIntervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 10_000);
  let last: T;
  for (let wait = 5; ; wait = Math.min(wait * 2, options.maxIntervalMs ?? 100)) {
    last = await read();
    if (done(last)) return last;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting for ${options.what ?? 'a condition'}; last value: ${JSON.stringify(last)?.slice(0, 2000)}`,
      );
    await delay(wait);
  }
}
