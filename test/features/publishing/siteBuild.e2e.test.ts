import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import {
  BUILD_BACKOFF_MS,
  BUILD_PASS_MS,
} from '../../../src/features/publishing/build/buildWatch.ts';
import { eventually } from '../../support/eventually.ts';
import { checkRunEvent, pullRequestClosed } from '../../support/githubWebhooks.ts';
import { openSse, type SseConnection } from '../../support/sseClient.ts';
import { articleIn, startWorld, type World } from './world.ts';

/**
 * The site's own build read back onto the article: the fake GitHub speaks check runs (with
 * annotations), commit statuses, deployments and the Actions API as GitHub does; the build
 * watcher reads them on the injected clock, the webhook nudges it, and the article, the live
 * stream and the pull request's description show it.
 */
const clock = manualClock('2026-05-01T08:00:00.000Z');
let w: World;
const streams: SseConnection[] = [];

beforeAll(async () => {
  // The manual clock never starts a new rate-limit minute: the polls below would run out of it.
  w = await startWorld({ clock, env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '100000' } });
  w.github.addToken('ghp_fine', {
    login: 'inkbot',
    repositories: {
      'acme/site': {
        contents: 'write',
        pull_requests: 'write',
        statuses: 'write',
        actions: 'read',
        deployments: 'read',
      },
    },
  });
  w.github.addToken('ghp_blind', {
    login: 'inkbot',
    repositories: { 'acme/site': { contents: 'write', pull_requests: 'write' } },
  });
});
afterAll(async () => {
  for (const stream of streams) stream.close();
  await w.close();
});

const headOf = (branch: string) => w.github.repository('acme', 'site').branches.get(branch)!;

async function buildOf(articleId: string, done: (build: any) => boolean, what: string) {
  return eventually(
    async () => (await w.api.get(`/articles/${articleId}`)).body.article.build,
    done,
    { what, timeoutMs: 20_000 },
  );
}

async function history(articleId: string): Promise<{ type: string; data: unknown }[]> {
  return (await w.api.get(`/articles/${articleId}/history?limit=200`)).body.history;
}

const observed = async (articleId: string) =>
  (await history(articleId)).filter((entry) => entry.type === 'ArticleBuildObserved');

test('a forged build webhook (javascript: URL, a state that is not a string) is refused with 400 and changes nothing; a real one is read at once', async () => {
  const { secret, articleId } = await w.pullRequestOpen();
  const head = headOf((await w.api.get(`/articles/${articleId}`)).body.article.branch);
  const run = w.github.reportCheckRun('acme', 'site', {
    sha: head,
    name: 'build',
    status: 'completed',
    conclusion: 'success',
  });
  const valid = checkRunEvent(w.github, { owner: 'acme', repo: 'site', run });
  const forgedUrl = structuredClone(valid);
  forgedUrl.check_run.conclusion = 'failure';
  forgedUrl.check_run.details_url = 'javascript:alert(document.cookie)';
  const forgedStatus = {
    sha: head,
    context: 'vercel',
    state: { toString: 'failure' },
    target_url: 'https://vercel.com/x',
    repository: valid.repository,
  };
  const httpStatus = { ...forgedStatus, state: 'failure', target_url: 'http://evil.example/' };
  for (const [name, payload] of [
    ['check_run', forgedUrl],
    ['status', forgedStatus],
    ['status', httpStatus],
  ] as const) {
    const answer = await w.deliver(await w.sign(name, payload, secret));
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    expect(answer.body.error.code).toBe('validation_failed');
  }
  const connection = (
    await w.api.get(
      `/projects/${(await w.api.get(`/articles/${articleId}`)).body.article.projectId}/integrations/github`,
    )
  ).body.github;
  expect(
    connection.webhook.received.find((e: any) => e.name === 'check_run').lastReceivedAt,
  ).toBeNull();

  // The genuine delivery: accepted, and the commit is read at the next pass (no backoff).
  const accepted = await w.deliver(await w.sign('check_run', valid, secret));
  expect(accepted).toMatchObject({ status: 202, body: { status: 'accepted' } });
  clock.advance(BUILD_PASS_MS);
  const build = await buildOf(
    articleId,
    (b) => b?.state === 'success',
    'the build read after the webhook',
  );
  expect(build.checks).toEqual([
    {
      name: 'build',
      state: 'success',
      url: `https://github.com/acme/site/runs/${run.id}`,
      detail: null,
    },
  ]);
  expect(JSON.stringify(await history(articleId))).not.toContain('javascript:');
  expect(JSON.stringify(await history(articleId))).not.toContain('evil.example');
}, 60_000);

test("pending → failure with annotations on Inkstream's file → fixed commit → success with a preview URL: on the article, the live stream and the PR description", async () => {
  const stream = await openSse(`${w.app.url}/api/v1/live`, {
    authorization: `Bearer ${w.app.key}`,
  });
  streams.push(stream);
  const { articleId, secret } = await w.pullRequestOpen();
  const article = (await w.api.get(`/articles/${articleId}`)).body.article;
  const path = article.path;
  const head = headOf(article.branch);
  w.github.reportCheckRun('acme', 'site', {
    sha: head,
    name: 'build',
    status: 'in_progress',
    workflow: 'Site',
  });
  w.github.reportStatus('acme', 'site', {
    sha: head,
    context: 'Vercel',
    state: 'pending',
    targetUrl: 'https://vercel.com/acme/site/abc',
  });

  clock.advance(BUILD_PASS_MS);
  const pending = await buildOf(articleId, (b) => b?.state === 'pending', 'the pending build');
  expect(pending.headSha).toBe(head);
  expect(pending.checks.map((c: any) => [c.name, c.state])).toEqual([
    ['build', 'pending'],
    ['Vercel', 'pending'],
  ]);
  // Inkstream's own quality status is on the commit, never in the build.
  expect(w.github.statusesOf('acme', 'site', head).map((s) => s.context)).toContain(
    'inkstream/quality',
  );

  // Read again with nothing changed: no event.
  const reads = w.github.calls('checks/list-for-ref').length;
  clock.advance(BUILD_BACKOFF_MS[0]);
  await eventually(
    async () => w.github.calls('checks/list-for-ref').length,
    (n) => n > reads,
    { what: 'a second read of the pending build' },
  );
  expect(await observed(articleId)).toHaveLength(1);

  w.github.reportCheckRun('acme', 'site', {
    sha: head,
    name: 'build',
    status: 'completed',
    conclusion: 'failure',
    summary: 'astro build failed',
    annotations: [
      { path, startLine: 3, title: 'InvalidContentEntryDataError', message: 'pubDate: Required' },
    ],
  });
  w.github.reportStatus('acme', 'site', {
    sha: head,
    context: 'Vercel',
    state: 'failure',
    description: 'Deployment has failed',
    targetUrl: 'https://vercel.com/acme/site/abc',
  });
  clock.advance(BUILD_BACKOFF_MS[1]);
  const failed = await buildOf(articleId, (b) => b?.state === 'failure', 'the failed build');
  expect(failed.checks[0]).toMatchObject({
    name: 'build',
    state: 'failure',
    detail: `${path} line 3: InvalidContentEntryDataError: pubDate: Required`,
  });
  expect(failed.checks[1]).toMatchObject({
    name: 'Vercel',
    state: 'failure',
    detail: 'Deployment has failed',
  });
  expect(failed.reason).toBe(
    `The site's build rejects Inkstream's file: build: ${path} line 3: InvalidContentEntryDataError: pubDate: Required`,
  );
  const described = await eventually(
    async () => w.github.pullRequestJson('acme', 'site', article.prNumber).body as string,
    (body) => body.includes('**failed**'),
    { what: 'the PR description showing the failed build' },
  );
  expect(described).toContain('### Site build');
  expect(described).toContain('pubDate: Required');
  await expect
    .poll(
      () =>
        stream
          .changes()
          .filter((c) => c.articleId === articleId && c.event === 'ArticleBuildObserved').length,
    )
    .toBe(2);

  // The fix: a revision committed to the branch moves the head; its build is followed afresh.
  expect(
    (
      await w.api.post(`/articles/${articleId}/revise`, {
        instruction: 'Make the introduction shorter.',
      })
    ).status,
  ).toBe(202);
  const fixed = await eventually(
    async () => headOf(article.branch),
    (sha) => sha !== head,
    { what: 'the revision commit', timeoutMs: 30_000 },
  ).catch(async (error) => {
    console.log(JSON.stringify((await history(articleId)).map((e) => e.type)));
    throw error;
  });
  await buildOf(articleId, (b) => b === null, 'the old build cleared');
  w.github.reportCheckRun('acme', 'site', {
    sha: fixed,
    name: 'build',
    status: 'completed',
    conclusion: 'success',
    workflow: 'Site',
  });
  w.github.reportStatus('acme', 'site', {
    sha: fixed,
    context: 'Vercel',
    state: 'success',
    targetUrl: 'https://vercel.com/acme/site/def',
  });
  w.github.reportDeployment('acme', 'site', {
    sha: fixed,
    environment: 'Preview',
    state: 'in_progress',
  });
  w.github.reportDeployment('acme', 'site', {
    sha: fixed,
    environment: 'Preview',
    state: 'success',
    environmentUrl: 'https://site-git-inkstream-acme.vercel.app',
  });
  clock.advance(BUILD_PASS_MS);
  const passed = await buildOf(articleId, (b) => b?.state === 'success', 'the fixed build');
  expect(passed).toMatchObject({
    headSha: fixed,
    previewUrl: 'https://site-git-inkstream-acme.vercel.app/',
    reason: null,
  });
  expect((await articleIn(w.api, articleId, ['pr_open'])).build.state).toBe('success');
  const list = (await w.api.get(`/projects/${article.projectId}/articles`)).body.articles;
  expect(list.find((a: any) => a.id === articleId).build.state).toBe('success');
  const final = await eventually(
    async () => w.github.pullRequestJson('acme', 'site', article.prNumber).body as string,
    (body) => body.includes('**passed**'),
    { what: 'the PR description showing the passing build' },
  );
  expect(final).toContain('[preview](https://site-git-inkstream-acme.vercel.app/)');

  expect(await observed(articleId)).toHaveLength(3);

  // Merged: the public payload carries the build, and the build added no public event type.
  w.github.mergePullRequest('acme', 'site', article.prNumber, 'octo');
  const closed = pullRequestClosed(w.github, {
    owner: 'acme',
    repo: 'site',
    number: article.prNumber,
  });
  expect((await w.deliver(await w.sign('pull_request', closed, secret))).status).toBe(202);
  const published = await eventually(
    async () =>
      ((await w.api.get('/events?type=article.published&limit=200')).body.events as any[]).find(
        (event) => event.data.id === articleId,
      ),
    (event) => event !== undefined,
    { what: 'article.published in the feed' },
  );
  expect(published.data.build).toMatchObject({ state: 'success', headSha: fixed });
  const types = ((await w.api.get('/events?limit=200')).body.events as any[])
    .filter((event) => event.data.id === articleId)
    .map((event) => event.type);
  expect(new Set(types)).toEqual(
    new Set(['article.status_changed', 'article.revised', 'article.published']),
  );
}, 90_000);

test('a fine-grained token (no Checks permission) reads the Actions jobs and statuses instead; with nothing readable the build is unknown, saying why', async () => {
  const projectId = await w.project();
  expect(
    (await w.connect(projectId, { credentials: { type: 'token', token: 'ghp_fine' } })).status,
  ).toBe(200);
  const articleId = await w.draft(projectId, 'Sourdough starters for busy bakers');
  await w.api.post(`/articles/${articleId}/approve`);
  const head = headOf((await articleIn(w.api, articleId, ['pr_open'])).branch);
  w.github.reportCheckRun('acme', 'site', {
    sha: head,
    name: 'build',
    status: 'completed',
    conclusion: 'failure',
    workflow: 'Deploy site',
  });
  clock.advance(BUILD_PASS_MS);
  const build = await buildOf(
    articleId,
    (b) => b?.state === 'failure',
    'the build from the Actions jobs',
  );
  expect(build.checks[0]).toMatchObject({ name: 'Deploy site / build', state: 'failure' });
  expect(w.github.calls('checks/list-for-ref').at(-1)?.status).toBe(403);

  const blind = await w.project();
  expect(
    (await w.connect(blind, { credentials: { type: 'token', token: 'ghp_blind' } })).status,
  ).toBe(200);
  const unseen = await w.draft(blind, 'Rye bread without tears');
  await w.api.post(`/articles/${unseen}/approve`);
  await articleIn(w.api, unseen, ['pr_open']);
  clock.advance(BUILD_PASS_MS);
  const unknown = await buildOf(unseen, (b) => b?.state === 'unknown', 'the unknown build');
  expect(unknown.reason).toContain('Checks: read');
  expect(unknown.reason).toContain('Commit statuses: read');
}, 60_000);
