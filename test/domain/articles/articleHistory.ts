import {
  articleTransitions,
  ARTICLE_STATUSES,
  type ArticleEvent,
  type ArticleStatus,
  type Generation,
} from '../../../src/domain/articles/article.ts';

/** One article's events, as the pipeline records them, and the histories that bring it to each status. */
export const at = '2026-11-25T10:00:00.000Z';
export const articleId = 'art_01jg0000000000000000000001';
export const generation: Generation = {
  provider: 'offline',
  model: null,
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
};
const prUrl = 'https://github.com/acme/site/pull/7';
const path = 'content/blog/cold-brew-at-home.mdx';

type Data<T extends ArticleEvent['type']> = Omit<
  Extract<ArticleEvent, { type: T }>['data'],
  'articleId'
>;
const event = <T extends ArticleEvent['type']>(type: T, data: Data<T>) =>
  ({ type, data: { articleId, ...data } }) as unknown as Extract<ArticleEvent, { type: T }>;

export const queuedData: Data<'ArticleQueued'> = {
  topicId: 'tpc_01jg0000000000000000000001',
  projectId: 'prj_01jg0000000000000000000001',
  title: 'Cold brew at home',
  keyword: 'cold brew',
  brief: null,
  trigger: 'api',
  at,
};
export const researchData: Data<'ArticleResearched'> = {
  outline: [{ heading: 'Why cold brew', points: ['less bitter'] }],
  keyPoints: ['less bitter'],
  sources: [{ url: 'https://example.com/brew', title: 'Brewing' }],
  generation,
  at,
};
export const draftData = (
  purpose: 'write' | 'refresh',
  version: number,
): Data<'ArticleDrafted'> => ({
  version,
  mdx: '---\ntitle: Cold brew at home\n---\n\nSteep it overnight.\n',
  slug: 'cold-brew-at-home',
  title: 'Cold brew at home',
  wordCount: 3,
  cover: null,
  purpose,
  generation,
  at,
});
export const pullRequestData: Data<'ArticlePullRequestOpened'> = {
  prNumber: 7,
  prUrl,
  branch: 'inkstream/cold-brew-at-home',
  commitSha: 'c0ffee1',
  path,
  at,
};
export const mergedData = (viaPr: boolean): Data<'ArticleMerged'> => ({
  commitSha: 'c0ffee2',
  prUrl: viaPr ? prUrl : null,
  path,
  mergedBy: viaPr ? 'octocat' : null,
  at,
});
export const closedData: Data<'ArticleClosed'> = { prUrl, closedBy: 'octocat', at };
export const searchFigures: Omit<Data<'ArticleSearchMetricsUpdated'>, 'syncId'> = {
  property: 'sc-domain:example.com',
  url: 'https://example.com/blog/cold-brew-at-home',
  period: { start: '2026-10-26', end: '2026-11-22' },
  previousPeriod: { start: '2026-09-28', end: '2026-10-25' },
  current: { clicks: 12, impressions: 340, ctr: 0.035, position: 8.2 },
  previous: { clicks: 0, impressions: 0, ctr: 0, position: null },
  queries: [{ query: 'cold brew', clicks: 12, impressions: 340, ctr: 0.035, position: 8.2 }],
  projectId: queuedData.projectId,
  at,
};
export const revisionData = (revisionId: string): Data<'ArticleRevisionRequested'> => ({
  revisionId,
  instruction: 'Shorter intro.',
  source: { kind: 'api' },
  at,
});

export const articleEvents = {
  queued: () => event('ArticleQueued', queuedData),
  researchStarted: (purpose: 'write' | 'refresh' = 'write') =>
    event('ArticleResearchStarted', { purpose, at }),
  researched: () => event('ArticleResearched', researchData),
  drafted: (purpose: 'write' | 'refresh' = 'write', version = 1) =>
    event('ArticleDrafted', draftData(purpose, version)),
  failed: (step: ArticleStatus, reason = 'the site did not answer') =>
    event('ArticleFailed', { step, reason, at }),
  retried: (step: ArticleStatus) => event('ArticleRetried', { step, at }),
  publishRequested: (mode: 'pr' | 'direct' = 'pr', purpose: 'publish' | 'refresh' = 'publish') =>
    event('ArticlePublishRequested', { mode, purpose, at }),
  pullRequestOpened: () => event('ArticlePullRequestOpened', pullRequestData),
  merged: (viaPr = true) => event('ArticleMerged', mergedData(viaPr)),
  closed: () => event('ArticleClosed', closedData),
  refreshRequested: (refreshId = 'rfr_1') => event('ArticleRefreshRequested', { refreshId, at }),
  revisionRequested: (revisionId = 'rev_1') =>
    event('ArticleRevisionRequested', revisionData(revisionId)),
};

const e = articleEvents;
const toDraft = [e.queued(), e.researchStarted(), e.researched(), e.drafted()];
const toPrOpen = [...toDraft, e.publishRequested(), e.pullRequestOpened()];
const toMerged = [...toPrOpen, e.merged()];

/** The plain road to each status; `failed` failed while researching. */
export const historyAt: Record<ArticleStatus, ArticleEvent[]> = {
  queued: [e.queued()],
  researching: [e.queued(), e.researchStarted()],
  writing: [e.queued(), e.researchStarted(), e.researched()],
  draft: toDraft,
  publishing: [...toDraft, e.publishRequested()],
  pr_open: toPrOpen,
  merged: toMerged,
  closed: [...toPrOpen, e.closed()],
  failed: [e.queued(), e.researchStarted(), e.failed('researching')],
};

/** A published article being refreshed: researching again, then writing its new version. */
export const refreshingHistory = [...toMerged, e.refreshRequested()];
export const refreshWritingHistory = [...refreshingHistory, e.researched()];
export const directPublishingHistory = [...toDraft, e.publishRequested('direct')];

/** Statuses from which the table lets an article fail. */
export const failableSteps = ARTICLE_STATUSES.filter((status) =>
  (articleTransitions[status] as readonly ArticleStatus[]).includes('failed'),
);
export const failedAt = (step: ArticleStatus): ArticleEvent[] => [
  ...historyAt[step],
  e.failed(step),
];

/** Every road the tests know, by name: each status, the refresh and direct roads, a revision waiting, a failure at every failable step. */
export const everyHistory: Array<[string, ArticleEvent[]]> = [
  ...ARTICLE_STATUSES.map((status): [string, ArticleEvent[]] => [status, historyAt[status]]),
  ['researching (refresh)', refreshingHistory],
  ['writing (refresh)', refreshWritingHistory],
  ['publishing (direct)', directPublishingHistory],
  ['pr_open (revision waiting)', [...toPrOpen, e.revisionRequested('rev_1')]],
  ...failableSteps.map((step): [string, ArticleEvent[]] => [`failed at ${step}`, failedAt(step)]),
];
