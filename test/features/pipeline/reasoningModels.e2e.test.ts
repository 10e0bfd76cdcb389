import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import {
  reply,
  startFakeOpenAi,
  type FakeOpenAi,
  type RecordedRequest,
} from '../../support/fakeOpenAi.ts';
import { startInkstream, type ApiClient, type TestInkstream } from '../../support/inkstream.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';

/**
 * A model server whose reasoning models answer a temperature as OpenAI's do: 400, naming the
 * parameter. `strict-local` is a model Inkstream has never heard of that refuses one the same way.
 */
const REFUSING = new Set(['gpt-5-mini', 'o3', 'strict-local']);
let fake: FakeOpenAi;
let site: TestSite;
let app: TestInkstream;
let api: ApiClient;

const answers = (): Record<string, unknown> => ({
  brand_voice: {
    summary: 'Plain and practical.',
    voiceTraits: ['practical'],
    do: ['Keep sentences short'],
    dont: ['No exclamation marks'],
  },
  article_research: {
    outline: [
      { heading: 'Why pre-orders matter', points: ['Predictable bake lists'] },
      { heading: 'Setting pickup slots', points: ['Cap each slot'] },
      { heading: 'Pricing holiday bakes', points: ['Cover the extra hours'] },
    ],
    keyPoints: ['Open early'],
    sources: [],
  },
  article_draft: {
    title: 'Holiday Pre-Orders for Small Bakeries',
    description: 'How to run holiday pre-orders without chaos, from pickup slots to pricing.',
    body: `Holiday weeks decide a bakery's quarter. ${'Open pre-orders early, cap each pickup slot and bake to the list. '.repeat(8)}\n`,
    tags: ['pre-orders'],
    internalLinks: [],
  },
});
const kindOf = (request: RecordedRequest): string =>
  request.body.response_format?.json_schema?.name;

function answer(request: RecordedRequest) {
  if (REFUSING.has(request.body.model) && 'temperature' in request.body) {
    return {
      kind: 'error' as const,
      status: 400,
      type: 'invalid_request_error',
      code: 'unsupported_value',
      message: `Unsupported value: 'temperature' does not support ${request.body.temperature} with this model. Only the default (1) value is supported.`,
    };
  }
  return reply.object(answers()[kindOf(request)] ?? {});
}

beforeAll(async () => {
  fake = await startFakeOpenAi({ respond: answer });
  site = await startTestSite();
  app = await startInkstream({
    env: {
      ...fake.env,
      INKSTREAM_ALLOWED_MODELS: 'gpt-5-mini,o3,strict-local',
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

async function draftWith(
  model: string,
  title: string,
): Promise<{ article: any; sent: RecordedRequest[] }> {
  const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  expect((await api.patch(`/projects/${projectId}`, { settings: { model } })).status).toBe(200);
  const topic = (
    await api.post(`/projects/${projectId}/topics`, { title, keyword: 'holiday pre-orders' })
  ).body.topic;
  const from = fake.requests.length;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  const article = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  return { article, sent: fake.requests.slice(from) };
}

test('a gpt-5 or o-series project model drafts its article, and is never sent a temperature', async () => {
  for (const model of ['gpt-5-mini', 'o3']) {
    const { article, sent } = await draftWith(model, `Holiday pre-orders on ${model}`);
    expect(article.status).toBe('draft');
    expect(sent.map(kindOf)).toEqual(['article_research', 'article_draft']);
    expect(sent.filter((request) => 'temperature' in request.body)).toEqual([]);
  }
});

test('a model the server says refuses a temperature is asked once more without it, and never sent one again', async () => {
  const first = await draftWith('strict-local', 'Holiday pre-orders, locally');
  expect(first.article.status).toBe('draft');
  expect(first.sent.map((request) => [kindOf(request), 'temperature' in request.body])).toEqual([
    ['article_research', true],
    ['article_research', false],
    ['article_draft', false],
  ]);
  // The server's json_schema support was not in question: the retry still asks for it.
  expect(first.sent.every((request) => request.body.response_format?.type === 'json_schema')).toBe(
    true,
  );

  const second = await draftWith('strict-local', 'Holiday pre-orders, locally again');
  expect(second.article.status).toBe('draft');
  expect(second.sent.filter((request) => 'temperature' in request.body)).toEqual([]);
});

test('a model that takes a temperature still gets the one it is asked with', async () => {
  const { article, sent } = await draftWith('gpt-fake', 'Holiday pre-orders, classic');
  expect(article.status).toBe('draft');
  expect(sent.map((request) => request.body.temperature)).toEqual([0.3, 0.7]);
});
