import { retryAfterMs } from './retry.ts';

/**
 * How long a provider that answered 429 wants us to wait: its Retry-After, or else the reset of
 * the exhausted `x-ratelimit-*` budget (OpenAI's requests and tokens per minute, e.g. "1s", "6m0s").
 * Undefined when it says nothing readable.
 */
export function providerWaitMs(headers: Headers | undefined, nowMs: number): number | undefined {
  const asked = retryAfterMs(headers, nowMs);
  if (asked !== undefined) return asked;
  const resets = (['requests', 'tokens'] as const)
    .filter((budget) => headers?.get(`x-ratelimit-remaining-${budget}`)?.trim() === '0')
    .map((budget) => durationMs(headers?.get(`x-ratelimit-reset-${budget}`)))
    .filter((ms): ms is number => ms !== undefined);
  return resets.length > 0 ? Math.max(...resets) : undefined;
}

/** A Go-style duration as OpenAI sends it ("20ms", "1.5s", "6m0s", "1h2m"); undefined if unreadable. */
export function durationMs(text: string | null | undefined): number | undefined {
  const value = text?.trim();
  if (!value || !/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(value)) return undefined;
  const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, amount, , unit] of value.matchAll(/(\d+(\.\d+)?)(ms|h|m|s)/g))
    total += Number(amount) * unitMs[unit];
  return Math.round(total);
}

/**
 * What the provider last said of its tokens per minute on an answer: how many are left
 * (`x-ratelimit-remaining-tokens`) until when (`x-ratelimit-reset-tokens`). A call whose tokens
 * do not fit in what is left waits for the reset instead of being sent for a 429.
 */
export type TokenHeadroom = {
  observe(headers: Headers): void;
  /** Takes a call's tokens from what is left; the time to wait until when they do not fit, else 0. */
  take(tokens: number): number;
};

export function createTokenHeadroom(nowMs: () => number): TokenHeadroom {
  let remaining: number | null = null;
  let resetAtMs = 0;
  return {
    observe(headers) {
      const left = headers.get('x-ratelimit-remaining-tokens')?.trim();
      const resetMs = durationMs(headers.get('x-ratelimit-reset-tokens'));
      if (!left || !/^\d+$/.test(left) || resetMs === undefined) return;
      remaining = Number(left);
      resetAtMs = nowMs() + resetMs;
    },
    take(tokens) {
      if (remaining === null || nowMs() >= resetAtMs) return 0;
      if (tokens <= remaining) {
        remaining -= tokens;
        return 0;
      }
      remaining = null; // after the reset the provider's next answer says again
      return resetAtMs;
    },
  };
}
