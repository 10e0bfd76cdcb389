import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import { periodsAt } from '../../../src/domain/searchAnalytics/metrics.ts';
import { SEARCH_SERIES_POINTS } from '../../../projections/articleSearchSeries.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { eventually } from '../../support/eventually.ts';
import type { TestInkstream } from '../../support/inkstream.ts';
import {
  connectBody,
  integrationPath,
  PROPERTY,
  settledSync,
  startGoogleAndProject,
  type Google,
} from './world.ts';

let google: Google;
let app: TestInkstream;
let projectId: string;
let articleId: string;
let world: Awaited<ReturnType<typeof startGoogleAndProject>>;

const daysAgo = (days: number) =>
  new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
const series = (id: string, key?: string) => app.api(key).get(`/articles/${id}/search-metrics`);

beforeAll(async () => {
  world = await startGoogleAndProject();
  ({ google, app, projectId } = world);
  const topicId = (
    await app.api().post(`/projects/${projectId}/topics`, { title: 'Sourdough basics' })
  ).body.topic.id;
  articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(app.platform, accountIdForName('test'), articleId, 'merged'); // published as content/hello.mdx
}, 60_000);
afterAll(() => world.close());

test("the series is refused without a working connection, for another account's article and for a malformed id, changing nothing", async () => {
  const unconnected = await series(articleId);
  expect(unconnected.status).toBe(404);
  expect(unconnected.body.error.message).toContain('search-analytics');
  const stranger = await app.newKey('stranger');
  expect((await series(articleId, stranger)).status).toBe(404);
  const malformed = await series('not-an-article');
  expect(malformed.status).toBe(404);
  expect(malformed.body.error.code).toBe('not_found');
});

test('each sync adds one point (28-day totals, oldest first) that a chart can draw', async () => {
  const url = 'https://crumb.example/blog/hello';
  google.addRows(PROPERTY, [
    { date: daysAgo(10), page: url, query: 'sourdough', clicks: 4, impressions: 100, position: 6 },
  ]);
  expect((await app.api().put(integrationPath(projectId), connectBody())).status).toBe(200);
  await settledSync(app.api(), projectId, eventually);
  google.addRows(PROPERTY, [
    { date: daysAgo(9), page: url, query: 'starter', clicks: 6, impressions: 100, position: 2 },
  ]);
  expect((await app.api().post(`${integrationPath(projectId)}/sync`)).status).toBe(202);
  const body = await eventually(
    async () => (await series(articleId)).body,
    (value: any) => value.searchMetrics?.points.length === 2,
    { what: 'two points' },
  );
  expect(body.searchMetrics).toMatchObject({ property: PROPERTY, url });
  const [first, second] = body.searchMetrics.points;
  expect(first).toMatchObject({ clicks: 4, impressions: 100, ctr: 0.04, position: 6 });
  expect(second).toMatchObject({ clicks: 10, impressions: 200, ctr: 0.05 });
  expect(Date.parse(second.syncedAt)).toBeGreaterThanOrEqual(Date.parse(first.syncedAt));
  expect(second.periodEnd).toMatch(/^\d{4}-\d{2}-\d{2}$/);
});

test('the series keeps the newest syncs, oldest first, however many the article has had', async () => {
  const url = 'https://crumb.example/blog/hello';
  const accountId = accountIdForName('test');
  const recorded = SEARCH_SERIES_POINTS + 5;
  for (let i = 0; i < recorded; i++) {
    const at = new Date(Date.UTC(2030, 0, 1) + i * 86_400_000).toISOString();
    const totals = { clicks: i, impressions: 100 + i, ctr: i / (100 + i), position: 5 };
    await app.platform.commands.execute(
      articleStream,
      articleId,
      {
        type: 'RecordSearchMetrics',
        property: PROPERTY,
        url,
        ...periodsAt(at),
        current: totals,
        previous: totals,
        queries: [],
        projectId,
        syncId: `sync-${i}`,
        at,
      },
      {
        accountId,
        actor: { kind: 'system', worker: 'test' },
        correlationId: `sync-${i}`,
        requestId: `sync-${i}`,
        commandId: `sync-${i}`,
      },
    );
  }
  const body = await eventually(
    async () => (await series(articleId)).body,
    (value: any) => value.searchMetrics?.points.at(-1)?.clicks === recorded - 1,
    { what: 'the last sync', timeoutMs: 60_000 },
  );
  const points = body.searchMetrics.points;
  expect(points).toHaveLength(SEARCH_SERIES_POINTS);
  expect(points[0].clicks).toBe(recorded - SEARCH_SERIES_POINTS);
  expect(points.map((point: { syncedAt: string }) => point.syncedAt)).toEqual(
    [...points.map((point: { syncedAt: string }) => point.syncedAt)].sort(),
  );
}, 120_000);
