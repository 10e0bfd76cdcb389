import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { createApiKey } from '../../../src/features/accounts/keys.ts';
import { loadConfig } from '../../../src/core/config.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { periodsAt } from '../../../src/domain/searchAnalytics/metrics.ts';
import { startServer, type RunningServer } from '../../../src/app/start.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { eventually } from '../../support/eventually.ts';
import { googleError } from '../../support/fakeSearchConsole.ts';
import {
  connectBody,
  googleEnv,
  integrationPath,
  PROPERTY,
  startGoogle,
  type Google,
} from './world.ts';

let google: Google;
let dataDir: string;

beforeAll(async () => {
  google = await startGoogle();
  dataDir = mkdtempSync(join(tmpdir(), 'inkstream-search-restart-'));
});
afterAll(async () => {
  await google.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A real server on the same data directory each time; a retry waits ten minutes unless the stop ends it. */
async function start(): Promise<RunningServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
    ...googleEnv(google),
    INKSTREAM_SEARCH_RETRY_DELAYS_MS: '600000',
  });
  return await startServer(config, createLogger('silent'), { announce: () => {} });
}

const client =
  (server: RunningServer, key: string) => async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.url}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, body: (await response.json()) as any };
  };

test('a stop during a retry wait ends the wait at once, and the sync is redone after the restart without recording anything twice', async () => {
  const first = await start();
  await Promise.all(
    first.background.consumers
      .filter((consumer) => consumer.name.startsWith('pipeline.'))
      .map((consumer) => consumer.stop()),
  );
  const { key } = await createApiKey(first.platform, { account: 'bakery', plan: 'pro' });
  let api = client(first, key);
  const projectId = (
    await api('POST', '/projects', { name: 'Crumb', websiteUrl: 'https://crumb.example' })
  ).body.project.id;
  // Two published articles (the fixture publishes both as content/hello.mdx); the second one's queries are asked for after the first is recorded.
  const published: string[] = [];
  for (const title of ['First', 'Second']) {
    const topicId = (await api('POST', `/projects/${projectId}/topics`, { title })).body.topic.id;
    const articleId = (await api('POST', `/topics/${topicId}/write`)).body.article.id;
    await advanceArticle(first.platform, accountIdForName('bakery'), articleId, 'merged');
    published.push(articleId);
  }
  const day = new Date(
    Date.parse(periodsAt(new Date().toISOString()).period.start) + 10 * 86_400_000,
  )
    .toISOString()
    .slice(0, 10);
  google.addRows(PROPERTY, [
    {
      date: day,
      page: 'https://crumb.example/blog/hello',
      query: 'hello',
      clicks: 1,
      impressions: 2,
      position: 3,
    },
  ]);
  let queriesAsked = 0;
  google.failWhere(
    'query',
    (body) => body.dimensions[0] === 'query' && ++queriesAsked === 2,
    googleError.serverError(503),
  );

  const connected = await api('PUT', integrationPath(projectId), connectBody());
  expect(connected.status).toBe(200);
  const syncId = connected.body.searchAnalytics.lastSync.id;
  await eventually(
    async () => google.callsOf('query').length,
    (count) => count === 4,
    { what: "the second article's queries, answered 503, after the first was recorded" },
  );
  expect(google.callsOf('query').map((call) => call.status)).toEqual([200, 200, 200, 503]);

  const recordedBefore = await Promise.all(
    published.map(
      async (articleId) =>
        (await first.platform.eventStore.readStream(`article-${articleId}`)).filter(
          (event) => event.type === 'ArticleSearchMetricsUpdated',
        ).length,
    ),
  );
  expect(recordedBefore.sort()).toEqual([0, 1]);

  const stopping = Date.now();
  await first.stop();
  expect(Date.now() - stopping).toBeLessThan(5_000);

  const second = await start();
  try {
    api = client(second, key);
    const done = await eventually(
      async () => (await api('GET', integrationPath(projectId))).body.searchAnalytics.lastSync,
      (sync) => sync.status !== 'running',
      { what: 'the sync redone after the restart' },
    );
    expect(done).toMatchObject({ id: syncId, status: 'completed', articles: 2, withTraffic: 2 });
    expect(
      google
        .callsOf('query')
        .slice(4)
        .map((call) => call.status),
      // The two totals, both articles' top queries, then the daily figures: page × day and each article's query × day.
    ).toEqual([200, 200, 200, 200, 200, 200, 200]);
    for (const articleId of published) {
      const recorded = (await second.platform.eventStore.readStream(`article-${articleId}`)).filter(
        (event) => event.type === 'ArticleSearchMetricsUpdated',
      );
      expect(recorded.map((event) => event.data.syncId)).toEqual([syncId]);
      expect((await api('GET', `/articles/${articleId}`)).body.article.searchMetrics).toMatchObject(
        { url: 'https://crumb.example/blog/hello', clicks: 1, queries: [{ query: 'hello' }] },
      );
    }
  } finally {
    await second.stop();
  }
});
