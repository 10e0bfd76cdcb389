import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { ServerResponse } from 'node:http';
import { AppError } from '../core/errors.ts';

export const RATE_LIMIT_WINDOW_SECONDS = 60;

/** Requests per minute per API key; one key's traffic never limits another. */
export type RateLimit = { consume(keyId: string, res: Pick<ServerResponse, 'setHeader'>): Promise<void> };

export function createRateLimit(perMinute: number, limiter?: RateLimiterAbstract): RateLimit {
  const store = limiter ?? new RateLimiterMemory({ points: perMinute, duration: RATE_LIMIT_WINDOW_SECONDS });
  const setHeaders = (res: Pick<ServerResponse, 'setHeader'>, state: RateLimiterRes) => {
    res.setHeader('RateLimit-Limit', String(perMinute));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, state.remainingPoints)));
    res.setHeader('RateLimit-Reset', String(Math.ceil(state.msBeforeNext / 1000)));
  };
  return {
    async consume(keyId, res) {
      try {
        setHeaders(res, await store.consume(keyId));
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        setHeaders(res, rejection);
        const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        res.setHeader('Retry-After', String(retryAfter));
        throw new AppError('rate_limited', `Rate limit of ${perMinute} requests per minute exceeded for this API key; retry after ${retryAfter} s.`);
      }
    },
  };
}
