import { GitHubError } from './errors.ts';

/**
 * Bounded retries of one GitHub call, with time and sleep injected (no hidden timers): retryable
 * failures wait GitHub's `retryAfterMs` or an exponential backoff. A wait longer than `maxWaitMs`
 * is not slept in process: the error is thrown at once, still retryable with its `retryAfterMs`,
 * for the consumer to try again later.
 */

export type RetryPolicy = {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxWaitMs: number;
};

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 4,
  baseDelayMs: 1_000,
  maxDelayMs: 8_000,
  maxWaitMs: 60_000,
};

export type Sleep = (ms: number) => Promise<void>;

export const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function afterAttempts(error: GitHubError, attempts: number, operation: string): GitHubError {
  if (attempts === 1) return error;
  return new GitHubError({
    code: error.code,
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    reason: `${error.reason} (gave up after ${attempts} attempts)`,
    operation,
    cause: error.cause,
  });
}

export async function withRetries<T>(
  operation: string,
  attempt: () => Promise<T>,
  toGitHubError: (error: unknown) => GitHubError,
  policy: RetryPolicy,
  sleep: Sleep,
): Promise<T> {
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt();
    } catch (caught) {
      const error = toGitHubError(caught);
      if (!error.retryable || attempts >= policy.maxAttempts)
        throw afterAttempts(error, attempts, operation);
      const wait =
        error.retryAfterMs ?? Math.min(policy.baseDelayMs * 2 ** (attempts - 1), policy.maxDelayMs);
      if (wait > policy.maxWaitMs) throw afterAttempts(error, attempts, operation);
      await sleep(wait);
    }
  }
}
