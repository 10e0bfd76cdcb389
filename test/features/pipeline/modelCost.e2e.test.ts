import { afterAll, beforeAll, expect, test } from 'vitest';
import { PROMPT_BUDGET } from '../../../src/integrations/llm/promptBudget.ts';
import { MAX_OUTPUT_TOKENS } from '../../../src/integrations/llm/tokenCaps.ts';
import { projectStream } from '../../../src/domain/projects/decide.ts';
import { eventually } from '../../support/eventually.ts';
import type { FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { answerEveryCall, kindOf } from '../../support/modelAnswers.ts';
import type { ApiClient, TestInkstream } from '../../support/inkstream.ts';
import { page, startTestSite, type TestSite } from '../../support/testSite.ts';
import { startModelWorld, type ModelWorld } from '../../support/modelWorld.ts';

/** A model server that answers every kind of call Inkstream makes, and records what it was sent. */
let fake: FakeOpenAi;
let site: TestSite;
let app: TestInkstream;
let api: ApiClient;

let world: ModelWorld | undefined;
beforeAll(async () => {
  world = await startModelWorld({
    respond: answerEveryCall,
    env: { INKSTREAM_ALLOWED_MODELS: 'gpt-fake-large' },
  });
  ({ fake, site, app } = world);
  api = app.api();
});
afterAll(() => world?.close());

async function crawledProject(): Promise<string> {
  const id = (await api.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body.project
    .id as string;
  await eventually(
    () => api.get(`/projects/${id}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  return id;
}

async function draftOf(projectId: string, title: string): Promise<string> {
  const topic = (
    await api.post(`/projects/${projectId}/topics`, { title, keyword: 'holiday pre-orders' })
  ).body.topic;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  const draft = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  expect(draft.status).toBe('draft');
  return articleId;
}

test('every model call, of every kind, carries the token cap of its kind', async () => {
  const from = fake.requests.length;
  const projectId = await crawledProject();
  const run = (await api.post(`/projects/${projectId}/topics/suggest`)).body.run.id;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.research?.runId === run && r.body.project.research.status !== 'running',
    { what: 'research' },
  );
  const articleId = await draftOf(projectId, 'Holiday pre-orders');
  await api.post(`/articles/${articleId}/revise`, {
    instruction: 'Make the introduction shorter.',
  });
  await eventually(
    () => api.get(`/articles/${articleId}`),
    (r) => r.body.article.version === 2,
    { what: 'the revision' },
  );

  const sent = fake.requests.slice(from);
  expect(sent.map(kindOf)).toEqual([
    'brand_voice',
    'topic_suggestions',
    'article_research',
    'article_draft',
    'article_revision',
  ]);
  const cap: Record<string, number> = {
    brand_voice: MAX_OUTPUT_TOKENS.brandVoice,
    topic_suggestions: MAX_OUTPUT_TOKENS.topicSuggestions,
    article_research: MAX_OUTPUT_TOKENS.research,
    article_draft: MAX_OUTPUT_TOKENS.draft,
    article_revision: MAX_OUTPUT_TOKENS.revision,
  };
  for (const request of sent)
    expect({ kind: kindOf(request), max_tokens: request.body.max_tokens }).toEqual({
      kind: kindOf(request),
      max_tokens: cap[kindOf(request)],
    });
});

test('a project whose stored model is no longer on the allow-list is written with the default model', async () => {
  const projectId = await crawledProject();
  expect(
    (await api.patch(`/projects/${projectId}`, { settings: { model: 'gpt-fake-large' } })).status,
  ).toBe(200);
  // Chosen while the operator allowed it; the list has since been narrowed (as stored before the allow-list existed).
  await app.platform.commands.execute(
    projectStream,
    projectId,
    { type: 'UpdateProject', settings: { model: 'gpt-4-32k' }, at: app.platform.clock.now() },
    {
      accountId: 'test',
      actor: { kind: 'system', worker: 'test' },
      correlationId: 'narrowed',
      requestId: 'narrowed',
      commandId: 'narrowed',
    },
  );
  const from = fake.requests.length;
  await draftOf(projectId, 'Holiday pre-orders, again');
  const sent = fake.requests.slice(from);
  expect(sent.map(kindOf)).toEqual(['article_research', 'article_draft']);
  expect(sent.map((request) => request.body.model)).toEqual(['gpt-fake', 'gpt-fake']);
});

test('an allowed project model is the one the calls use', async () => {
  const projectId = await crawledProject();
  await api.patch(`/projects/${projectId}`, { settings: { model: 'gpt-fake-large' } });
  const from = fake.requests.length;
  await draftOf(projectId, 'Holiday pre-orders, large');
  expect(fake.requests.slice(from).map((request) => request.body.model)).toEqual([
    'gpt-fake-large',
    'gpt-fake-large',
  ]);
});

test('after 500 topics the research prompt stays within its budget and still lists the existing topics closest to the site', async () => {
  const projectId = await crawledProject();
  const unrelated = Array.from({ length: 494 }, (_, i) => ({
    title: `Quarterly compliance memo ${i + 1} for maritime insurers`,
    keyword: `maritime insurance ${i + 1}`,
  }));
  // Created last, so a list cut oldest-first would lose exactly these.
  const closeToTheSite = [
    { title: 'Proofing schedules for a two-person team', keyword: 'proofing schedules' },
    { title: 'Pricing a sourdough loaf at the market', keyword: 'sourdough pricing' },
    { title: 'Holiday pre-orders: pickup slots that work', keyword: 'holiday pre-orders' },
    { title: 'Inventory counts for small bakeries', keyword: 'bakery inventory' },
    { title: 'Online ordering for independent bakeries', keyword: 'bakery online ordering' },
    { title: 'Rejected: bakery ordering software compared', keyword: 'bakery ordering software' },
  ];
  for (const topic of [...unrelated, ...closeToTheSite])
    expect((await api.post(`/projects/${projectId}/topics`, topic)).status).toBe(201);

  const from = fake.requests.length;
  const run = (await api.post(`/projects/${projectId}/topics/suggest`)).body.run.id;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.research?.runId === run && r.body.project.research.status !== 'running',
    { what: 'research' },
  );
  const [sent] = fake.requests.slice(from);
  expect(kindOf(sent)).toBe('topic_suggestions');
  const prompt = sent.body.messages[1].content as string;
  const list = prompt.slice(
    prompt.indexOf('turned down on purpose:\n'),
    prompt.indexOf("\n\nThe site's pages:"),
  );
  expect(list.length).toBeLessThanOrEqual(PROMPT_BUDGET.existingTopics + 30);
  for (const topic of closeToTheSite)
    expect(list).toContain(`- ${topic.title} (keyword: ${topic.keyword})`);
  expect(list).toMatch(/\[… and \d+ more not shown\]$/);
  expect(prompt.length).toBeLessThan(PROMPT_BUDGET.existingTopics + PROMPT_BUDGET.pages + 2_000);
}, 60_000);

test('a crawled page with an enormous title, description, headings and text takes no more than its budgets in the brand-voice, research and draft prompts', async () => {
  const huge = (word: string, times: number) => `${word} `.repeat(times).trim();
  const hostile = await startTestSite({
    pages: {
      '/blog/holiday-preorders': page(
        `<h1>${huge('proofing', 3_000)}</h1>${Array.from({ length: 12 }, () => `<h2>${huge('schedule', 500)}</h2><p>${huge('Proof the dough overnight.', 2_000)}</p>`).join('')}`,
        huge('pre-orders', 4_000),
      ),
    },
  });
  try {
    const crawlFrom = fake.requests.length;
    const projectId = (await api.post('/projects', { name: 'Crumb', websiteUrl: hostile.origin }))
      .body.project.id as string;
    await eventually(
      () => api.get(`/projects/${projectId}`),
      (r) => r.body.project.crawl.status !== 'pending',
      { what: 'the crawl' },
    );
    expect(hostile.requested('/blog/holiday-preorders')).toBe(true);
    const [voice] = fake.requests.slice(crawlFrom);
    expect(kindOf(voice)).toBe('brand_voice');
    const sample = (voice.body.messages[1].content as string).split("The site's text:\n")[1];
    expect(sample.length).toBeLessThanOrEqual(PROMPT_BUDGET.voiceSample);
    expect(sample).toMatch(/## (pre-orders )+\[… [\d,]+ more characters cut to fit the prompt\]/);
    const from = fake.requests.length;
    await draftOf(projectId, 'Holiday pre-orders');
    const sent = fake.requests.slice(from);
    expect(sent.map(kindOf)).toEqual(['article_research', 'article_draft']);
    for (const request of sent) {
      const prompt = request.body.messages[1].content as string;
      const pages = prompt.slice(
        prompt.indexOf("The site's pages:\n") + "The site's pages:\n".length,
      );
      expect(pages).toContain(`${hostile.origin}/blog/holiday-preorders`);
      expect(pages).toMatch(/ — (pre-orders )+\[… [\d,]+ more characters cut to fit the prompt\]/);
      expect(pages.length).toBeLessThanOrEqual(PROMPT_BUDGET.pages);
    }
  } finally {
    await hostile.close();
  }
});

test("a brand profile filled to the API's limits takes no more than its budgets in the prompt, the first facts and rules kept", async () => {
  const projectId = await crawledProject();
  const long = (label: string, i: number) =>
    `${label} ${i + 1}: ${'a careful, concrete and specific rule of the house style '.repeat(5)}`.slice(
      0,
      290,
    );
  const put = await api.put(`/projects/${projectId}/brand`, {
    voice: {
      summary: long('Voice', 0).repeat(6),
      examples: Array.from({ length: 10 }, (_, i) => long('Example sentence', i)),
      language: 'en-US',
    },
    companyFacts: Array.from({ length: 100 }, (_, i) => ({
      kind: 'other',
      value: `${long('Fact', i)} ${'x'.repeat(200)}`,
      sourceUrl: null,
    })),
    doDont: {
      do: Array.from({ length: 30 }, (_, i) => long('Do', i)),
      dont: Array.from({ length: 30 }, (_, i) => long('Dont', i)),
    },
  });
  expect(put.status).toBe(200);
  const from = fake.requests.length;
  await draftOf(projectId, 'Holiday pre-orders, full brand');
  const system = fake.requests[from].body.messages[0].content as string;
  const section = (start: string, end: string) =>
    system.slice(system.indexOf(start) + start.length, system.indexOf(end));
  const facts = section('you may state):\n', '\nDo:\n');
  const dos = section('\nDo:\n', "\nDon't (never break these):\n");
  const donts = system.slice(
    system.indexOf("Don't (never break these):\n") + "Don't (never break these):\n".length,
  );
  expect(facts.length).toBeLessThanOrEqual(PROMPT_BUDGET.companyFacts);
  expect(dos.length).toBeLessThanOrEqual(PROMPT_BUDGET.doRules);
  expect(donts.length).toBeLessThanOrEqual(PROMPT_BUDGET.dontRules);
  const voice = section('\nVoice: ', '\nVoice traits: ');
  expect(voice.length).toBeLessThanOrEqual(PROMPT_BUDGET.voice);
  expect(voice).toContain('The site is written in the language "en-US"; write in it.');
  expect(voice).toMatch(/more characters cut to fit the prompt\]$/);
  expect(facts).toContain('- fact: Fact 1: ');
  expect(dos).toContain('- Do 1: ');
  expect(donts).toContain('- Dont 1: ');
  for (const cut of [facts, dos, donts]) expect(cut).toMatch(/\[… and \d+ more not shown\]$/);
});
