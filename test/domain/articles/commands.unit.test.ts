import { describe, expect, test } from 'vitest';
import { articleStream, type ArticleCommand } from '../../../src/domain/articles/decide.ts';
import type { ArticleEvent } from '../../../src/domain/articles/article.ts';
import { given } from '../../support/decider.ts';
import {
  articleEvents as e,
  articleId,
  at,
  draftData,
  everyHistory,
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

test('queueing creates the article; a repeat of the same queueing decides nothing', () => {
  given(articleStream)
    .when({ type: 'QueueArticle', articleId, ...queuedData })
    .thenYields(e.queued());
  given(articleStream, e.queued())
    .when({ type: 'QueueArticle', articleId, ...queuedData })
    .thenNothing();
});

test('every command but queueing is refused on an article that does not exist: not_found', () => {
  const commands: ArticleCommand[] = [
    { type: 'StartResearch', at },
    { type: 'RetryArticle', at },
    { type: 'ApproveArticle', mode: 'pr', at },
    { type: 'RequestRevision', ...revisionData('rev_1') },
    { type: 'RefreshArticle', refreshId: 'rfr_1', at },
    { type: 'RecordRevisionCommitted', revisionId: 'rev_1', commitSha: 'c0ffee3', at },
  ];
  for (const command of commands) given(articleStream).when(command).thenFails('not_found');
});

// A worker records the outcome of its step only while the article is still at that step: a
// repeat after a crash, or an outcome overtaken by another, decides nothing.
const workerOutcomes: Array<[ArticleCommand, string[], ArticleEvent['type']]> = [
  [{ type: 'StartResearch', at }, ['queued'], 'ArticleResearchStarted'],
  [
    { type: 'RecordResearch', ...researchData },
    ['researching', 'researching (refresh)'],
    'ArticleResearched',
  ],
  [
    { type: 'RecordDraft', ...draftData('write', 1) },
    ['writing', 'writing (refresh)'],
    'ArticleDrafted',
  ],
  [
    { type: 'StartRefreshPublish', mode: 'pr', at },
    ['writing (refresh)'],
    'ArticlePublishRequested',
  ],
  [
    {
      type: 'RecordPublishTarget',
      slug: 'cold-brew-at-home',
      path: pullRequestData.path,
      branch: null,
      at,
    },
    ['publishing', 'publishing (direct)'],
    'ArticlePublishTargetChosen',
  ],
  [
    { type: 'RecordPullRequest', ...pullRequestData },
    ['publishing', 'publishing (direct)'],
    'ArticlePullRequestOpened',
  ],
  [
    { type: 'RecordMerged', ...mergedData(true) },
    ['publishing', 'publishing (direct)', 'pr_open', 'pr_open (revision waiting)'],
    'ArticleMerged',
  ],
  [
    { type: 'RecordClosed', prUrl: pullRequestData.prUrl, closedBy: null, at },
    ['pr_open', 'pr_open (revision waiting)'],
    'ArticleClosed',
  ],
];
const outcomeCases = workerOutcomes.flatMap(([command, appliesOn, yields]) =>
  everyHistory.map(
    ([road, history]) =>
      [command.type, road, history, command, appliesOn.includes(road) ? yields : null] as const,
  ),
);

describe("a worker's outcome", () => {
  test.each(outcomeCases)('%s on a %s article', (_type, _road, history, command, yields) => {
    const decision = given(articleStream, ...history).when(command);
    if (yields === null) return decision.thenNothing();
    const outcome = decision.outcome();
    expect('events' in outcome && outcome.events.map((event) => event.type)).toEqual([yields]);
  });

  test('a failure is recorded only for the step the article is still at', () => {
    given(articleStream, ...historyAt.writing)
      .when({ type: 'FailStep', step: 'researching', reason: 'late', at })
      .thenNothing();
  });

  test("a refresh's new draft stays in writing until it is published, with the next version", () => {
    const next = given(articleStream, ...refreshWritingHistory)
      .when({ type: 'RecordDraft', ...draftData('refresh', 2) })
      .thenYields(e.drafted('refresh', 2));
    expect(next).toMatchObject({ status: 'writing', version: 2, purpose: 'refresh' });
  });
});

describe('revisions', () => {
  const revised = (revisionId: string): ArticleCommand => ({
    type: 'RecordRevision',
    revisionId,
    version: 2,
    mdx: '---\ntitle: Cold brew\n---\n\nShorter.\n',
    summary: 'Shortened the intro.',
    diff: { addedLines: 1, removedLines: 1, addedWords: 1, removedWords: 3 },
    generation,
    at,
  });
  const pending = [...historyAt.draft, e.revisionRequested('rev_1')];

  test('a requested revision waits in line; its outcome is recorded once', () => {
    const state = given(articleStream, ...historyAt.draft)
      .when({ type: 'RequestRevision', ...revisionData('rev_1') })
      .thenYields(e.revisionRequested('rev_1'));
    expect(state).toMatchObject({ status: 'draft', pendingRevisions: [{ revisionId: 'rev_1' }] });
    const { type: _type, ...data } = revised('rev_1') as Extract<
      ArticleCommand,
      { type: 'RecordRevision' }
    >;
    const after = given(articleStream, ...pending)
      .when(revised('rev_1'))
      .thenYields({ type: 'ArticleRevised', data: { articleId, ...data } });
    expect(after).toMatchObject({ version: 2, pendingRevisions: [] });
    given(articleStream, ...pending, { type: 'ArticleRevised', data: { articleId, ...data } })
      .when(revised('rev_1'))
      .thenNothing();
  });

  test('a failed revision leaves the line; an unknown or finished one decides nothing', () => {
    const failing: ArticleCommand = {
      type: 'FailRevision',
      revisionId: 'rev_1',
      reason: 'the model did not answer',
      at,
    };
    given(articleStream, ...pending)
      .when(failing)
      .thenYields({
        type: 'ArticleRevisionFailed',
        data: { articleId, revisionId: 'rev_1', reason: 'the model did not answer', at },
      });
    given(articleStream, ...historyAt.draft)
      .when(failing)
      .thenNothing();
    given(articleStream, ...historyAt.draft)
      .when(revised('rev_unknown'))
      .thenNothing();
  });

  test('a revision pushed to the open pull request is recorded', () => {
    given(articleStream, ...historyAt.pr_open)
      .when({ type: 'RecordRevisionCommitted', revisionId: 'rev_1', commitSha: 'c0ffee3', at })
      .thenYields({
        type: 'ArticleRevisionCommitted',
        data: { articleId, revisionId: 'rev_1', commitSha: 'c0ffee3', at },
      });
  });
});

test('search figures are recorded once per sync', () => {
  const sync = (syncId: string): ArticleCommand => ({
    type: 'RecordSearchMetrics',
    ...searchFigures,
    syncId,
  });
  const recorded: Extract<ArticleEvent, { type: 'ArticleSearchMetricsUpdated' }> = {
    type: 'ArticleSearchMetricsUpdated',
    data: { articleId, ...searchFigures, syncId: 'syn_1' },
  };
  given(articleStream, ...historyAt.merged)
    .when(sync('syn_1'))
    .thenYields(recorded);
  given(articleStream, ...historyAt.merged, recorded)
    .when(sync('syn_1'))
    .thenNothing();
  given(articleStream, ...historyAt.merged, recorded)
    .when(sync('syn_2'))
    .thenYields({ ...recorded, data: { ...recorded.data, syncId: 'syn_2' } });
});
