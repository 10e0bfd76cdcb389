import { afterAll, beforeAll, expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import type { LearnedProfile } from '../../../src/domain/integrations/contentProfile.ts';
import { integrationsStream } from '../../../src/domain/integrations/decide.ts';
import { validateForSite } from '../../../src/features/publishing/site/validateForSite.ts';
import { stopProfileLearner } from '../../support/contentProfile.ts';
import { eventually } from '../../support/eventually.ts';
import { astroProfile, hugoProfile } from '../../support/siteProfiles.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;

beforeAll(async () => {
  w = await startWorld({ plan: 'pro' });
  // The profiles here are written by hand: the repository's own learner must not replace them.
  await stopProfileLearner(w.app);
}, 90_000);
afterAll(() => w.close());

const fileOn = (ref: string, path: string) =>
  w.github.fileAt('acme', 'site', ref, path)?.toString('utf8') ?? null;

/**
 * The connection learns `profile` (again) and, the first time, a person accepts it. It is recorded
 * as learned from the base branch's tree as it stands, so the publish job, which learns again only
 * when that tree moved, keeps it.
 */
async function learn(projectId: string, profile: LearnedProfile, step = 't'): Promise<void> {
  const { platform } = w.app;
  const head = w.github.branchHistory('acme', 'site', 'main').at(-1)!;
  const context = (step: string) => ({
    accountId: accountIdForName('test'),
    actor: { kind: 'system' as const, worker: 'test.learner' },
    correlationId: `profile-${projectId}`,
    requestId: `profile-${projectId}`,
    commandId: `profile-${projectId}-${step}`,
  });
  await platform.commands.execute(
    integrationsStream,
    projectId,
    {
      type: 'RecordContentProfile',
      learnedFrom: { commit: head.sha, tree: head.treeSha },
      learned: profile,
      failureReason: null,
      at: platform.clock.now(),
    },
    context(`learned-${step}`),
  );
  await platform.commands.execute(
    integrationsStream,
    projectId,
    { type: 'AcceptContentProfile', at: platform.clock.now() },
    context('accepted'),
  );
}

/** A connected project whose connection learned `profile` and a person accepted it. */
async function projectWithProfile(profile: LearnedProfile): Promise<string> {
  const projectId = await w.project();
  expect((await w.connect(projectId)).status).toBe(200);
  await learn(projectId, profile);
  return projectId;
}

const UNFILLABLE: LearnedProfile['fields'][number] = {
  role: null,
  name: 'heroAuthor',
  type: 'string',
  required: true,
  source: { file: 'src/content.config.ts', line: 9 },
};

test('approve answers 409 naming the field, what the site expects and the file and line, and nothing reaches the repository', async () => {
  const projectId = await projectWithProfile({
    ...astroProfile,
    fields: [...astroProfile.fields, UNFILLABLE],
  });
  const articleId = await w.draft(projectId, 'Rye starters compared');
  const branchesBefore = w.github.calls('git/create-ref').length;
  const commitsBefore = w.github.calls('git/create-commit').length;

  const refused = await w.api.post(`/articles/${articleId}/approve`);

  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('invalid_state');
  expect(refused.body.error.message).toContain(
    '`heroAuthor` is required by `src/content.config.ts` line 9',
  );
  expect((await w.api.get(`/articles/${articleId}`)).body.article.status).toBe('draft');
  expect(w.github.calls('git/create-ref')).toHaveLength(branchesBefore);
  expect(w.github.calls('git/create-commit')).toHaveLength(commitsBefore);
}, 90_000);

test("a learned profile commits the post where and as the site expects it: Astro's pubDate, heroImage beside the post's assets", async () => {
  const projectId = await projectWithProfile(astroProfile);
  const articleId = await w.draft(projectId, 'Sourdough hydration explained');
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  const opened = await articleIn(w.api, articleId, ['pr_open']);

  expect(opened.path).toBe('src/content/blog/sourdough-hydration-explained.md');
  const committed = fileOn(opened.branch, opened.path)!;
  expect(committed).toMatch(/^---\ntitle: "Sourdough hydration explained"\n/);
  expect(committed).toMatch(/\npubDate: "[A-Z][a-z]{2} \d{2} \d{4}"\n/);
  expect(validateForSite({ path: opened.path, content: committed }, astroProfile)).toEqual([]);
  // The article keeps its own canonical text; only the commit is in the site's shape.
  expect(opened.frontmatter.slug).toBe('sourdough-hydration-explained');
  expect(committed).not.toContain('generator');
}, 90_000);

test('a folder-per-post file keeps its slug and its recorded path through a revision: x/index.md is not the slug "index"', async () => {
  const projectId = await projectWithProfile(hugoProfile);
  const articleId = await w.draft(projectId, 'Baguette scoring patterns');
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  const opened = await articleIn(w.api, articleId, ['pr_open']);
  expect(opened.path).toBe('content/posts/baguette-scoring-patterns/index.md');
  const first = fileOn(opened.branch, opened.path)!;
  expect(first.startsWith('+++\ntitle = "Baguette scoring patterns"\n')).toBe(true);

  expect(
    (await w.api.post(`/articles/${articleId}/revise`, { instruction: 'Make it more formal' }))
      .status,
  ).toBe(202);
  const revised = await eventually(
    async () => fileOn(opened.branch, opened.path),
    (text) => text !== first,
    { what: 'the revision committed to the recorded path' },
  );
  expect(revised!.startsWith('+++\n')).toBe(true);
  expect(validateForSite({ path: opened.path, content: revised! }, hugoProfile)).toEqual([]);
  expect(fileOn(opened.branch, 'content/posts/index/index.md')).toBeNull();
  const after = await articleIn(w.api, articleId, ['pr_open']);
  expect(after.path).toBe(opened.path);
  expect(after.frontmatter.slug).toBe('baguette-scoring-patterns');
}, 90_000);

test('the publishing job checks again: a profile that changed after approval fails the article with the reason, nothing committed', async () => {
  const projectId = await projectWithProfile(astroProfile);
  const articleId = await w.draft(projectId, 'Pretzel lye baths');
  // The first publication stops on GitHub's answer, before anything is written.
  w.github.failNext('repos/get-content', { status: 401 });
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  expect((await articleIn(w.api, articleId, ['failed'])).failure.reason).toMatch(/credential/);
  // Meanwhile the site's schema gained a field Inkstream cannot fill; the retry is not checked up front.
  await learn(projectId, { ...astroProfile, fields: [...astroProfile.fields, UNFILLABLE] }, 'u');
  const commitsBefore = w.github.calls('git/create-commit').length;
  expect((await w.api.post(`/articles/${articleId}/retry`)).status).toBe(202);

  const failed = await eventually(
    async () => (await w.api.get(`/articles/${articleId}`)).body.article,
    (article) => article.status === 'failed' && /heroAuthor/.test(article.failure.reason),
    { what: 'the job to refuse the file', timeoutMs: 60_000 },
  );
  expect(failed.failure.step).toBe('publishing');
  expect(failed.failure.reason).toContain(
    '`heroAuthor` is required (a field Inkstream has nothing for) by `src/content.config.ts` line 9',
  );
  expect(w.github.calls('git/create-commit')).toHaveLength(commitsBefore);
}, 90_000);
