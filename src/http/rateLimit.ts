import type { ServerResponse } from 'node:http';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../core/errors.ts';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/**
 * Requests per minute per API key (or per member, for the application's access tokens); one key's
 * traffic never limits another. `holder` names whose budget it is in the refusal's message.
 */
export type RateLimit = {
  /** Counts `requests` (one by default: a replay of the live stream counts as several) against `keyId`'s window. */
  consume(
    keyId: string,
    res: Pick<ServerResponse, 'setHeader'>,
    holder?: string,
    requests?: number,
  ): Promise<void>;
};

/** A key's window after counting one more request: requests counted in it, and when it ends. */
type Window = { consumed: number; msBeforeNext: number };

/** Beyond this many keys, windows that have ended are swept on the next new window. */
const SWEEP_AT_KEYS = 10_000;

/**
 * Fixed windows that start with a key's first request, in this process's memory: what
 * rate-limiter-flexible's memory limiter counts, without its promise, result object and timer
 * per request.
 */
export function fixedWindows(
  durationMs: number,
  now: () => number = Date.now,
): (keyId: string, requests?: number) => Window {
  const windows = new Map<string, { endsAt: number; consumed: number }>();
  return (keyId, requests = 1) => {
    const at = now();
    let window = windows.get(keyId);
    if (!window || window.endsAt <= at) {
      if (windows.size >= SWEEP_AT_KEYS)
        for (const [key, old] of windows) if (old.endsAt <= at) windows.delete(key);
      window = { endsAt: at + durationMs, consumed: 0 };
      windows.set(keyId, window);
    }
    window.consumed += requests;
    return { consumed: window.consumed, msBeforeNext: window.endsAt - at };
  };
}

/** A rate-limiter-flexible store (MongoDB, shared by replicas): a refusal is a window too. */
function libraryWindows(
  limiter: RateLimiterAbstract,
): (keyId: string, requests?: number) => Promise<Window> {
  const windowOf = (state: RateLimiterRes): Window => ({
    consumed: state.consumedPoints,
    msBeforeNext: state.msBeforeNext,
  });
  return (keyId, requests = 1) =>
    limiter.consume(keyId, requests).then(windowOf, (rejection: unknown) => {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return windowOf(rejection);
    });
}

export function createRateLimit(perMinute: number, limiter?: RateLimiterAbstract): RateLimit {
  const count = limiter ? libraryWindows(limiter) : fixedWindows(RATE_LIMIT_WINDOW_SECONDS * 1000);
  return {
    async consume(keyId, res, holder = 'this API key', requests = 1) {
      const { consumed, msBeforeNext } = await count(keyId, requests);
      res.setHeader('RateLimit-Limit', String(perMinute));
      res.setHeader('RateLimit-Remaining', String(Math.max(0, perMinute - consumed)));
      res.setHeader('RateLimit-Reset', String(Math.ceil(msBeforeNext / 1000)));
      if (consumed <= perMinute) return;
      const retryAfter = Math.max(1, Math.ceil(msBeforeNext / 1000));
      res.setHeader('Retry-After', String(retryAfter));
      throw new AppError(
        'rate_limited',
        `Rate limit of ${perMinute} requests per minute exceeded for ${holder}; retry after ${retryAfter} s.`,
      );
    },
  };
}
