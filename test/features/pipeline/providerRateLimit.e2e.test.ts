import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { startInkstream, type ApiClient, type TestInkstream } from '../../support/inkstream.ts';
import { answerEveryCall } from '../../support/modelAnswers.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';

/** A provider that allows one request in flight and answers 429 with Retry-After beyond it, while Inkstream is configured for four. */
let fake: FakeOpenAi;
let site: TestSite;
let app: TestInkstream;
let api: ApiClient;

beforeAll(async () => {
  fake = await startFakeOpenAi({
    respond: answerEveryCall,
    delayMs: 40,
    concurrencyLimit: { max: 1, retryAfterMs: 30 },
  });
  site = await startTestSite();
  app = await startInkstream({
    env: {
      ...fake.env,
      INKSTREAM_LLM_CONCURRENCY: '4',
      INKSTREAM_LLM_MAX_RETRIES: '0',
      INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000',
    },
  });
  api = app.api();
});
afterAll(async () => {
  await app?.close();
  await site?.close();
  await fake?.close();
});

test('a provider answering 429 with Retry-After slows the articles down and fails none of them', async () => {
  const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status === 'done',
    { what: 'the crawl' },
  );
  const articleIds: string[] = [];
  for (let i = 0; i < 6; i++) {
    const topic = (
      await api.post(`/projects/${projectId}/topics`, { title: `Holiday pre-orders, part ${i}` })
    ).body.topic;
    articleIds.push((await api.post(`/topics/${topic.id}/write`)).body.article.id);
  }
  const statuses = await eventually(
    () =>
      Promise.all(
        articleIds.map((id) =>
          api.get(`/articles/${id}`).then((r) => r.body.article.status as string),
        ),
      ),
    (all) => all.every((status) => status === 'draft' || status === 'failed'),
    { what: 'every article to settle', timeoutMs: 20_000 },
  );
  expect(fake.rateLimited).toBeGreaterThan(0); // the provider did push back
  expect(statuses).toEqual(articleIds.map(() => 'draft'));
});
