import type { StoredEvent } from '../src/eventstore/port.ts';
import { defineProjection } from '../src/readstore/projection.ts';
import { ARTICLE_EVENTS, type ArticleEvent } from '../src/domain/articles/article.ts';
import { monthOf } from '../src/domain/accounts/budget.ts';

/**
 * A project's model use in one calendar month (UTC), from the steps its articles recorded. An
 * account's month is the sum of its projects' documents. `costUsd` adds the priced steps;
 * `unpricedTokens` counts the tokens of models without a price, which no cost covers.
 */
export type ModelUsageDoc = {
  id: string;
  accountId: string;
  projectId: string;
  month: string;
  tokensIn: number;
  tokensOut: number;
  costUsd: number;
  unpricedTokens: number;
  steps: number;
  failedSteps: number;
  updatedAt: string;
};

export const modelUsageId = (projectId: string, month: string): string => `${projectId}_${month}`;

export const modelUsage = defineProjection<ModelUsageDoc, ArticleEvent>({
  name: 'modelUsage',
  collection: 'model_usage',
  // An account's month: the documents of its projects.
  indexes: [{ accountId: 1, month: 1 }],
  categories: ['article'],
  events: ARTICLE_EVENTS,
  documentId: (event) =>
    event.type === 'ArticleStepRecorded'
      ? modelUsageId(event.data.projectId, monthOf(event.data.at))
      : null,
  evolve(doc, event) {
    if (event.type !== 'ArticleStepRecorded') return doc;
    const { projectId, run, at } = event.data;
    const base: ModelUsageDoc = doc ?? {
      id: modelUsageId(projectId, monthOf(at)),
      accountId: event.metadata.accountId,
      projectId,
      month: monthOf(at),
      tokensIn: 0,
      tokensOut: 0,
      costUsd: 0,
      unpricedTokens: 0,
      steps: 0,
      failedSteps: 0,
      updatedAt: at,
    };
    const tokens = run.tokensIn + run.tokensOut;
    return {
      ...base,
      tokensIn: base.tokensIn + run.tokensIn,
      tokensOut: base.tokensOut + run.tokensOut,
      costUsd: Math.round((base.costUsd + (run.costUsd ?? 0)) * 1e6) / 1e6,
      unpricedTokens: base.unpricedTokens + (run.costUsd === null ? tokens : 0),
      steps: base.steps + 1,
      failedSteps: base.failedSteps + (run.outcome === 'failed' ? 1 : 0),
      updatedAt: at,
    };
  },
});
