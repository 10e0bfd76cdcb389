import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { slugOfPath } from '../../../src/domain/articles/article.ts';
import { SYNC_INTERVAL_MS } from '../../../src/features/searchAnalytics/scheduler.ts';
import { articleIn, startWorld, type World } from '../publishing/world.ts';
import { eventually } from '../../support/eventually.ts';
import { googleError } from '../../support/fakeSearchConsole.ts';
import {
  connectBody,
  googleEnv,
  integrationPath,
  OAUTH,
  OWNER,
  PROPERTY,
  settledSync,
  startGoogle,
  type Google,
} from './world.ts';

const clock = manualClock('2026-03-15T10:00:00.000Z');
let google: Google;
let w: World;
let projectId: string;
let sourdough: { id: string; url: string };
let baskets: { id: string; url: string };
let draftId: string;

beforeAll(async () => {
  google = await startGoogle();
  w = await startWorld({ clock, env: googleEnv(google) });
  projectId = await w.project();
  expect((await w.connect(projectId, { publishMode: 'direct' })).status).toBe(200);
  const publish = async (title: string) => {
    const id = await w.draft(projectId, title);
    await w.api.post(`/articles/${id}/approve`);
    const merged = await articleIn(w.api, id, ['merged']);
    return { id, url: `https://crumb.example/blog/${slugOfPath(merged.path)}` };
  };
  sourdough = await publish('Sourdough starter basics');
  baskets = await publish('Proofing baskets compared');
  draftId = await w.draft(projectId, 'Rye bread at home');
  google.addRows(PROPERTY, [
    {
      date: '2026-03-01',
      page: sourdough.url,
      query: 'sourdough starter',
      clicks: 30,
      impressions: 600,
      position: 3,
    },
    {
      date: '2026-03-10',
      page: sourdough.url,
      query: 'how to feed a starter',
      clicks: 10,
      impressions: 400,
      position: 8,
    },
    {
      date: '2026-03-13',
      page: sourdough.url,
      query: 'sourdough starter',
      clicks: 500,
      impressions: 900,
      position: 1,
    },
    {
      date: '2026-02-01',
      page: sourdough.url,
      query: 'sourdough starter',
      clicks: 20,
      impressions: 500,
      position: 5,
    },
    {
      date: '2026-03-02',
      page: 'https://crumb.example/about',
      query: 'crumb bakery',
      clicks: 70,
      impressions: 90,
      position: 1,
    },
  ]);
}, 60_000);
afterAll(async () => {
  await w.close();
  await google.close();
});

const list = async () =>
  (await w.api.get(`/projects/${projectId}/articles`)).body.articles as any[];
const item = (articles: any[], id: string) => articles.find((article) => article.id === id);
const sync = () => w.api.post(`${integrationPath(projectId)}/sync`);

test('without a search-analytics connection articles carry no searchMetrics', async () => {
  const articles = await list();
  expect(articles).toHaveLength(3);
  for (const article of articles) expect(article).not.toHaveProperty('searchMetrics');
  expect((await w.api.get(`/articles/${sourdough.id}`)).body.article).not.toHaveProperty(
    'searchMetrics',
  );
});

test('connecting syncs the published articles: figures for the last 28 days and the 28 before, on the list and the article, in history', async () => {
  expect((await w.api.put(integrationPath(projectId), connectBody())).status).toBe(200);
  const connection = await settledSync(w.api, projectId, eventually);
  expect(connection.lastSync).toMatchObject({
    trigger: 'connect',
    status: 'completed',
    articles: 2,
    withTraffic: 1,
    reason: null,
    period: { start: '2026-02-13', end: '2026-03-12' },
    previousPeriod: { start: '2026-01-16', end: '2026-02-12' },
  });

  const articles = await list();
  expect(item(articles, sourdough.id).searchMetrics).toEqual({
    url: sourdough.url,
    period: { start: '2026-02-13', end: '2026-03-12' },
    previousPeriod: { start: '2026-01-16', end: '2026-02-12' },
    clicks: 40,
    impressions: 1000,
    ctr: 0.04,
    position: 5,
    previous: { clicks: 20, impressions: 500, ctr: 0.04, position: 5 },
    syncedAt: '2026-03-15T10:00:00.000Z',
  });
  expect(item(articles, baskets.id).searchMetrics).toMatchObject({
    url: baskets.url,
    clicks: 0,
    impressions: 0,
    ctr: 0,
    position: null,
    previous: { clicks: 0, position: null },
  });
  expect(item(articles, draftId).searchMetrics).toBeNull();

  const full = (await w.api.get(`/articles/${sourdough.id}`)).body.article;
  expect(full.searchMetrics.queries).toEqual([
    { query: 'sourdough starter', clicks: 30, impressions: 600, ctr: 0.05, position: 3 },
    { query: 'how to feed a starter', clicks: 10, impressions: 400, ctr: 0.025, position: 8 },
  ]);
  const history = (await w.api.get(`/articles/${sourdough.id}/history?limit=200`)).body
    .history as any[];
  const recorded = history.filter((entry) => entry.type === 'ArticleSearchMetricsUpdated');
  expect(recorded).toHaveLength(1);
  expect(recorded[0]).toMatchObject({
    actor: { kind: 'system', worker: 'searchAnalytics.sync' },
    data: {
      syncId: connection.lastSync.id,
      period: { end: '2026-03-12' },
      current: { clicks: 40 },
    },
  });

  const queries = google.callsOf('query');
  // The two 28-day totals, the top queries, then the daily figures (docs/decay.md): page × day, query × day.
  expect(queries.map((call) => call.body.dimensions)).toEqual([
    ['page'],
    ['page'],
    ['query'],
    ['page', 'date'],
    ['query', 'date'],
  ]);
  expect(queries[2].body.dimensionFilterGroups[0].filters[0]).toEqual({
    dimension: 'page',
    operator: 'equals',
    expression: sourdough.url,
  });
});

test('quota and 5xx answers are retried with backoff; a run that keeps failing is recorded as failed and the connection stays ok', async () => {
  google.failNext('query', googleError.rateLimited(), googleError.serverError(503));
  const before = google.callsOf('query').length;
  const asked = await sync();
  expect(asked.status).toBe(202);
  expect(asked.body.sync).toMatchObject({ trigger: 'api', status: 'running' });
  const retried = await settledSync(w.api, projectId, eventually);
  expect(retried.lastSync).toMatchObject({
    id: asked.body.sync.id,
    status: 'completed',
    articles: 2,
  });
  expect(
    google
      .callsOf('query')
      .slice(before)
      .map((call) => call.status),
  ).toEqual([429, 503, 200, 200, 200]);

  google.failNext('query', ...Array.from({ length: 4 }, () => googleError.serverError()));
  const failing = (await sync()).body.sync;
  const failed = await settledSync(w.api, projectId, eventually);
  expect(failed.lastSync).toMatchObject({ id: failing.id, status: 'failed' });
  expect(failed.lastSync.reason).toMatch(
    /^Search Console could not be asked \(Internal error encountered\.\), also after 3 retries\. The next daily sync tries again/,
  );
  expect(failed.status).toBe('ok');
  expect(failed.lastSuccessfulSyncAt).toBe(retried.lastSync.finishedAt);
  expect(item(await list(), sourdough.id).searchMetrics.clicks).toBe(40);
});

test('the daily sync runs on the clock and moves both periods by a day', async () => {
  const before = (await w.api.get(integrationPath(projectId))).body.searchAnalytics.lastSync.id;
  clock.advance(SYNC_INTERVAL_MS);
  const daily = await eventually(
    async () => (await w.api.get(integrationPath(projectId))).body.searchAnalytics,
    (value) => value.lastSync.id !== before && value.lastSync.status !== 'running',
    { what: 'the daily sync' },
  );
  expect(daily.lastSync).toMatchObject({
    trigger: 'schedule',
    status: 'completed',
    period: { start: '2026-02-14', end: '2026-03-13' },
  });
  const metrics = (await w.api.get(`/articles/${sourdough.id}`)).body.article.searchMetrics;
  expect(metrics).toMatchObject({
    syncedAt: '2026-03-16T10:00:00.000Z',
    clicks: 540,
    previous: { clicks: 20 },
  });
});

test('a refused grant during a sync breaks the connection with what to fix: no figures shown, Google not asked again until new credentials are saved', async () => {
  google.revokeRefreshToken(OAUTH.refreshToken);
  await sync();
  const broken = await settledSync(w.api, projectId, eventually);
  expect(broken).toMatchObject({
    status: 'broken',
    nextSyncAt: null,
    lastSync: { status: 'broken' },
  });
  expect(broken.reason).toMatch(
    /^Google refused the refresh token \(invalid_grant: Token has been expired or revoked\.\).*Re-authorise/,
  );
  expect(broken.reason).toContain(
    `PUT /api/v1/projects/${projectId}/integrations/search-analytics`,
  );
  for (const article of await list()) expect(article).not.toHaveProperty('searchMetrics');
  expect((await w.api.get(`/articles/${sourdough.id}`)).body.article).not.toHaveProperty(
    'searchMetrics',
  );
  const refused = await sync();
  expect(refused.status).toBe(409);
  expect(refused.body.error.message).toContain('Re-authorise');

  // A second project, due at the same time, shows the scheduler has passed over the broken one.
  google.addRefreshToken('1//0g-owner-second', { clientId: OAUTH.clientId, user: OWNER });
  const other = await w.project();
  expect(
    (
      await w.api.put(
        integrationPath(other),
        connectBody({ credentials: { ...OAUTH, refreshToken: '1//0g-owner-second' } }),
      )
    ).status,
  ).toBe(200);
  const first = (await settledSync(w.api, other, eventually)).lastSync.id;
  const revokedTokenCalls = () =>
    google.callsOf('token').filter((call) => call.body.refresh_token === OAUTH.refreshToken).length;
  const calls = revokedTokenCalls();
  clock.advance(2 * SYNC_INTERVAL_MS);
  await eventually(
    async () => (await w.api.get(integrationPath(other))).body.searchAnalytics.lastSync,
    (last) => last.id !== first && last.status === 'completed',
    { what: "the other project's daily sync" },
  );
  expect(revokedTokenCalls()).toBe(calls);
  expect((await w.api.get(integrationPath(projectId))).body.searchAnalytics.lastSync.id).toBe(
    broken.lastSync.id,
  );

  google.addRefreshToken('1//0g-owner-reauthorised', { clientId: OAUTH.clientId, user: OWNER });
  const fixed = await w.api.put(
    integrationPath(projectId),
    connectBody({ credentials: { ...OAUTH, refreshToken: '1//0g-owner-reauthorised' } }),
  );
  expect(fixed.body.searchAnalytics).toMatchObject({ status: 'ok', reason: null });
  expect((await settledSync(w.api, projectId, eventually)).lastSync.status).toBe('completed');
  expect(item(await list(), sourdough.id).searchMetrics).toMatchObject({
    syncedAt: '2026-03-18T10:00:00.000Z',
    clicks: 540,
  });
});
