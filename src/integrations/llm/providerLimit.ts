import type { Limiter } from '../../core/limiter.ts';
import { isLlmError, type GenerateTextRequest, type LlmPort } from './port.ts';
import { backoffDelayMs, type BackoffPolicy } from './retry.ts';
import type { TokenHeadroom } from './rateLimitHeaders.ts';

export type ProviderLimitOptions = {
  /** Shared by every caller of this provider in the process: in flight, and optionally requests per minute. */
  limiter: Limiter;
  /** The provider endpoint (its base URL): one key per endpoint. */
  key: string;
  /** The longest a call waits out 429s in total before its article fails with the provider's reason. */
  maxRateLimitWaitMs: number;
  /** For a 429 that names no wait. */
  backoff: BackoffPolicy;
  nowMs: () => number;
  /** Optional tokens per minute: a limiter with a one-minute rate window whose cost is a call's tokens. */
  tokens?: Limiter;
  /** The tokens the provider said are left; a call that does not fit pauses the endpoint until the reset. */
  headroom?: TokenHeadroom;
};

/**
 * What a call counts against a provider's tokens per minute before it is sent: its prompt (about
 * 4 characters a token) and the most it may answer, as OpenAI counts `max_tokens` itself.
 */
export const estimatedTokens = (
  request: Pick<GenerateTextRequest, 'system' | 'prompt' | 'maxOutputTokens'>,
): number =>
  Math.ceil((request.system.length + request.prompt.length) / 4) + request.maxOutputTokens;

/**
 * Model calls through the provider's limit. A 429 pauses the whole endpoint for the time the
 * provider asked (Retry-After or its rate-limit reset), not just the call that got it, and the
 * call queues again: a rate limit slows the pipeline instead of failing articles.
 */
export function limitProviderCalls(inner: LlmPort, options: ProviderLimitOptions): LlmPort {
  const { limiter, key } = options;
  async function call<T>(request: GenerateTextRequest, run: () => Promise<T>): Promise<T> {
    let waitedMs = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        if (options.tokens)
          (await options.tokens.acquire(key, { cost: estimatedTokens(request) }))(); // counted when it starts
        const resetAtMs = options.headroom?.take(estimatedTokens(request)) ?? 0;
        if (resetAtMs > 0) limiter.pauseUntil(key, resetAtMs);
        return await limiter.run(key, run);
      } catch (error) {
        // A 429, or a failing server that said when to come back: the endpoint waits, the call queues again.
        if (
          !isLlmError(error) ||
          !error.retryable ||
          (error.kind !== 'rate_limited' && error.retryAfterMs === undefined)
        )
          throw error;
        // A wait of 0 ("retry now") gets the backoff, so a provider that always says so cannot make us spin.
        const delayMs = error.retryAfterMs || backoffDelayMs(attempt, options.backoff);
        if (waitedMs + delayMs > options.maxRateLimitWaitMs) throw error;
        waitedMs += delayMs;
        limiter.pauseUntil(key, options.nowMs() + delayMs);
      }
    }
  }
  return {
    provider: inner.provider,
    defaultModel: inner.defaultModel,
    generateObject: (request) => call(request, () => inner.generateObject(request)),
    generateText: (request) => call(request, () => inner.generateText(request)),
  };
}
