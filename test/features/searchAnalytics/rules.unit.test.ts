import { expect, test } from 'vitest';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import {
  articleUrl,
  defaultUrlPattern,
  patternProblem,
  propertyCovers,
} from '../../../src/features/searchAnalytics/articleUrl.ts';
import type {
  SearchAnalytics,
  SearchAnalyticsEvent,
} from '../../../src/domain/searchAnalytics/searchAnalytics.ts';
import {
  searchAnalyticsStream,
  SYNC_STALE_MS,
  type SearchAnalyticsCommand,
} from '../../../src/domain/searchAnalytics/decide.ts';
import { ConnectSearchAnalyticsBody } from '../../../src/features/searchAnalytics/input.ts';
import { NO_TRAFFIC, periodsAt } from '../../../src/domain/searchAnalytics/metrics.ts';

const AT = '2026-03-15T10:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();

function fold(commands: SearchAnalyticsCommand[]): {
  state: SearchAnalytics;
  events: SearchAnalyticsEvent[];
} {
  let state = searchAnalyticsStream.initial();
  const events: SearchAnalyticsEvent[] = [];
  for (const command of commands) {
    const decided = searchAnalyticsStream.decide(command, state);
    events.push(...decided);
    state = decided.reduce(searchAnalyticsStream.evolve, state);
  }
  return { state, events };
}

const connect = (connectionId: string, syncId: string): SearchAnalyticsCommand => ({
  type: 'ConnectSearchAnalytics',
  projectId: 'prj_1',
  accountId: 'acc_1',
  connectionId,
  syncId,
  property: 'sc-domain:crumb.example',
  urlPattern: '{siteUrl}/blog/{slug}',
  credentials: { type: 'oauth' },
  sealedCredentials: 'sealed',
  at: AT,
});
const complete = (syncId: string): SearchAnalyticsCommand => ({
  type: 'CompleteSearchSync',
  syncId,
  period: { start: 'a', end: 'b' },
  previousPeriod: { start: 'c', end: 'd' },
  articles: 1,
  withTraffic: 1,
  at: AT,
});

test('connecting asks for a first sync; another sync is not started while one runs, unless it was lost long ago', () => {
  const { state, events } = fold([connect('c1', 'run_1')]);
  expect(events.map((event) => event.type)).toEqual([
    'SearchAnalyticsConnected',
    'SearchAnalyticsSyncRequested',
  ]);
  expect(state.sync).toMatchObject({ syncId: 'run_1', trigger: 'connect', status: 'running' });
  expect(
    searchAnalyticsStream.decide(
      { type: 'RequestSearchSync', syncId: 'run_2', trigger: 'api', at: later(60_000) },
      state,
    ),
  ).toEqual([]);
  expect(
    searchAnalyticsStream.decide(
      { type: 'RequestSearchSync', syncId: 'run_2', trigger: 'schedule', at: later(SYNC_STALE_MS) },
      state,
    ),
  ).toHaveLength(1);
});

test('only the current run of the current connection records an outcome', () => {
  const { state } = fold([connect('c1', 'run_1'), connect('c2', 'run_2')]);
  expect(searchAnalyticsStream.decide(complete('run_1'), state)).toEqual([]);
  expect(
    searchAnalyticsStream.decide(
      { type: 'MarkSearchConnectionBroken', syncId: 'run_1', reason: 'old', at: AT },
      state,
    ),
  ).toEqual([]);
  const done = fold([connect('c1', 'run_1'), complete('run_1'), complete('run_1')]);
  expect(done.events.filter((event) => event.type === 'SearchAnalyticsSyncCompleted')).toHaveLength(
    1,
  );
});

test('a broken connection refuses syncs until new credentials are saved', () => {
  const { state } = fold([
    connect('c1', 'run_1'),
    { type: 'MarkSearchConnectionBroken', syncId: 'run_1', reason: 'Re-authorise.', at: AT },
  ]);
  expect(state.connection).toMatchObject({ status: 'broken', brokenReason: 'Re-authorise.' });
  expect(() =>
    searchAnalyticsStream.decide(
      { type: 'RequestSearchSync', syncId: 'run_2', trigger: 'api', at: AT },
      state,
    ),
  ).toThrow(/broken.*Re-authorise/);
  const fixed = fold([
    connect('c1', 'run_1'),
    { type: 'MarkSearchConnectionBroken', syncId: 'run_1', reason: 'x', at: AT },
    connect('c2', 'run_3'),
  ]);
  expect(fixed.state.connection).toMatchObject({
    status: 'ok',
    brokenReason: null,
    connectionId: 'c2',
  });
  expect(() =>
    searchAnalyticsStream.decide(
      { type: 'DisconnectSearchAnalytics', at: AT },
      searchAnalyticsStream.initial(),
    ),
  ).toThrow(/no search-analytics connection/);
});

test('an article records one set of figures per sync run', () => {
  let article = articleStream.initial();
  for (const event of articleStream.decide(
    {
      type: 'QueueArticle',
      articleId: 'art_1',
      topicId: 'tpc_1',
      projectId: 'prj_1',
      title: 'T',
      keyword: null,
      brief: null,
      trigger: 'api',
      at: AT,
    },
    article,
  )) {
    article = articleStream.evolve(article, event);
  }
  const record = (syncId: string) => ({
    type: 'RecordSearchMetrics' as const,
    projectId: 'prj_1',
    syncId,
    property: 'sc-domain:crumb.example',
    url: 'https://crumb.example/blog/t',
    ...periodsAt(AT),
    current: NO_TRAFFIC,
    previous: NO_TRAFFIC,
    queries: [],
    at: AT,
  });
  const first = articleStream.decide(record('run_1'), article);
  expect(first).toHaveLength(1);
  article = articleStream.evolve(article, first[0]);
  expect(articleStream.decide(record('run_1'), article)).toEqual([]);
  expect(articleStream.decide(record('run_2'), article)).toHaveLength(1);
});

test('periods: the 28 days ending three days before the sync day, and the 28 before them', () => {
  expect(periodsAt('2026-03-15T00:00:01.000Z')).toEqual({
    period: { start: '2026-02-13', end: '2026-03-12' },
    previousPeriod: { start: '2026-01-16', end: '2026-02-12' },
  });
  expect(periodsAt('2024-03-31T23:59:59.000Z')).toEqual({
    period: { start: '2024-03-01', end: '2024-03-28' },
    previousPeriod: { start: '2024-02-02', end: '2024-02-29' },
  });
});

test('article URLs from the pattern, the default from the project, and whether the property reports them', () => {
  const site = { websiteUrl: 'https://www.crumb.example/', blogUrl: null };
  expect(articleUrl(defaultUrlPattern(site), site, 'rye-bread')).toBe(
    'https://www.crumb.example/blog/rye-bread',
  );
  const withBlog = {
    websiteUrl: 'https://crumb.example',
    blogUrl: 'https://journal.crumb.example/posts/',
  };
  expect(articleUrl(defaultUrlPattern(withBlog), withBlog, 'rye-bread')).toBe(
    'https://journal.crumb.example/posts/rye-bread',
  );
  expect(articleUrl('{siteUrl}/{slug}/', site, 'rye-bread')).toBe(
    'https://www.crumb.example/rye-bread/',
  );
  expect(patternProblem('{siteUrl}/blog/{id}')).toMatch(/unknown placeholder \{id\}/);
  expect(patternProblem('{siteUrl}/blog/')).toMatch(/must contain \{slug\}/);
  expect(propertyCovers('sc-domain:crumb.example', 'http://journal.crumb.example/x')).toBe(true);
  expect(propertyCovers('sc-domain:crumb.example', 'https://notcrumb.example/x')).toBe(false);
  expect(propertyCovers('https://www.crumb.example/', 'https://www.crumb.example/blog/x')).toBe(
    true,
  );
  expect(propertyCovers('https://www.crumb.example/', 'https://crumb.example/blog/x')).toBe(false);
});

test('the property is taken as Search Console writes it: a Domain property lower-cased, a URL prefix with its trailing slash', () => {
  const parse = (property: string) =>
    ConnectSearchAnalyticsBody.safeParse({
      property,
      credentials: { type: 'oauth', clientId: 'a', clientSecret: 'b', refreshToken: 'c' },
    });
  expect(parse('sc-domain:Crumb.Example').data?.property).toBe('sc-domain:crumb.example');
  expect(parse('https://www.crumb.example').data?.property).toBe('https://www.crumb.example/');
  expect(parse('https://www.crumb.example/blog/').data?.property).toBe(
    'https://www.crumb.example/blog/',
  );
  for (const wrong of [
    'crumb.example',
    'sc-domain:',
    'sc-domain:crumb..example',
    'ftp://crumb.example/',
    'https://crumb.example/?q=1',
  ])
    expect(parse(wrong).success, wrong).toBe(false);
  expect(parse('https://crumb.example').data?.provider).toBe('google-search-console');
});
