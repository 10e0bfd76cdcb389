import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../../../support/eventually.ts';
import { FakeGitHub } from '../../../../support/fakeGitHub.ts';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../../../../support/fakeOpenAi.ts';
import { kindOf } from '../../../../support/modelAnswers.ts';
import {
  startInkstream,
  type ApiClient,
  type TestInkstream,
} from '../../../../support/inkstream.ts';
import type { TestSite } from '../../../../support/testSite.ts';
import {
  BAD_DRAFT,
  CLEAN_DRAFT,
  HEALTH_CLAIM,
  INVENTED_FIGURES,
  RESEARCH,
} from './draftAnswers.ts';
import { startTeaSite } from './teaSite.ts';

let fake: FakeOpenAi;
let site: TestSite;
let github: FakeGitHub;
let app: TestInkstream;
let api: ApiClient;
let projectId: string;
/** What the fake model answers to the next article_draft and article_revision calls. */
let draft: Record<string, unknown>;
let revision: Record<string, unknown> = { body: 'unused', summary: 'unused' };

beforeAll(async () => {
  site = await startTeaSite();
  fake = await startFakeOpenAi({
    respond: (request) =>
      reply.object(
        {
          brand_voice: {
            summary: 'Calm and plain.',
            voiceTraits: ['calm'],
            do: ['Say how the tea tastes'],
            dont: [],
          },
          article_research: RESEARCH(site.origin),
          article_draft: draft,
          article_revision: revision,
        }[kindOf(request)] ?? {},
      ),
  });
  github = await FakeGitHub.start();
  github.addRepository({ owner: 'fernleaf', name: 'site', files: { 'README.md': '# Fernleaf\n' } });
  github.addToken('ghp_writer', { login: 'inkbot', repositories: { 'fernleaf/site': 'write' } });
  app = await startInkstream({
    env: { ...fake.env, GITHUB_API_URL: github.baseUrl, INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' },
  });
  api = app.api();
  projectId = (await api.post('/projects', { name: 'Fernleaf Tea', websiteUrl: site.origin })).body
    .project.id;
  await eventually(
    () => api.get(`/projects/${projectId}`),
    (r) => r.body.project.crawl.status !== 'pending',
    { what: 'the crawl' },
  );
  expect(
    (
      await api.put(`/projects/${projectId}/brand`, {
        doDont: { do: [], dont: ['Never make health claims about tea.'] },
      })
    ).status,
  ).toBe(200);
  expect(
    (
      await api.put(`/projects/${projectId}/integrations/github`, {
        repository: 'fernleaf/site',
        baseBranch: 'main',
        contentDirectory: 'content/blog',
        credentials: { type: 'token', token: 'ghp_writer' },
      })
    ).status,
  ).toBe(200);
});
afterAll(async () => {
  await app?.close();
  await github?.close();
  await fake?.close();
  await site?.close();
});

async function written(answer: Record<string, unknown>): Promise<any> {
  draft = answer;
  const topic = (
    await api.post(`/projects/${projectId}/topics`, {
      title: 'Brewing green tea',
      keyword: 'green tea',
    })
  ).body.topic;
  const articleId = (await api.post(`/topics/${topic.id}/write`)).body.article.id as string;
  const article = await eventually(
    () => api.get(`/articles/${articleId}`).then((r) => r.body.article),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  expect(article.status, JSON.stringify(article.failure)).toBe('draft');
  return article;
}

const byName = (article: any) =>
  Object.fromEntries(article.checks.map((check: any) => [check.name, check]));
const statuses = (article: any) =>
  Object.fromEntries(article.checks.map((check: any) => [check.name, check.status]));

test('a quality gate setting other than warn or block is refused with 400 and changes nothing', async () => {
  const refused = await api.patch(`/projects/${projectId}`, {
    settings: { qualityGate: 'strict' },
  });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('validation_failed');
  expect((await api.get(`/projects/${projectId}`)).body.project.settings.qualityGate).toBe('warn');
});

test('a draft with invented figures, a health claim, clichés, an off-site link, 90 words and no keyword in its title fails the gate, and every finding points into the body', async () => {
  const article = await written(BAD_DRAFT(site.origin));
  expect(statuses(article)).toEqual({
    grounding: 'fail',
    brandRules: 'fail',
    length: 'fail',
    keyword: 'fail',
    headings: 'fail',
    cliches: 'fail',
    links: 'warn',
    neutralised: 'pass',
  });
  const checks = byName(article);
  for (const check of article.checks) {
    for (const finding of check.details)
      if (finding.start !== null)
        expect(article.body.slice(finding.start, finding.end)).toBe(finding.text);
  }
  expect(checks.grounding.details.map((finding: any) => finding.text)).toEqual([
    INVENTED_FIGURES,
    HEALTH_CLAIM,
  ]);
  expect(checks.grounding.details[0].source).toEqual({
    url: `${site.origin}/about`,
    passage: 'Studies show 85% of tea drinkers sleep better.',
  });
  expect(checks.grounding.details[0].note).toMatch(/not on/);
  expect(checks.brandRules.details.map((finding: any) => finding.text)).toEqual([HEALTH_CLAIM]);
  expect(checks.length.message).toMatch(/^\d{2} words: \d+% of the 800 asked for\.$/);
  expect(checks.keyword.details[0].note).toBe('The title does not contain the keyword.');
  expect(checks.cliches.details.map((finding: any) => finding.text.toLowerCase())).toEqual([
    "in today's fast-paced world",
    'game-changer',
    'leverage',
  ]);

  // The off-site link is plain text now; the link to the site's own page stays.
  expect(article.body).not.toContain('evil.example/deal)');
  expect(article.body).toContain('Grab the deal before it ends');
  expect(article.body).toContain(`[how we brew](${site.origin}/blog/brewing-green-tea)`);
  expect(checks.links.details).toEqual([
    expect.objectContaining({
      text: 'the deal',
      note: expect.stringContaining('https://evil.example/deal'),
    }),
  ]);

  // History shows what the gate said about the draft.
  const history = (await api.get(`/articles/${article.id}/history`)).body;
  const drafted = history.history.find((entry: any) => entry.type === 'ArticleDrafted');
  expect(drafted.data.checks.map((check: any) => check.status)).toEqual(
    article.checks.map((check: any) => check.status),
  );
});

test('a project that blocks on failing checks refuses approval with 409 naming them and appends nothing; the default only warns', async () => {
  const article = await written(BAD_DRAFT(site.origin));
  expect(
    (await api.patch(`/projects/${projectId}`, { settings: { qualityGate: 'block' } })).body.project
      .settings.qualityGate,
  ).toBe('block');
  const before = (await api.get(`/articles/${article.id}/history`)).body.history.length;
  const refused = await api.post(`/articles/${article.id}/approve`);
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('invalid_state');
  expect(refused.body.error.message).toMatch(/quality gate/);
  for (const name of ['grounding', 'brandRules', 'length', 'keyword', 'headings', 'cliches'])
    expect(refused.body.error.message).toContain(name);
  expect(refused.body.error.message).not.toContain('links (');
  expect((await api.get(`/articles/${article.id}/history`)).body.history.length).toBe(before);
  expect((await api.get(`/articles/${article.id}`)).body.article.status).toBe('draft');

  expect(
    (await api.patch(`/projects/${projectId}`, { settings: { qualityGate: 'warn' } })).status,
  ).toBe(200);
  expect((await api.post(`/articles/${article.id}/approve`)).status).toBe(202);
  const opened = await eventually(
    () => api.get(`/articles/${article.id}`).then((r) => r.body.article),
    (a) => a.status === 'pr_open' || a.status === 'failed',
    { what: 'the pull request' },
  );
  expect(opened.status, JSON.stringify(opened.failure)).toBe('pr_open');

  // The PR description lists the checks, the model's text escaped; the head commit carries a failing status.
  const pull = github.repository('fernleaf', 'site').pulls.get(opened.prNumber)!;
  expect(pull.body).toContain('### Quality checks');
  expect(pull.body).toContain('| grounding | ❌ fail |');
  expect(pull.body).toContain('| links | ⚠️ warn |');
  expect(pull.body).toContain('A 2019 study found that 85% of tea drinkers sleep better.');
  const head = github.repository('fernleaf', 'site').branches.get(opened.branch)!;
  const [status] = github.statusesOf('fernleaf', 'site', head);
  expect(status).toMatchObject({ state: 'failure', context: 'inkstream/quality' });
  expect(status.description).toMatch(
    /^Failing: grounding, brandRules, length, keyword, headings, cliches/,
  );

  // A revision committed to the branch is checked again, and its head commit gets its own status.
  revision = { body: CLEAN_DRAFT(site.origin).body, summary: 'Rewrote it from the brewing guide.' };
  expect(
    (
      await api.post(`/articles/${article.id}/revise`, {
        instruction: 'Rewrite it from the brewing guide.',
      })
    ).status,
  ).toBe(202);
  await eventually(
    () => api.get(`/articles/${article.id}/history`),
    (r) => r.body.history.some((entry: any) => entry.type === 'ArticleRevisionCommitted'),
    { what: 'the revision commit' },
  );
  const revisedHead = github.repository('fernleaf', 'site').branches.get(opened.branch)!;
  expect(revisedHead).not.toBe(head);
  expect(github.statusesOf('fernleaf', 'site', revisedHead)).toEqual([
    expect.objectContaining({ state: 'failure', description: 'Failing: keyword' }),
  ]);
  expect(github.violations).toEqual([]);
});

test('a clean, grounded draft passes every check and approves under a blocking gate; its commit status is success', async () => {
  const article = await written(CLEAN_DRAFT(site.origin));
  expect(statuses(article)).toEqual({
    grounding: 'pass',
    brandRules: 'pass',
    length: 'pass',
    keyword: 'pass',
    headings: 'pass',
    cliches: 'pass',
    links: 'pass',
    neutralised: 'pass',
  });
  expect(byName(article).grounding.details).toEqual([
    expect.objectContaining({
      text: 'Brew green tea with water at 80°C for two to three minutes.',
      source: {
        url: `${site.origin}/blog/brewing-green-tea`,
        passage: 'Brew green tea with water at 80°C for two to three minutes.',
      },
    }),
  ]);
  expect(
    (await api.patch(`/projects/${projectId}`, { settings: { qualityGate: 'block' } })).status,
  ).toBe(200);
  expect((await api.post(`/articles/${article.id}/approve`)).status).toBe(202);
  const opened = await eventually(
    () => api.get(`/articles/${article.id}`).then((r) => r.body.article),
    (a) => a.status === 'pr_open' || a.status === 'failed',
    { what: 'the pull request' },
  );
  expect(opened.status, JSON.stringify(opened.failure)).toBe('pr_open');
  const head = github.repository('fernleaf', 'site').branches.get(opened.branch)!;
  expect(github.statusesOf('fernleaf', 'site', head)).toEqual([
    expect.objectContaining({ state: 'success', description: 'All 8 checks pass' }),
  ]);
  await api.patch(`/projects/${projectId}`, { settings: { qualityGate: 'warn' } });
});

test('a revision is checked again: an off-site link it adds becomes plain text, and the new checks replace the old', async () => {
  const article = await written(CLEAN_DRAFT(site.origin));
  revision = {
    body: `${CLEAN_DRAFT(site.origin).body}\nGreen tea cures anxiety. See https://evil.example/deal for a discount.\n`,
    summary: 'Added a closing line.',
  };
  expect(
    (await api.post(`/articles/${article.id}/revise`, { instruction: 'Add a closing line.' }))
      .status,
  ).toBe(202);
  const revised = await eventually(
    () => api.get(`/articles/${article.id}`).then((r) => r.body.article),
    (a) => a.version === 2,
    { what: 'the revision' },
  );
  expect(statuses(revised)).toMatchObject({ grounding: 'fail', brandRules: 'fail', links: 'warn' });
  expect(byName(revised).links.details[0].note).toContain('https://evil.example/deal');
  // The bare URL stays as inline code, which no Markdown renderer links.
  expect(revised.body).toContain('See `https://evil.example/deal` for a discount.');
  const history = (await api.get(`/articles/${article.id}/history`)).body.history;
  const [drafted, recorded] = ['ArticleDrafted', 'ArticleRevised'].map(
    (type) => history.find((entry: any) => entry.type === type).data.checks,
  );
  expect(drafted.find((check: any) => check.name === 'links').status).toBe('pass');
  expect(recorded.find((check: any) => check.name === 'links').status).toBe('warn');
});

test("Inkstream's own published articles become link candidates of the next draft, and a link to one stays a link", async () => {
  expect(
    (
      await api.put(`/projects/${projectId}/integrations/github`, {
        repository: 'fernleaf/site',
        baseBranch: 'main',
        contentDirectory: 'content/blog',
        credentials: { type: 'token', token: 'ghp_writer' },
        publishMode: 'direct',
      })
    ).status,
  ).toBe(200);
  const first = await written(CLEAN_DRAFT(site.origin));
  expect((await api.post(`/articles/${first.id}/approve`)).status).toBe(202);
  const published = await eventually(
    () => api.get(`/articles/${first.id}`).then((r) => r.body.article),
    (a) => a.status === 'merged' || a.status === 'failed',
    { what: 'the direct publish' },
  );
  expect(published.status, JSON.stringify(published.failure)).toBe('merged');
  const url = `${site.origin}/blog/${published.slug}`;

  const clean = CLEAN_DRAFT(site.origin);
  const next = await written({ ...clean, body: `${clean.body}\nSee [our first guide](${url}).\n` });
  const prompt = fake.requests
    .filter((request) => kindOf(request) === 'article_draft')
    .at(-1)!
    .body.messages.at(-1).content as string;
  expect(prompt).toContain(`- ${published.title} (${url})`);
  expect(next.body).toContain(`[our first guide](${url})`);
  expect(statuses(next).links).toBe('pass');
});
