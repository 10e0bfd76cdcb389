import type { Budget, Spent } from '../accounts/budget.ts';

/** The model call steps of an article; a refresh researches and drafts again. */
export type ArticleStep = 'research' | 'draft' | 'refresh_research' | 'refresh_draft' | 'revision';

/**
 * One model call step as it ran: which model answered, the tokens of every request it sent, how
 * long it took, how many requests it sent (retries and repairs included; 0 for the offline
 * writer) and the estimated cost (null: the model has no price, or no model was called).
 */
export type StepRun = {
  step: ArticleStep;
  outcome: 'done' | 'failed';
  provider: string;
  model: string | null;
  tokensIn: number;
  tokensOut: number;
  durationMs: number;
  attempts: number;
  costUsd: number | null;
  startedAt: string;
};

/** Why work on an article has stopped without failing, and what would let it go on. */
export type WaitingFor = {
  reason: 'budget';
  /** Whose budget is spent. */
  scope: 'account' | 'project';
  /** The step that waits: `start` keeps the article queued, `revision` keeps a requested revision pending. */
  step: 'start' | 'research' | 'write' | 'revision';
  month: string;
  budget: Budget;
  spent: Spent;
  since: string;
};
