import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../support/eventually.ts';
import { reply, type FakeOpenAi, type RecordedRequest } from '../../../support/fakeOpenAi.ts';
import type { ApiClient, TestInkstream } from '../../../support/inkstream.ts';
import type { TestSite } from '../../../support/testSite.ts';
import { startModelWorld, type ModelWorld } from '../../../support/modelWorld.ts';

/** The don't line the brand learner writes for every site that is not formal. */
const LEARNED_DONT = 'Don\'t slip into corporate jargon ("leverage", "synergy", "solutions").';
const DRAFT_BODY = [
  "Holiday weeks decide a bakery's quarter. We leverage pre-orders to plan the bake. Our solutions keep the queue short.",
  '',
  '## Our solutions for you',
  '',
  `Cap each pickup slot. ${'Open pre-orders early and bake to the list. '.repeat(6)}`,
  '',
].join('\n');

let fake: FakeOpenAi;
let site: TestSite;
let app: TestInkstream;
let api: ApiClient;
const answers = (): Record<string, unknown> => ({
  brand_voice: {
    summary: 'Plain and warm.',
    voiceTraits: ['warm'],
    do: ['Keep sentences short'],
    dont: [LEARNED_DONT],
  },
  article_research: {
    outline: [
      { heading: 'Why pre-orders matter', points: ['Predictable bake lists'] },
      { heading: 'Our solutions for you', points: ['Cap each slot'] },
      { heading: 'Pricing holiday bakes', points: ['Cover the extra hours'] },
    ],
    keyPoints: ['Open early'],
    sources: [],
  },
  article_draft: {
    title: 'Holiday Pre-Orders for Small Bakeries',
    description: 'How to run holiday pre-orders without chaos, from pickup slots to pricing.',
    body: DRAFT_BODY,
    tags: ['pre-orders'],
    internalLinks: [],
  },
  article_revision: {
    body: `${DRAFT_BODY}\nOur solutions grow with you.\n`,
    summary: 'Added a closing line.',
  },
});
const kindOf = (request: RecordedRequest): string =>
  request.body.response_format?.json_schema?.name;

let world: ModelWorld | undefined;
beforeAll(async () => {
  world = await startModelWorld({
    respond: (request) => reply.object(answers()[kindOf(request)] ?? {}),
  });
  ({ fake, site, app } = world);
  api = app.api();
});
afterAll(() => world?.close());

test('the learned jargon rule rephrases "leverage", and a term it cannot rephrase keeps its sentence and heading and is named in the revision summary', async () => {
  const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  expect(
    (await api.put(`/projects/${projectId}/brand`, { doDont: { do: [], dont: [LEARNED_DONT] } }))
      .status,
  ).toBe(200);
  const topic = (
    await api.post(`/projects/${projectId}/topics`, {
      title: 'Holiday pre-orders',
      keyword: 'holiday pre-orders',
    })
  ).body.topic;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  const article = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  expect(article.status).toBe('draft');

  expect(article.content).toContain(
    'We use pre-orders to plan the bake. Our solutions keep the queue short.',
  );
  expect(article.content).toContain('\n## Our solutions for you\n');
  expect(article.content).not.toMatch(/leverage/i);
  // The punctuation of "Don't" never became a banned term, so the article's commas and brackets are all there.
  expect(article.content).toContain("Holiday weeks decide a bakery's quarter.");

  expect(
    (await api.post(`/articles/${articleId}/revise`, { instruction: 'Add a closing line.' }))
      .status,
  ).toBe(202);
  await eventually(
    () => api.get(`/articles/${articleId}`),
    (r) => r.body.article.version === 2,
    { what: 'the revision' },
  );
  const [, revision] = (await api.get(`/articles/${articleId}/versions`)).body.versions;
  expect(revision.summary).toBe(
    'Added a closing line. Still uses terms the brand\'s don\'ts rule out, left for an editor to rephrase: "solutions" (3×).',
  );
});
