import { setTimeout as delay } from 'node:timers/promises';
import { isSearchAnalyticsError } from './port.ts';

/** A Retry-After longer than this is not waited for inside a sync: the run fails and the next one tries. */
export const MAX_RETRY_AFTER_MS = 5 * 60_000;

export type RetryOptions = {
  /** The wait before each retry; its length is the number of retries. */
  delaysMs: readonly number[];
  /** Aborted when the server stops: the wait ends and the call's error is not waited out. */
  signal?: AbortSignal;
  onRetry?(error: unknown, attempt: number, waitMs: number): void;
};

/**
 * Calls `request` until it succeeds, retrying only what may succeed later (quota, 5xx, network),
 * after the scheduled wait or Google's Retry-After, whichever is longer.
 */
export async function withRetries<T>(request: () => Promise<T>, options: RetryOptions): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request();
    } catch (error) {
      if (!isSearchAnalyticsError(error) || !error.retryable || attempt >= options.delaysMs.length)
        throw error;
      const retryAfter = error.retryAfterMs ?? 0;
      if (retryAfter > MAX_RETRY_AFTER_MS) throw error;
      const waitMs = Math.max(options.delaysMs[attempt], retryAfter);
      options.onRetry?.(error, attempt + 1, waitMs);
      await delay(waitMs, undefined, { signal: options.signal });
    }
  }
}
