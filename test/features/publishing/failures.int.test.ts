import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { PUBLISHING_JOBS } from '../../../src/features/publishing/collections.ts';
import type { JobDoc } from '../../../src/features/publishing/jobs/jobs.ts';
import { eventually } from '../../support/eventually.ts';
import { articleIn, startWorld, type World } from './world.ts';

const clock = manualClock('2026-04-01T08:00:00.000Z');
let w: World;
let projectId: string;

beforeAll(async () => {
  w = await startWorld({ clock });
  w.github.addToken('ghp_no_prs', {
    login: 'inkbot',
    repositories: { 'acme/site': { contents: 'write', pull_requests: 'read', issues: 'read' } },
  });
  projectId = await w.project();
});
afterAll(() => w.close());

const commitsOn = (branch: string) =>
  w.github.branchHistory('acme', 'site', branch).length -
  w.github.branchHistory('acme', 'site', 'main').length;

test('a credential that may not open pull requests fails the article with what to grant; after the fix, retry opens the PR with the one commit already made', async () => {
  expect(
    (await w.connect(projectId, { credentials: { type: 'token', token: 'ghp_no_prs' } })).status,
  ).toBe(200); // a token's PR permission cannot be read in advance
  const articleId = await w.draft(projectId, 'Pricing a wedding cake');
  await w.api.post(`/articles/${articleId}/approve`);
  const failed = await articleIn(w.api, articleId, ['failed']);
  expect(failed.failure.step).toBe('publishing');
  expect(failed.failure.reason).toMatch(
    /^Publishing to acme\/site failed: .*pull_requests:write.*POST \/api\/v1\/articles\/art_\w+\/retry\.$/s,
  );
  expect(commitsOn('inkstream/pricing-a-wedding-cake')).toBe(1);

  expect((await w.connect(projectId)).status).toBe(200);
  expect((await w.api.post(`/articles/${articleId}/retry`)).body.article.status).toBe('publishing');
  const open = await articleIn(w.api, articleId, ['pr_open']);
  expect(open.branch).toBe('inkstream/pricing-a-wedding-cake');
  expect(commitsOn('inkstream/pricing-a-wedding-cake')).toBe(1);
  expect(w.github.calls('pulls/create').filter((call) => call.status === 201)).toHaveLength(1);
});

test('GitHub 5xx and lost answers are retried in place: one commit, one pull request', async () => {
  w.github.failNext('git/create-commit', { status: 502 });
  w.github.failNext('pulls/create', { status: 502, afterApplying: true }); // GitHub opened it; the answer was lost
  const created = w.github.calls('pulls/create').filter((call) => call.status === 201).length;
  const articleId = await w.draft(projectId, 'Gluten-free flour blends');
  await w.api.post(`/articles/${articleId}/approve`);
  const open = await articleIn(w.api, articleId, ['pr_open']);
  expect(commitsOn(open.branch)).toBe(1);
  const pulls = [...w.github.repository('acme', 'site').pulls.values()].filter(
    (pull) => pull.head === open.branch,
  );
  expect(pulls).toHaveLength(1);
  expect(open.prNumber).toBe(pulls[0].number);
  expect(w.github.calls('pulls/create').length - created).toBeGreaterThanOrEqual(1);
});

test('a rate limit re-schedules the publication for when GitHub allows it, instead of waiting in a worker', async () => {
  w.github.rateLimitNext('pulls/create', { kind: 'secondary', retryAfterSeconds: 120 });
  const articleId = await w.draft(projectId, 'Seasonal menus that sell');
  await w.api.post(`/articles/${articleId}/approve`);
  const job = await eventually(
    async () =>
      (
        await w.app.platform.readStore.find<JobDoc>(PUBLISHING_JOBS, {
          filter: { articleId },
          limit: 5,
        })
      ).items[0],
    (found) => found?.attempts === 1,
    { what: 'the publish job to be re-scheduled' },
  );
  expect(job.lastError).toMatch(/rate limit/);
  expect(Number(job.due.split(':')[0])).toBe(clock.nowMs() + 120_000);
  expect((await w.api.get(`/articles/${articleId}`)).body.article.status).toBe('publishing');

  // Other work goes on meanwhile.
  const other = await w.draft(projectId, 'Holiday opening hours');
  await w.api.post(`/articles/${other}/approve`);
  await articleIn(w.api, other, ['pr_open']);

  clock.advance(120_000);
  const open = await articleIn(w.api, articleId, ['pr_open']);
  expect(commitsOn(open.branch)).toBe(1);
});

test('a credential revoked after connecting fails the article with how to replace it', async () => {
  w.github.failNext('repos/get-content', {
    status: 401,
    body: {
      message: 'Bad credentials',
      documentation_url: 'https://docs.github.com/rest',
      status: '401',
    },
  });
  const articleId = await w.draft(projectId, 'Training new bakers');
  await w.api.post(`/articles/${articleId}/approve`);
  const failed = await articleIn(w.api, articleId, ['failed']);
  expect(failed.failure.reason).toContain(
    "Save a new credential in the project's GitHub integration",
  );
});
