import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseMdx } from '../../../src/mdx/mdx.ts';
import { eventually } from '../../support/eventually.ts';
import { reply, startFakeOpenAi } from '../../support/fakeOpenAi.ts';
import { startInkstream, type ApiClient, type TestInkstream } from '../../support/inkstream.ts';
import { startTestSite, type TestSite } from '../../support/testSite.ts';

let app: TestInkstream;
let site: TestSite;
let api: ApiClient;
beforeAll(async () => {
  site = await startTestSite();
  app = await startInkstream();
  api = app.api();
});
afterAll(async () => {
  await app?.close();
  await site?.close();
});

const project = (id: string) => api.get(`/projects/${id}`).then((r) => r.body.project);
const article = (id: string) => api.get(`/articles/${id}`).then((r) => r.body.article);

test('create → brand learned → suggest → approve → write → draft → revise → revised, all over HTTP', async () => {
  const created = await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin });
  expect(created.status).toBe(201);
  const projectId = created.body.project.id;

  const crawled = await eventually(
    () => project(projectId),
    (p) => p.crawl.status !== 'pending',
    { what: 'the brand crawl' },
  );
  expect(crawled.crawl).toMatchObject({ status: 'done', failureReason: null });
  expect(crawled.crawl.pagesCrawled).toBeGreaterThanOrEqual(5);
  const facts = crawled.brand.companyFacts;
  expect(facts).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        kind: 'founded',
        value: expect.stringContaining('2011'),
        sourceUrl: site.url('/about'),
      }),
      expect.objectContaining({ kind: 'location', value: expect.stringContaining('Portland') }),
    ]),
  );
  expect(crawled.brand.palette).toMatchObject({ primary: '#e4572e', accent: '#f3a712' });
  expect(site.requested('/private/staff-handbook')).toBe(false);

  const suggest = await api.post(`/projects/${projectId}/topics/suggest`);
  expect(suggest.status).toBe(202);
  const researched = await eventually(
    () => project(projectId),
    (p) => p.research?.status !== 'running',
    { what: 'topic research' },
  );
  expect(researched.research.status).toBe('done');
  expect(researched.research.topicIds.length).toBeGreaterThanOrEqual(5);
  const topics = (await api.get(`/projects/${projectId}/topics?status=suggested`)).body.topics;
  expect(topics.map((t: { id: string }) => t.id).sort()).toEqual(
    [...researched.research.topicIds].sort(),
  );
  expect(topics[0]).toMatchObject({
    source: 'research',
    runId: suggest.body.run.id,
    rationale: expect.any(String),
  });

  const topic = topics[0];
  expect((await api.patch(`/topics/${topic.id}`, { status: 'approved' })).body.topic.status).toBe(
    'approved',
  );
  const written = await api.post(`/topics/${topic.id}/write`);
  expect(written.status).toBe(201);
  const articleId = written.body.article.id;

  const draft = await eventually(
    () => article(articleId),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  expect(draft.status).toBe('draft');
  const { frontmatter, body } = parseMdx(draft.content);
  expect(frontmatter).toMatchObject({
    slug: draft.slug,
    keyword: topic.keyword,
    generator: { provider: 'offline' },
    cover: `/images/covers/${draft.slug}.png`,
  });
  expect(frontmatter.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(frontmatter.kind).toBe('brief'); // without a model: a brief for a writer, labelled as one
  expect(body).toMatch(/^## What the site says$/m);
  expect(body).toContain(`](${site.origin}/`); // excerpts and link candidates point at crawled pages

  const cover = await fetch(`${app.url}/api/v1/articles/${articleId}/cover`, {
    headers: { authorization: `Bearer ${app.key}` },
  });
  expect(cover.status).toBe(200);
  expect(cover.headers.get('content-type')).toBe('image/png');
  expect(
    Buffer.from(await cover.arrayBuffer())
      .subarray(1, 4)
      .toString(),
  ).toBe('PNG');

  const revise = await api.post(`/articles/${articleId}/revise`, {
    instruction: 'Make the introduction shorter.',
  });
  expect(revise.status).toBe(202);
  const revised = await eventually(
    () => article(articleId),
    (a) => a.version === 2,
    { what: 'the revision' },
  );
  expect(revised.lastRevisionSummary).toEqual(expect.any(String));
  expect(revised.content).not.toBe(draft.content);
  expect(parseMdx(revised.content).frontmatter.slug).toBe(draft.slug);
});

test('with OPENAI_API_KEY and OPENAI_BASE_URL the model writes: structured outputs, token usage on the events, no offline mark', async () => {
  const voice = 'Plain, warm and practical: short sentences that talk to bakers as peers.';
  const answers: Record<string, unknown> = {
    brand_voice: {
      summary: voice,
      voiceTraits: ['warm', 'practical', 'direct'],
      do: ['Talk to the baker as "you"', 'Use concrete numbers', 'Keep sentences short'],
      dont: ['No jargon like "synergy"', 'No exclamation marks', 'Never talk down'],
    },
    article_research: {
      outline: [
        { heading: 'Why pre-orders matter', points: ['Predictable bake lists'] },
        { heading: 'Setting pickup slots', points: ['Cap each slot'] },
        { heading: 'Pricing holiday bakes', points: ['Cover the extra hours'] },
      ],
      keyPoints: ['Open early', 'Cap slots'],
      sources: [{ url: `${site.origin}/blog/holiday-preorders`, title: 'Holiday pre-orders' }],
    },
    article_draft: {
      title: 'Holiday Pre-Orders for Small Bakeries',
      description: 'How to run holiday pre-orders without chaos, from pickup slots to pricing.',
      body: `Holiday weeks decide a bakery's quarter. ${'Open pre-orders early, cap each pickup slot and bake to the list. '.repeat(8)}\n\nSee [holiday pre-orders](${site.origin}/blog/holiday-preorders).\n`,
      tags: ['pre-orders', 'holidays'],
      internalLinks: [
        { url: `${site.origin}/blog/holiday-preorders`, anchor: 'holiday pre-orders' },
      ],
    },
  };
  const fake = await startFakeOpenAi({
    respond: (request) =>
      reply.object(answers[request.body.response_format?.json_schema?.name] ?? {}, {
        usage: { prompt_tokens: 120, completion_tokens: 80, total_tokens: 200 },
      }),
  });
  const llmApp = await startInkstream({ env: { ...fake.env } });
  try {
    const client = llmApp.api();
    const projectId = (await client.post('/projects', { name: 'Crumb', websiteUrl: site.origin }))
      .body.project.id;
    const crawled = await eventually(
      () => client.get(`/projects/${projectId}`).then((r) => r.body.project),
      (p) => p.crawl.status !== 'pending',
    );
    expect(crawled.brand.voice.summary).toBe(voice);
    const topic = (
      await client.post(`/projects/${projectId}/topics`, {
        title: 'Holiday pre-orders',
        keyword: 'holiday pre-orders',
      })
    ).body.topic;
    const articleId = (await client.post(`/topics/${topic.id}/write`)).body.article.id;
    const draft = await eventually(
      () => client.get(`/articles/${articleId}`).then((r) => r.body.article),
      (a) => a.status === 'draft' || a.status === 'failed',
    );
    expect(draft.status).toBe('draft');
    expect(parseMdx(draft.content).frontmatter).toMatchObject({
      title: 'Holiday Pre-Orders for Small Bakeries',
      generator: { provider: 'openai', model: 'gpt-fake' },
    });
    expect(draft.generation).toEqual({
      provider: 'openai',
      model: 'gpt-fake',
      usage: { promptTokens: 120, completionTokens: 80, totalTokens: 200 },
    });
    const researched = (await llmApp.platform.eventStore.readStream(`article-${articleId}`)).find(
      (event) => event.type === 'ArticleResearched',
    )!;
    expect(researched.data.generation).toMatchObject({
      provider: 'openai',
      usage: { totalTokens: 200 },
    });
    const names = fake.requests.map((request) => request.body.response_format?.json_schema?.name);
    expect(names).toEqual(['brand_voice', 'article_research', 'article_draft']);
    expect(
      fake.requests.every(
        (request) =>
          request.body.model === 'gpt-fake' && request.headers.authorization === 'Bearer sk-test',
      ),
    ).toBe(true);
  } finally {
    await llmApp.close();
    await fake.close();
  }
});
