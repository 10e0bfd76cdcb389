import { AsyncLocalStorage } from 'node:async_hooks';
import type { TokenUsage } from './port.ts';

/**
 * What one step of the pipeline cost at the provider: every request sent (retries, waits out of
 * a 429, a changed token field or response format and the repair request included) and the
 * tokens of every answer, whether or not the step then succeeded.
 */
export type Metered = {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  model: string | null;
};

const current = new AsyncLocalStorage<Metered>();

/** Runs `work` and counts the provider requests made inside it, however deep the call goes. */
export async function meterCalls<T>(
  work: () => Promise<T>,
): Promise<{ result: PromiseSettledResult<T>; metered: Metered }> {
  const metered: Metered = { requests: 0, promptTokens: 0, completionTokens: 0, model: null };
  const result = await current.run(metered, () =>
    work().then(
      (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
      (reason): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
    ),
  );
  return { result, metered };
}

/** Called by the adapter as each request leaves. */
export function countRequest(): void {
  const metered = current.getStore();
  if (metered) metered.requests += 1;
}

/** A count as the provider reported it, or 0: a negative or unreadable one must not lower what a month spent. */
const tokenCount = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0
    ? Math.min(Math.round(value), 1e9)
    : 0;

/** Called by the adapter with each answer's `usage` and the model that answered. */
export function countAnswer(usage: TokenUsage, model: string): void {
  const metered = current.getStore();
  if (!metered) return;
  metered.promptTokens += tokenCount(usage.promptTokens);
  metered.completionTokens += tokenCount(usage.completionTokens);
  metered.model =
    typeof model === 'string' && model.length > 0 ? model.slice(0, 100) : metered.model;
}
