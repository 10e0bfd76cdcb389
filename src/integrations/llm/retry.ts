export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export type BackoffPolicy = {
  baseDelayMs: number;
  maxDelayMs: number;
  /** In [0, 1); injected so tests get exact delays. */
  random: () => number;
};

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so retries from
 * many workers spread out but never collapse to zero. `attempt` counts from 0.
 */
export function backoffDelayMs(attempt: number, policy: BackoffPolicy): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * policy.random());
}

/**
 * How long the server asked us to wait: `retry-after-ms` (OpenAI's own, milliseconds) wins over
 * `retry-after` (seconds or an HTTP date). Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: Headers | undefined, nowMs: number): number | undefined {
  const ms = headers?.get('retry-after-ms');
  if (ms) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const after = headers?.get('retry-after');
  if (!after) return undefined;
  const seconds = Number(after.trim());
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
