import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createOctokitGitHub } from '../../../src/integrations/github/octokit.ts';
import { startHarness, type Harness } from './harness.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.github.close();
});

async function openBranch() {
  const main = (await h.site.getBranchHead('main'))!;
  await h.site.createBranch('inkstream/art_1', main);
  await h.site.commitFiles({
    branch: 'inkstream/art_1',
    message: 'm',
    files: [{ path: 'a.mdx', content: 'a' }],
  });
}

test('a secondary rate limit waits as long as retry-after says, then succeeds', async () => {
  await openBranch();
  h.github.rateLimitNext('pulls/create', { kind: 'secondary', retryAfterSeconds: 30 });
  const pull = await h.site.createPullRequest({
    head: 'inkstream/art_1',
    base: 'main',
    title: 't',
    body: 'b',
  });
  expect(pull.created).toBe(true);
  expect(h.sleeps).toEqual([30_000]);
  expect(h.github.calls('pulls/create').map((c) => c.status)).toEqual([403, 201]);
});

test('an exhausted primary rate limit waits until x-ratelimit-reset', async () => {
  h.github.rateLimitNext('git/get-ref', { kind: 'primary', resetInSeconds: 20 });
  await expect(h.site.getBranchHead('main')).resolves.toMatch(/^[0-9a-f]{40}$/);
  expect(h.sleeps).toEqual([20_000]);
});

test('a rate limit resetting far ahead is not slept through: it is thrown, retryable, with the wait', async () => {
  h.github.rateLimitNext('git/get-ref', { kind: 'primary', resetInSeconds: 3600 });
  const error = await h.site.getBranchHead('main').catch((e) => e);
  expect(error).toMatchObject({
    code: 'rate_limited',
    status: 403,
    retryable: true,
    retryAfterMs: 3_600_000,
  });
  expect(h.sleeps).toEqual([]);
});

test('server errors are retried with backoff, then fail with a clear reason', async () => {
  h.github.failNext('pulls/get', { status: 502, times: 10 });
  const error = await h.site.getPullRequest(1).catch((e) => e);
  expect(error).toMatchObject({
    name: 'GitHubError',
    code: 'unavailable',
    status: 502,
    retryable: true,
  });
  expect(error.message).toBe(
    'GitHub could not read pull request #1 in acme/site: GitHub answered 502 (Server Error). Nothing to fix on this side unless it persists; see https://www.githubstatus.com. (gave up after 4 attempts)',
  );
  expect(h.sleeps).toEqual([1000, 2000, 4000]);
  expect(h.github.calls('pulls/get')).toHaveLength(4);
});

test('a server error that clears up is invisible to the caller', async () => {
  h.github.failNext('git/get-ref', { status: 503, times: 2 });
  await expect(h.site.getBranchHead('main')).resolves.toMatch(/^[0-9a-f]{40}$/);
  expect(h.sleeps).toEqual([1000, 2000]);
});

test('a missing permission names what GitHub expects, and is not retried', async () => {
  h.github.addToken('ghp_no_prs', {
    login: 'inkbot',
    repositories: { 'acme/site': { contents: 'write', pull_requests: 'read' } },
  });
  const site = h
    .connect({ type: 'token', token: 'ghp_no_prs' })
    .repository({ owner: 'acme', repo: 'site' });
  await openBranch();
  const error = await site
    .createPullRequest({ head: 'inkstream/art_1', base: 'main', title: 't', body: 'b' })
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'missing_permission', status: 403, retryable: false });
  expect(error.reason).toMatch(/Grant it pull_requests:write on acme\/site/);
  expect(h.github.calls('pulls/create')).toHaveLength(1);
});

test('a refused request explains what GitHub said', async () => {
  const error = await h.site
    .createPullRequest({ head: 'no-such-branch', base: 'main', title: 't', body: 'b' })
    .catch((e) => e);
  expect(error).toMatchObject({ code: 'validation_failed', status: 422, retryable: false });
  expect(error.reason).toBe('GitHub refused the request (422: Validation Failed: head invalid).');
});

test('no answer at all is retryable and points at the base URL', async () => {
  await h.github.close();
  const error = await h.site.getBranchHead('main').catch((e) => e);
  expect(error).toMatchObject({ code: 'unavailable', status: 0, retryable: true });
  expect(error.reason).toMatch(/Check the GitHub API base URL/);
  h = await startHarness(); // afterEach closes a live one
});

test('a request GitHub never answers times out as no answer, retryable', async () => {
  const silent = createServer(() => {
    /* never answers */
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  try {
    const port = createOctokitGitHub({
      credentials: { type: 'token', token: 't' },
      baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
      requestTimeoutMs: 50,
      retry: { maxAttempts: 1 },
    });
    const error = await port
      .repository({ owner: 'acme', repo: 'site' })
      .getBranchHead('main')
      .catch((e) => e);
    expect(error).toMatchObject({ code: 'unavailable', status: 0, retryable: true });
  } finally {
    silent.closeAllConnections();
    silent.close();
  }
});
