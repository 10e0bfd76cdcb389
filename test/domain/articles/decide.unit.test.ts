import { describe, expect, test } from 'vitest';
import {
  allowedFrom,
  articleTransitions,
  ARTICLE_STATUSES,
  type ArticleEvent,
  type ArticleStatus,
} from '../../../src/domain/articles/article.ts';
import { articleStream, type ArticleCommand } from '../../../src/domain/articles/decide.ts';
import { given } from '../../support/decider.ts';
import {
  articleEvents as e,
  at,
  directPublishingHistory,
  draftData,
  everyHistory,
  failableSteps,
  failedAt,
  generation,
  historyAt,
  mergedData,
  pullRequestData,
  queuedData,
  refreshWritingHistory,
  researchData,
  revisionData,
  searchFigures,
} from './articleHistory.ts';

type Case = { given: ArticleEvent[]; when: ArticleCommand; yields: ArticleEvent[] };
/** One case per row of `articleTransitions`: a new row without a case fails to typecheck, and the test below. */
type TransitionCases = {
  [From in ArticleStatus]: { [To in (typeof articleTransitions)[From][number]]: Case };
};

const failFrom = (step: ArticleStatus): Case => ({
  given: historyAt[step],
  when: { type: 'FailStep', step, reason: 'the site did not answer', at },
  yields: [e.failed(step)],
});
const retryAt = (step: ArticleStatus): Case => ({
  given: failedAt(step),
  when: { type: 'RetryArticle', at },
  yields: [e.retried(step)],
});

const transitionCases: TransitionCases = {
  queued: {
    researching: {
      given: historyAt.queued,
      when: { type: 'StartResearch', at },
      yields: [e.researchStarted('write')],
    },
    failed: failFrom('queued'),
  },
  researching: {
    writing: {
      given: historyAt.researching,
      when: { type: 'RecordResearch', ...researchData },
      yields: [e.researched()],
    },
    failed: failFrom('researching'),
  },
  writing: {
    draft: {
      given: historyAt.writing,
      when: { type: 'RecordDraft', ...draftData('write', 1) },
      yields: [e.drafted('write', 1)],
    },
    publishing: {
      given: refreshWritingHistory,
      when: { type: 'StartRefreshPublish', mode: 'pr', at },
      yields: [e.publishRequested('pr', 'refresh')],
    },
    failed: failFrom('writing'),
  },
  draft: {
    publishing: {
      given: historyAt.draft,
      when: { type: 'ApproveArticle', mode: 'pr', at },
      yields: [e.publishRequested('pr', 'publish')],
    },
    failed: failFrom('draft'),
  },
  publishing: {
    pr_open: {
      given: historyAt.publishing,
      when: { type: 'RecordPullRequest', ...pullRequestData },
      yields: [e.pullRequestOpened()],
    },
    merged: {
      given: directPublishingHistory,
      when: { type: 'RecordMerged', ...mergedData(false) },
      yields: [e.merged(false)],
    },
    failed: failFrom('publishing'),
  },
  pr_open: {
    merged: {
      given: historyAt.pr_open,
      when: { type: 'RecordMerged', ...mergedData(true) },
      yields: [e.merged(true)],
    },
    closed: {
      given: historyAt.pr_open,
      when: { type: 'RecordClosed', prUrl: pullRequestData.prUrl, closedBy: 'octocat', at },
      yields: [e.closed()],
    },
    failed: failFrom('pr_open'),
  },
  merged: {
    researching: {
      given: historyAt.merged,
      when: { type: 'RefreshArticle', refreshId: 'rfr_1', at },
      yields: [e.refreshRequested('rfr_1')],
    },
  },
  closed: {},
  failed: {
    queued: retryAt('queued'),
    researching: retryAt('researching'),
    writing: retryAt('writing'),
    publishing: retryAt('publishing'),
  },
};

const tableRows = ARTICLE_STATUSES.flatMap((from) =>
  articleTransitions[from].map((to): [ArticleStatus, ArticleStatus] => [from, to]),
);
const caseOf = (from: ArticleStatus, to: ArticleStatus): Case | undefined =>
  (transitionCases[from] as Partial<Record<ArticleStatus, Case>>)[to];

describe('every transition of the article table', () => {
  test('has a case here', () => {
    expect(
      tableRows.filter(([from, to]) => !caseOf(from, to)).map(([from, to]) => `${from} → ${to}`),
    ).toEqual([]);
  });

  test.each(tableRows)('%s → %s decides its events and lands there', (from, to) => {
    const { given: history, when, yields } = caseOf(from, to)!;
    const article = given(articleStream, ...history);
    expect(article.state.status).toBe(from);
    expect(article.when(when).thenYields(...yields).status).toBe(to);
  });
});

// The operations a user (or GitHub) starts; the table of states each is allowed from.
const operations: Record<
  keyof typeof allowedFrom,
  { when: ArticleCommand; yields: ArticleEvent[] }
> = {
  approve: {
    when: { type: 'ApproveArticle', mode: 'pr', at },
    yields: [e.publishRequested('pr', 'publish')],
  },
  revise: {
    when: { type: 'RequestRevision', ...revisionData('rev_1') },
    yields: [e.revisionRequested('rev_1')],
  },
  refresh: {
    when: { type: 'RefreshArticle', refreshId: 'rfr_1', at },
    yields: [e.refreshRequested('rfr_1')],
  },
  retry: { when: { type: 'RetryArticle', at }, yields: [e.retried('researching')] },
};
const operationRows = (Object.keys(operations) as Array<keyof typeof allowedFrom>).flatMap(
  (operation) =>
    ARTICLE_STATUSES.map((status): [keyof typeof allowedFrom, ArticleStatus] => [
      operation,
      status,
    ]),
);

describe('every cell of the article operations table (allowedFrom)', () => {
  test('has an operation here', () => {
    expect(Object.keys(operations).sort()).toEqual(Object.keys(allowedFrom).sort());
  });

  test.each(operationRows)('%s from %s', (operation, status) => {
    const { when, yields } = operations[operation];
    const article = given(articleStream, ...historyAt[status]).when(when);
    if ((allowedFrom[operation] as readonly ArticleStatus[]).includes(status))
      article.thenYields(...yields);
    else
      expect(article.thenFails('invalid_state').message).toContain(
        `Cannot ${operation} an article that is ${status}`,
      );
  });
});

describe('refused transitions', () => {
  test.each(
    ARTICLE_STATUSES.filter(
      (status) => !(articleTransitions[status] as readonly ArticleStatus[]).includes('failed'),
    ),
  )('a %s article cannot fail: invalid_state', (status) => {
    given(articleStream, ...historyAt[status])
      .when({ type: 'FailStep', step: status, reason: 'late news', at })
      .thenFails('invalid_state');
  });

  test.each(
    failableSteps.filter(
      (step) => !(articleTransitions.failed as readonly ArticleStatus[]).includes(step),
    ),
  )('an article that failed at %s cannot be retried back to it: invalid_state', (step) => {
    expect(
      given(articleStream, ...failedAt(step))
        .when({ type: 'RetryArticle', at })
        .thenFails('invalid_state').message,
    ).toBe(`An article cannot move from failed to ${step}.`);
  });

  // Every command (a new command type without a sample fails to typecheck), from every road the
  // tests know: whatever is decided stays inside the table.
  const samples: { [T in ArticleCommand['type']]: Array<Extract<ArticleCommand, { type: T }>> } = {
    QueueArticle: [{ type: 'QueueArticle', articleId: 'art_other', ...queuedData }],
    StartResearch: [{ type: 'StartResearch', at }],
    RecordResearch: [{ type: 'RecordResearch', ...researchData }],
    RecordDraft: [
      { type: 'RecordDraft', ...draftData('write', 2) },
      { type: 'RecordDraft', ...draftData('refresh', 2) },
    ],
    FailStep: ARTICLE_STATUSES.map(
      (step) => ({ type: 'FailStep', step, reason: 'late news', at }) as const,
    ),
    RetryArticle: [{ type: 'RetryArticle', at }],
    RequestRevision: [{ type: 'RequestRevision', ...revisionData('rev_9') }],
    RecordRevision: [
      {
        type: 'RecordRevision',
        revisionId: 'rev_1',
        version: 2,
        mdx: 'Shorter.',
        summary: 'Shorter.',
        diff: { addedLines: 1, removedLines: 1, addedWords: 1, removedWords: 2 },
        generation,
        at,
      },
    ],
    FailRevision: [{ type: 'FailRevision', revisionId: 'rev_1', reason: 'no answer', at }],
    ApproveArticle: [{ type: 'ApproveArticle', mode: 'direct', at }],
    StartRefreshPublish: [{ type: 'StartRefreshPublish', mode: 'direct', at }],
    RecordPublishTarget: [
      {
        type: 'RecordPublishTarget',
        slug: 'cold-brew-at-home',
        path: pullRequestData.path,
        branch: null,
        at,
      },
    ],
    RecordPullRequest: [{ type: 'RecordPullRequest', ...pullRequestData }],
    RecordRevisionCommitted: [
      { type: 'RecordRevisionCommitted', revisionId: 'rev_1', commitSha: 'c0ffee3', at },
    ],
    RecordMerged: [{ type: 'RecordMerged', ...mergedData(true) }],
    RecordClosed: [{ type: 'RecordClosed', prUrl: pullRequestData.prUrl, closedBy: null, at }],
    RefreshArticle: [{ type: 'RefreshArticle', refreshId: 'rfr_9', at }],
    RecordSearchMetrics: [{ type: 'RecordSearchMetrics', ...searchFigures, syncId: 'syn_9' }],
    WaitForBudget: [
      {
        type: 'WaitForBudget',
        waitingFor: {
          reason: 'budget',
          scope: 'account',
          step: 'start',
          month: '2026-11',
          budget: { tokens: 1000 },
          spent: { tokens: 1200, costUsd: 0 },
          since: at,
        },
        at,
      },
    ],
    ResumeArticle: [{ type: 'ResumeArticle', at }],
    RecordBuild: [
      {
        type: 'RecordBuild',
        build: { state: 'none', checks: [], previewUrl: null, reason: null, headSha: 'c0ffee1' },
        at,
      },
    ],
    ProposeBuildCorrection: [
      {
        type: 'ProposeBuildCorrection',
        path: pullRequestData.path,
        reason: 'The profile changed.',
        headSha: 'c0ffee1',
        at,
      },
    ],
    ApplyBuildCorrection: [{ type: 'ApplyBuildCorrection', auto: false, at }],
    RecordBuildCorrectionApplied: [
      {
        type: 'RecordBuildCorrectionApplied',
        path: pullRequestData.path,
        commitSha: 'c0ffee4',
        at,
      },
    ],
  };
  const pairs = everyHistory.flatMap(([road, history]) =>
    Object.values(samples)
      .flat()
      .map((command: ArticleCommand): [string, string, ArticleEvent[], ArticleCommand] => [
        road,
        command.type,
        history,
        command,
      ]),
  );

  test.each(pairs)(
    'from %s, %s moves only along the table or is refused as invalid_state',
    (_road, _type, history, command) => {
      const article = given(articleStream, ...history);
      const from = (article.state as { status: ArticleStatus }).status;
      const outcome = article.when(command).outcome();
      if ('refused' in outcome) return void expect(outcome.refused.code).toBe('invalid_state');
      const next = (outcome.state as { status: ArticleStatus }).status;
      if (next !== from)
        expect(articleTransitions[from] as readonly ArticleStatus[]).toContain(next);
    },
  );
});
