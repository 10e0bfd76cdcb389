import { verify } from '@octokit/webhooks-methods';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { FakeGitHub } from './fakeGitHub.ts';
import {
  issueCommentCreated,
  pullRequestClosed,
  pullRequestReviewCommentCreated,
  signWebhook,
} from './githubWebhooks.ts';

let github: FakeGitHub;
beforeEach(async () => {
  github = await FakeGitHub.start({ nowMs: () => Date.parse('2026-03-01T09:00:00Z') });
  github.addRepository({ owner: 'acme', name: 'site' });
  for (const branch of ['inkstream/art_1', 'inkstream/art_2']) {
    github.pushCommit('acme', 'site', branch, {
      message: branch,
      files: { [`${branch}.mdx`]: branch },
    });
  }
  github.addToken('t', { login: 'inkbot', repositories: { 'acme/site': 'write' } });
  for (const head of ['inkstream/art_1', 'inkstream/art_2']) {
    const response = await fetch(`${github.baseUrl}/repos/acme/site/pulls`, {
      method: 'POST',
      headers: { authorization: 'token t' },
      body: JSON.stringify({ head, base: 'main', title: head }),
    });
    expect(response.status).toBe(201);
  }
});
afterEach(async () => {
  await github.close();
});

const pr = (number: number) => ({ owner: 'acme', repo: 'site', number });

test('a merged and a closed pull request give pull_request closed payloads that say which', () => {
  github.mergePullRequest('acme', 'site', 1, 'alice');
  github.closePullRequest('acme', 'site', 2);
  const merged = pullRequestClosed(github, { ...pr(1), installationId: 42 });
  const closed = pullRequestClosed(github, pr(2));
  expect(merged).toMatchObject({
    action: 'closed',
    number: 1,
    installation: { id: 42 },
    sender: { login: 'alice' },
  });
  expect(merged.pull_request).toMatchObject({
    merged: true,
    merged_at: '2026-03-01T09:00:00Z',
    head: { ref: 'inkstream/art_1' },
  });
  expect(closed.pull_request).toMatchObject({ merged: false, merged_at: null, state: 'closed' });
  expect(() => pullRequestClosed(github, pr(3))).toThrow(/no pull request #3/);
});

test('comments on the conversation and on a line carry the pull request they belong to', () => {
  const comment = issueCommentCreated(github, {
    ...pr(1),
    body: 'Make the intro shorter',
    author: 'alice',
  });
  expect(comment).toMatchObject({
    action: 'created',
    comment: { body: 'Make the intro shorter', user: { login: 'alice' } },
  });
  expect(comment.issue).toMatchObject({
    number: 1,
    pull_request: { html_url: 'https://github.com/acme/site/pull/1' },
  });

  const review = pullRequestReviewCommentCreated(github, {
    ...pr(2),
    body: 'Typo here',
    author: 'bob',
    path: 'inkstream/art_2.mdx',
    line: 3,
  });
  expect(review).toMatchObject({
    comment: { path: 'inkstream/art_2.mdx', line: 3, body: 'Typo here' },
    pull_request: { number: 2 },
  });
});

test('deliveries are signed over the exact body, like GitHub does', async () => {
  const payload = issueCommentCreated(github, { ...pr(1), body: 'hi', author: 'alice' });
  const delivery = await signWebhook('issue_comment', payload, 'whsec', 'd-1');
  expect(delivery.headers).toMatchObject({
    'x-github-event': 'issue_comment',
    'x-github-delivery': 'd-1',
  });
  expect(delivery.headers['x-hub-signature-256']).toMatch(/^sha256=[0-9a-f]{64}$/);
  expect(await verify('whsec', delivery.body, delivery.headers['x-hub-signature-256'])).toBe(true);
  expect(await verify('other', delivery.body, delivery.headers['x-hub-signature-256'])).toBe(false);
});
