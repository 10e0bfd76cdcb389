import type { DecayNote } from '../decay/rules.ts';
import { AppError } from '../../core/errors.ts';
import type { StreamType } from '../../eventstore/handleCommand.ts';
import {
  allowedFrom,
  ARTICLE_CATEGORY,
  articleTransitions,
  evolveArticle,
  initialArticle,
  type ActiveArticle,
  type Article,
  type ArticleEvent,
  type ArticleStatus,
} from './article.ts';
import type { StepRun, WaitingFor } from './runs.ts';
import { failingChecks, type QualityGateMode } from './quality.ts';
import { sameBuild, type Build } from './build.ts';

type EventData<T extends ArticleEvent['type']> = Omit<
  Extract<ArticleEvent, { type: T }>['data'],
  'articleId'
>;
/** The model call step behind an outcome, recorded with it in the same append. */
type WithRun = { run?: StepRun };

export type ArticleCommand =
  | ({ type: 'QueueArticle'; articleId: string } & EventData<'ArticleQueued'>)
  | { type: 'StartResearch'; at: string }
  | ({ type: 'RecordResearch' } & EventData<'ArticleResearched'> & WithRun)
  | ({ type: 'RecordDraft' } & EventData<'ArticleDrafted'> & WithRun)
  | ({ type: 'FailStep'; step: ArticleStatus; reason: string; at: string } & WithRun)
  | { type: 'RetryArticle'; at: string }
  | ({ type: 'RequestRevision' } & EventData<'ArticleRevisionRequested'>)
  | ({ type: 'RecordRevision' } & EventData<'ArticleRevised'> & WithRun)
  | ({ type: 'FailRevision' } & EventData<'ArticleRevisionFailed'> & WithRun)
  /** `qualityGate: 'block'` refuses a draft with failing checks (the project's setting). */
  | { type: 'ApproveArticle'; mode: 'pr' | 'direct'; qualityGate?: QualityGateMode; at: string }
  | { type: 'StartRefreshPublish'; mode: 'pr' | 'direct'; at: string }
  | ({ type: 'RecordPublishTarget' } & EventData<'ArticlePublishTargetChosen'>)
  | ({ type: 'RecordPullRequest' } & EventData<'ArticlePullRequestOpened'>)
  | ({ type: 'RecordRevisionCommitted' } & EventData<'ArticleRevisionCommitted'>)
  | ({ type: 'RecordMerged' } & EventData<'ArticleMerged'>)
  | ({ type: 'RecordClosed' } & EventData<'ArticleClosed'>)
  | { type: 'RefreshArticle'; refreshId: string; at: string; decay?: DecayNote }
  | ({ type: 'RecordSearchMetrics' } & EventData<'ArticleSearchMetricsUpdated'>)
  | { type: 'WaitForBudget'; waitingFor: WaitingFor; at: string }
  | { type: 'ResumeArticle'; at: string }
  | { type: 'RecordBuild'; build: Build; at: string }
  | ({ type: 'ProposeBuildCorrection' } & EventData<'ArticleBuildCorrectionProposed'>)
  | { type: 'ApplyBuildCorrection'; auto: boolean; at: string }
  | ({ type: 'RecordBuildCorrectionApplied' } & EventData<'ArticleBuildCorrectionApplied'>);

export function decideArticle(command: ArticleCommand, state: Article): ArticleEvent[] {
  if (command.type === 'QueueArticle') {
    if (state.status !== 'none') return []; // retried or repaired: already queued
    const { type: _type, ...data } = command;
    return [{ type: 'ArticleQueued', data }];
  }
  const article = requireArticle(state);
  const { run, ...withoutRun } = command as OutcomeCommand & WithRun;
  const outcome = withoutRun as OutcomeCommand;
  const events = decideOutcome(outcome, article);
  // A step's run is recorded with its outcome, or not at all (a repeated outcome appends nothing);
  // first, so what the outcome's webhook shows of the article already counts the step.
  if (!run || events.length === 0) return events;
  return [
    {
      type: 'ArticleStepRecorded',
      data: { articleId: article.id, projectId: article.projectId, run, at: outcome.at },
    },
    ...events,
  ];
}

type OutcomeCommand = Exclude<ArticleCommand, { type: 'QueueArticle' }>;

function decideOutcome(command: OutcomeCommand, article: ActiveArticle): ArticleEvent[] {
  const articleId = article.id;
  const { type, ...rest } = command;
  switch (command.type) {
    case 'StartResearch':
      if (article.status !== 'queued') return []; // already started: the worker resumes
      return [
        { type: 'ArticleResearchStarted', data: { articleId, purpose: 'write', at: command.at } },
      ];
    case 'RecordResearch':
      if (article.status !== 'researching') return [];
      return [
        {
          type: 'ArticleResearched',
          data: { articleId, ...(rest as EventData<'ArticleResearched'>) },
        },
      ];
    case 'RecordDraft':
      if (article.status !== 'writing') return [];
      return [
        { type: 'ArticleDrafted', data: { articleId, ...(rest as EventData<'ArticleDrafted'>) } },
      ];
    case 'FailStep':
      if (article.status !== command.step) return [];
      transition(article, 'failed');
      return [
        {
          type: 'ArticleFailed',
          data: { articleId, step: command.step, reason: command.reason, at: command.at },
        },
      ];
    case 'RetryArticle': {
      requireStatus(article, allowedFrom.retry, 'retry');
      const step = article.failure?.step ?? 'queued';
      transition(article, step);
      return [{ type: 'ArticleRetried', data: { articleId, step, at: command.at } }];
    }
    case 'RequestRevision':
      requireStatus(article, allowedFrom.revise, 'revise');
      return [
        {
          type: 'ArticleRevisionRequested',
          data: { articleId, ...(rest as EventData<'ArticleRevisionRequested'>) },
        },
      ];
    case 'RecordRevision':
    case 'FailRevision': {
      if (!article.pendingRevisions.some((revision) => revision.revisionId === command.revisionId))
        return [];
      const eventType =
        command.type === 'RecordRevision' ? 'ArticleRevised' : 'ArticleRevisionFailed';
      return [{ type: eventType, data: { articleId, ...rest } } as ArticleEvent];
    }
    case 'ApproveArticle':
      requireStatus(article, allowedFrom.approve, 'approve');
      if (command.qualityGate === 'block') requirePassingChecks(article);
      return [
        {
          type: 'ArticlePublishRequested',
          data: { articleId, mode: command.mode, purpose: 'publish', at: command.at },
        },
      ];
    case 'StartRefreshPublish':
      if (article.status !== 'writing' || article.purpose !== 'refresh') return [];
      return [
        {
          type: 'ArticlePublishRequested',
          data: { articleId, mode: command.mode, purpose: 'refresh', at: command.at },
        },
      ];
    case 'RecordPublishTarget':
      if (article.status !== 'publishing') return [];
      return [
        {
          type: 'ArticlePublishTargetChosen',
          data: { articleId, ...(rest as EventData<'ArticlePublishTargetChosen'>) },
        },
      ];
    case 'RecordPullRequest':
      if (article.status !== 'publishing') return [];
      return [
        {
          type: 'ArticlePullRequestOpened',
          data: { articleId, ...(rest as EventData<'ArticlePullRequestOpened'>) },
        },
      ];
    case 'RecordRevisionCommitted':
      return [
        {
          type: 'ArticleRevisionCommitted',
          data: { articleId, ...(rest as EventData<'ArticleRevisionCommitted'>) },
        },
      ];
    case 'RecordMerged':
      if (article.status !== 'pr_open' && article.status !== 'publishing') return [];
      return [
        { type: 'ArticleMerged', data: { articleId, ...(rest as EventData<'ArticleMerged'>) } },
      ];
    case 'RecordClosed':
      if (article.status !== 'pr_open') return [];
      return [
        { type: 'ArticleClosed', data: { articleId, ...(rest as EventData<'ArticleClosed'>) } },
      ];
    case 'RefreshArticle':
      requireStatus(article, allowedFrom.refresh, 'refresh');
      return [
        {
          type: 'ArticleRefreshRequested',
          data: {
            articleId,
            refreshId: command.refreshId,
            at: command.at,
            ...(command.decay ? { decay: command.decay } : {}),
          },
        },
      ];
    case 'RecordSearchMetrics':
      if (article.lastSearchSyncId === command.syncId) return [];
      return [
        {
          type: 'ArticleSearchMetricsUpdated',
          data: { articleId, ...(rest as EventData<'ArticleSearchMetricsUpdated'>) },
        },
      ];
    case 'WaitForBudget': {
      const { since: _since, ...asked } = command.waitingFor;
      const current = article.waitingFor
        ? (({ since: _s, ...rest }) => rest)(article.waitingFor)
        : null;
      if (current && JSON.stringify(current) === JSON.stringify(asked)) return []; // already waiting for the same
      return [
        {
          type: 'ArticleWaitingForBudget',
          data: { articleId, waitingFor: command.waitingFor, at: command.at },
        },
      ];
    }
    case 'ResumeArticle':
      if (!article.waitingFor) return [];
      return [{ type: 'ArticleResumed', data: { articleId, at: command.at } }];
    // Only the open pull request's current head, and only a change: polling again records nothing.
    case 'RecordBuild':
      if (article.status !== 'pr_open' || command.build.headSha !== article.headSha) return [];
      if (sameBuild(article.build, command.build)) return [];
      return [
        { type: 'ArticleBuildObserved', data: { articleId, build: command.build, at: command.at } },
      ];
    // One proposal per failing head commit, only while its pull request is open at that head.
    case 'ProposeBuildCorrection': {
      if (article.status !== 'pr_open' || command.headSha !== article.headSha) return [];
      if (article.buildCorrection?.headSha === command.headSha) return [];
      const { path, reason, headSha, at } = command;
      return [
        { type: 'ArticleBuildCorrectionProposed', data: { articleId, path, reason, headSha, at } },
      ];
    }
    case 'ApplyBuildCorrection':
      if (article.status !== 'pr_open' || article.buildCorrection?.state !== 'proposed')
        throw new AppError(
          'invalid_state',
          article.buildCorrection?.state === 'applying' ||
            article.buildCorrection?.state === 'applied'
            ? 'The correction is already applied (or being applied) to the pull request.'
            : 'There is no proposed correction: only a failing site build that points at the file Inkstream committed gets one.',
        );
      return [
        {
          type: 'ArticleBuildCorrectionApplyRequested',
          data: { articleId, auto: command.auto, at: command.at },
        },
      ];
    case 'RecordBuildCorrectionApplied': {
      if (article.buildCorrection?.state !== 'applying') return []; // recorded before a crash
      const { path, commitSha, at } = command;
      return [{ type: 'ArticleBuildCorrectionApplied', data: { articleId, path, commitSha, at } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown command ${JSON.stringify(unknown)} (${type})`);
    }
  }
}

const HOW_TO: Record<keyof typeof allowedFrom, string> = {
  approve: 'only a draft can be approved',
  revise: 'revisions apply to drafts and open pull requests',
  refresh: 'only a published (merged) article can be refreshed',
  retry: 'only a failed article can be retried',
};

export function requireStatus(
  article: Pick<ActiveArticle, 'status'>,
  allowed: readonly ArticleStatus[],
  operation: keyof typeof allowedFrom,
): void {
  if (!allowed.includes(article.status)) {
    throw new AppError(
      'invalid_state',
      `Cannot ${operation} an article that is ${article.status}: ${HOW_TO[operation]}.`,
    );
  }
}

/** The project blocks approval on failing checks: a 409 that names them and how to go on. */
function requirePassingChecks(article: ActiveArticle): void {
  const failing = failingChecks(article.checks);
  if (failing.length === 0) return;
  const named = failing.map((check) => `${check.name} (${check.message})`).join('; ');
  throw new AppError(
    'invalid_state',
    `Cannot approve: the project's quality gate blocks drafts with failing checks: ${named}. Revise the article, or set the project's settings.qualityGate to "warn".`,
  );
}

function transition(article: ActiveArticle, to: ArticleStatus): void {
  const allowed: readonly ArticleStatus[] = articleTransitions[article.status];
  if (!allowed.includes(to))
    throw new AppError('invalid_state', `An article cannot move from ${article.status} to ${to}.`);
}

export function requireArticle(state: Article): ActiveArticle {
  if (state.status === 'none') throw new AppError('not_found', 'No such article.');
  return state;
}

export const articleStream: StreamType<Article, ArticleEvent, ArticleCommand> = {
  category: ARTICLE_CATEGORY,
  initial: initialArticle,
  evolve: evolveArticle,
  decide: decideArticle,
};
