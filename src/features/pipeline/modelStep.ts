import type { ArticleStep, StepRun } from '../../domain/articles/runs.ts';
import { meterCalls } from '../../integrations/llm/callMeter.ts';
import { costOf, priceOf } from '../../integrations/llm/prices.ts';
import { attempt, type Attempt } from './attempt.ts';
import type { PipelineContext } from './context.ts';

/**
 * Runs one model call step as `attempt` does, and measures it: the tokens and requests the
 * provider saw (a failed step's too), the time it took, and its estimated cost from the price
 * table. The model is the one that answered, so a server that swaps models is priced as it ran.
 */
export async function runModelStep<T extends { model?: string }>(
  ctx: Pick<PipelineContext, 'platform' | 'writer' | 'prices' | 'signal'>,
  step: ArticleStep,
  work: () => Promise<T>,
): Promise<{ outcome: Attempt<T>; run: StepRun }> {
  const { clock } = ctx.platform;
  const startedAt = clock.now();
  const startedMs = clock.nowMs();
  const { result, metered } = await meterCalls(() => attempt(work, ctx.signal));
  if (result.status === 'rejected') throw result.reason; // the pipeline is stopping: not an outcome
  const outcome = result.value;
  const offline = ctx.writer.provider === 'offline';
  const model = metered.model ?? (outcome.ok ? (outcome.value.model ?? null) : null);
  const price = offline ? null : priceOf(ctx.prices, model);
  return {
    outcome,
    run: {
      step,
      outcome: outcome.ok ? 'done' : 'failed',
      provider: ctx.writer.provider,
      model,
      tokensIn: metered.promptTokens,
      tokensOut: metered.completionTokens,
      durationMs: Math.max(0, clock.nowMs() - startedMs),
      attempts: metered.requests,
      costUsd: price ? costOf(price, metered.promptTokens, metered.completionTokens) : null,
      startedAt,
    },
  };
}
