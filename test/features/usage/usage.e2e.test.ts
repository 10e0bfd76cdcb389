import { OPERATOR } from '../../support/operator.ts';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { setAccountBudget } from '../../../src/features/accounts/budget.ts';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import { loadStream } from '../../../src/eventstore/handleCommand.ts';
import { eventually } from '../../support/eventually.ts';
import { reply, type FakeOpenAi, type RecordedRequest } from '../../support/fakeOpenAi.ts';
import { answerEveryCall, kindOf, modelAnswers } from '../../support/modelAnswers.ts';
import { startInkstream, type ApiClient, type TestInkstream } from '../../support/inkstream.ts';
import type { TestSite } from '../../support/testSite.ts';
import { manualClock } from '../../../src/core/clock.ts';
import { startModelWorld, type ModelWorld } from '../../support/modelWorld.ts';

/** gpt-fake at 2 USD per million tokens in and 8 out, so every step has a known estimated cost. */
const PRICE = { input: 2, output: 8 };
const costOf = (requests: RecordedRequest[]) =>
  Math.round(
    requests.reduce(
      (sum, r) =>
        sum + r.usage!.prompt_tokens * PRICE.input + r.usage!.completion_tokens * PRICE.output,
      0,
    ),
  ) / 1e6;
const tokensIn = (requests: RecordedRequest[]) =>
  requests.reduce((sum, r) => sum + r.usage!.prompt_tokens, 0);
const tokensOut = (requests: RecordedRequest[]) =>
  requests.reduce((sum, r) => sum + r.usage!.completion_tokens, 0);
const month = () => new Date().toISOString().slice(0, 7);

let fake: FakeOpenAi;
let site: TestSite;
let app: TestInkstream;
let api: ApiClient;

let world: ModelWorld | undefined;
beforeAll(async () => {
  world = await startModelWorld({
    respond: answerEveryCall,
    env: { INKSTREAM_LLM_PRICES: JSON.stringify({ 'gpt-fake': PRICE }) },
  });
  ({ fake, site, app } = world);
  api = app.api();
});
afterAll(() => world?.close());

async function crawledProject(client: ApiClient = api): Promise<string> {
  const id = (await client.post('/projects', { name: 'Crumb', websiteUrl: site.origin })).body
    .project.id as string;
  await eventually(
    () => client.get(`/projects/${id}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  return id;
}

async function write(projectId: string, title: string, client: ApiClient = api): Promise<string> {
  const topic = (
    await client.post(`/projects/${projectId}/topics`, { title, keyword: 'holiday pre-orders' })
  ).body.topic;
  return (await client.post(`/topics/${topic.id}/write`)).body.article.id as string;
}

const articleOf = (id: string, client: ApiClient = api) =>
  client.get(`/articles/${id}`).then((r) => r.body.article);
const drafted = (id: string, client: ApiClient = api) =>
  eventually(
    () => articleOf(id, client),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: `the draft of ${id}` },
  );
const waiting = (id: string, client: ApiClient = api) =>
  eventually(
    () => articleOf(id, client),
    (a) => a.waitingFor !== null || a.status !== 'queued',
    { what: `${id} waiting` },
  );

test('a budget that is not a whole token count or a non-negative dollar amount is refused with 400, and nothing changes', async () => {
  const projectId = await crawledProject();
  const before = (await api.get(`/projects/${projectId}`)).body.project;
  const head = await app.platform.eventStore.headPosition();
  for (const budget of [
    { usd: -1 },
    { tokens: 1.5 },
    { tokens: -10 },
    { usd: 1, tokens: 2 },
    { usd: '10' },
    { dollars: 5 },
    { usd: 1e12 },
    'lots',
    [],
  ]) {
    const response = await api.patch(`/projects/${projectId}`, { settings: { budget } });
    expect({ budget, status: response.status, code: response.body.error?.code }).toEqual({
      budget,
      status: 400,
      code: 'validation_failed',
    });
  }
  for (const bad of ['2026-13', '26-01', 'now', '2026-1']) {
    const response = await api.get(`/projects/${projectId}/usage?month=${bad}`);
    expect({ bad, status: response.status }).toEqual({ bad, status: 400 });
  }
  expect(await app.platform.eventStore.headPosition()).toBe(head);
  expect((await api.get(`/projects/${projectId}`)).body.project).toEqual(before);
});

test('a provider reporting negative or absurd token counts cannot lower what a month spent: they count as nothing', async () => {
  const projectId = await crawledProject();
  const before = (await api.get(`/projects/${projectId}/usage`)).body.usage;
  const hostile = {
    prompt_tokens: -5_000_000,
    completion_tokens: Number.MAX_SAFE_INTEGER * -1,
    total_tokens: -1,
  };
  fake.enqueue(
    reply.object(modelAnswers().article_research, { usage: hostile }),
    reply.object(modelAnswers().article_draft, { usage: hostile, model: '' }),
  );
  const article = await drafted(await write(projectId, 'Holiday pre-orders'));
  expect(article.status).toBe('draft');
  expect(article.usage).toMatchObject({ tokensIn: 0, tokensOut: 0 });
  for (const step of article.usage.steps)
    expect(step).toMatchObject({ tokensIn: 0, tokensOut: 0, model: 'gpt-fake' });
  const after = (await api.get(`/projects/${projectId}/usage`)).body.usage;
  expect(after).toMatchObject({
    tokensIn: before.tokensIn,
    tokensOut: before.tokensOut,
    steps: before.steps + 2,
  });
});

test('each model step records its model, tokens, duration, attempts and estimated cost; GETs carry the totals and the month', async () => {
  const projectId = await crawledProject();
  const from = fake.requests.length;
  const articleId = await write(projectId, 'Holiday pre-orders');
  const article = await drafted(articleId);
  expect(article.status).toBe('draft');
  const sent = fake.requests.slice(from);
  expect(sent.map(kindOf)).toEqual(['article_research', 'article_draft']);

  expect(article.usage.steps).toEqual([
    expect.objectContaining({
      step: 'research',
      outcome: 'done',
      provider: 'openai',
      model: 'gpt-fake',
      tokensIn: sent[0].usage!.prompt_tokens,
      tokensOut: sent[0].usage!.completion_tokens,
      attempts: 1,
      costUsd: costOf([sent[0]]),
    }),
    expect.objectContaining({
      step: 'draft',
      outcome: 'done',
      provider: 'openai',
      model: 'gpt-fake',
      tokensIn: sent[1].usage!.prompt_tokens,
      tokensOut: sent[1].usage!.completion_tokens,
      attempts: 1,
      costUsd: costOf([sent[1]]),
    }),
  ]);
  for (const step of article.usage.steps) expect(step.durationMs).toBeGreaterThanOrEqual(0);
  expect(sent[1].usage!.prompt_tokens).toBeGreaterThan(100); // the fake counts the prompt it was sent
  expect(article.usage).toMatchObject({
    tokensIn: tokensIn(sent),
    tokensOut: tokensOut(sent),
    costUsd: costOf(sent),
  });
  expect(article.waitingFor).toBeNull();

  const listed = (await api.get(`/projects/${projectId}/articles`)).body.articles.find(
    (a: { id: string }) => a.id === articleId,
  );
  expect(listed.usage).toEqual({
    tokensIn: tokensIn(sent),
    tokensOut: tokensOut(sent),
    costUsd: costOf(sent),
  });

  const usage = (await api.get(`/projects/${projectId}/usage?month=${month()}`)).body.usage;
  expect(usage).toEqual({
    projectId,
    month: month(),
    tokensIn: tokensIn(sent),
    tokensOut: tokensOut(sent),
    costUsd: costOf(sent),
    unpricedTokens: 0,
    steps: 2,
    failedSteps: 0,
    budget: null,
  });
  expect((await api.get(`/projects/${projectId}/usage`)).body.usage.month).toBe(month());
  expect((await api.get(`/projects/${projectId}/usage?month=2020-01`)).body.usage).toMatchObject({
    tokensIn: 0,
    tokensOut: 0,
    costUsd: 0,
    steps: 0,
  });
  const account = (await api.get(`/usage?month=${month()}`)).body.usage;
  expect(account.tokensIn).toBeGreaterThanOrEqual(tokensIn(sent));

  // No prompt text, no key: the step events hold figures and names only.
  const { events } = await loadStream(app.platform.eventStore, articleStream, articleId);
  const recorded = events.filter((event) => event.type === 'ArticleStepRecorded');
  expect(recorded).toHaveLength(2);
  for (const event of recorded) {
    expect(Object.keys(event.data.run as object).sort()).toEqual([
      'attempts',
      'costUsd',
      'durationMs',
      'model',
      'outcome',
      'provider',
      'startedAt',
      'step',
      'tokensIn',
      'tokensOut',
    ]);
    expect(JSON.stringify(event.data)).not.toContain('sk-test');
  }
});

test('a project budget that is spent keeps the next article queued with the reason, and raising it resumes the article without a restart', async () => {
  const projectId = await crawledProject();
  const first = await write(projectId, 'Holiday pre-orders');
  const firstDraft = await drafted(first);
  const spent = firstDraft.usage.tokensIn + firstDraft.usage.tokensOut;
  expect(
    (await api.patch(`/projects/${projectId}`, { settings: { budget: { tokens: spent } } })).status,
  ).toBe(200);

  const from = fake.requests.length;
  const second = await write(projectId, 'Wholesale pricing for cafes');
  const held = await waiting(second);
  expect(held.status).toBe('queued');
  expect(held.waitingFor).toMatchObject({
    reason: 'budget',
    scope: 'project',
    step: 'start',
    month: month(),
    budget: { tokens: spent },
    spent: { tokens: spent },
  });
  expect(fake.requests.length).toBe(from); // no model call was made for it
  const listed = (await api.get(`/projects/${projectId}/articles?status=queued`)).body.articles;
  expect(
    listed.map((a: { id: string; waitingFor: { reason: string } }) => [a.id, a.waitingFor.reason]),
  ).toEqual([[second, 'budget']]);
  expect((await api.get(`/projects/${projectId}/usage`)).body.usage.budget).toEqual({
    tokens: spent,
  });

  expect(
    (await api.patch(`/projects/${projectId}`, { settings: { budget: { tokens: spent * 10 } } }))
      .status,
  ).toBe(200);
  const resumed = await drafted(second);
  expect(resumed.status).toBe('draft');
  expect(resumed.waitingFor).toBeNull();
  expect(resumed.usage.steps.map((s: { step: string }) => s.step)).toEqual(['research', 'draft']);
});

test("an account budget set by the operator holds every project's next article, and raising it resumes them", async () => {
  const client = app.api(await app.newKey('capped'));
  const projectId = await crawledProject(client);
  await setAccountBudget(app.platform, 'capped', { usd: 0 }, OPERATOR);
  const articleId = await write(projectId, 'Holiday pre-orders', client);
  const held = await waiting(articleId, client);
  expect(held).toMatchObject({
    status: 'queued',
    waitingFor: { reason: 'budget', scope: 'account', budget: { usd: 0 } },
  });
  expect((await client.get('/usage')).body.usage.budget).toEqual({ usd: 0 });

  await setAccountBudget(app.platform, 'capped', { usd: 5 }, OPERATOR);
  expect((await drafted(articleId, client)).status).toBe('draft');
  const usage = (await client.get('/usage')).body.usage;
  expect(usage).toMatchObject({ steps: 2, budget: { usd: 5 } });
  expect(usage.costUsd).toBeGreaterThan(0);
});

test('the offline writer records its steps with zero tokens and no cost', async () => {
  const offline = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' } });
  try {
    const client = offline.api();
    const projectId = await crawledProject(client);
    const article = await drafted(await write(projectId, 'Holiday pre-orders', client), client);
    expect(article.usage).toEqual({
      tokensIn: 0,
      tokensOut: 0,
      costUsd: null,
      steps: [
        expect.objectContaining({
          step: 'research',
          provider: 'offline',
          tokensIn: 0,
          tokensOut: 0,
          attempts: 0,
          costUsd: null,
        }),
        expect.objectContaining({
          step: 'draft',
          provider: 'offline',
          tokensIn: 0,
          tokensOut: 0,
          attempts: 0,
          costUsd: null,
        }),
      ],
    });
    expect((await client.get(`/projects/${projectId}/usage`)).body.usage).toMatchObject({
      tokensIn: 0,
      costUsd: 0,
      steps: 2,
    });
  } finally {
    await offline.close();
  }
});

test("an article that waited for last month's budget goes on when the next month begins", async () => {
  const clock = manualClock('2026-01-31T22:00:00.000Z');
  const monthly = await startInkstream({
    clock,
    env: { ...fake.env, INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  try {
    const client = monthly.api(await monthly.newKey('monthly'));
    const projectId = await crawledProject(client);
    const first = await drafted(await write(projectId, 'Holiday pre-orders', client), client);
    await setAccountBudget(
      monthly.platform,
      'monthly',
      { tokens: first.usage.tokensIn + first.usage.tokensOut },
      OPERATOR,
    );
    const second = await write(projectId, 'Wholesale pricing for cafes', client);
    expect((await waiting(second, client)).waitingFor).toMatchObject({
      scope: 'account',
      month: '2026-01',
    });

    clock.set('2026-02-01T00:30:00.000Z');
    const resumed = await drafted(second, client);
    expect(resumed).toMatchObject({ status: 'draft', waitingFor: null });
    expect((await client.get('/usage?month=2026-02')).body.usage.steps).toBe(2);
  } finally {
    await monthly.close();
  }
});
