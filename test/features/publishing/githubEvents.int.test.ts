import { sign } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import {
  issueCommentCreated,
  pullRequestClosed,
  pullRequestReviewCommentCreated,
} from '../../support/githubWebhooks.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;
let projectId: string;
let secret: string;
let articleId: string;
let slug: string;

beforeAll(async () => {
  w = await startWorld();
  ({ projectId, secret, articleId, slug } = await w.pullRequestOpen());
});
afterAll(() => w.close());

const target = { owner: 'acme', repo: 'site', number: 1 };

test('a delivery without a valid signature is refused with 401 and changes nothing', async () => {
  const payload = issueCommentCreated(w.github, {
    ...target,
    body: 'Rewrite everything.',
    author: 'mallory',
  });
  const forged = await w.sign('issue_comment', payload, 'not-the-secret');
  const refused = await w.deliver(forged);
  expect(refused.status).toBe(401);
  expect(refused.body.error.code).toBe('unauthorized');

  const unsigned = await w.sign('issue_comment', payload, secret);
  delete unsigned.headers['x-hub-signature-256'];
  expect((await w.deliver(unsigned)).status).toBe(401);

  // Signed over other bytes than those sent: the MAC covers the raw body.
  const tampered = await w.sign('issue_comment', payload, secret);
  tampered.body = tampered.body.replace('Rewrite everything.', 'Rewrite everything!');
  expect((await w.deliver(tampered)).status).toBe(401);

  const elsewhere = {
    ...payload,
    repository: { ...payload.repository, name: 'other', full_name: 'acme/other' },
  };
  const unknownRepo = await w.deliver(await w.sign('issue_comment', elsewhere, secret));
  expect(unknownRepo.status).toBe(401);
  expect(unknownRepo.body.error.message).toContain('acme/other');

  expect((await w.api.get(`/articles/${articleId}`)).body.article.pendingRevisions).toBe(0);
});

test('a ping is answered; events Inkstream does not act on are acknowledged and ignored', async () => {
  const repository = w.github.repositoryJson('acme', 'site');
  const ping = await w.deliver(
    await w.sign(
      'ping',
      { zen: 'Keep it logically awesome.', hook_id: 1, repository, sender: repository.owner },
      secret,
    ),
  );
  expect(ping).toMatchObject({ status: 202, body: { status: 'accepted' } });
  const push = await w.deliver(
    await w.sign('push', { ref: 'refs/heads/main', repository, sender: repository.owner }, secret),
  );
  expect(push).toMatchObject({ status: 202, body: { status: 'ignored' } });
});

test('a review comment on a line becomes a revision naming the line; the same delivery twice is one revision', async () => {
  const payload = pullRequestReviewCommentCreated(w.github, {
    ...target,
    body: 'Add a concrete number here.',
    author: 'octo',
    path: `content/blog/${slug}.mdx`,
    line: 12,
    commentId: 8801,
  });
  const delivery = await w.sign('pull_request_review_comment', payload, secret);
  expect((await w.deliver(delivery)).body.status).toBe('accepted');
  expect((await w.deliver(delivery)).body.status).toBe('duplicate');
  // GitHub could also send it again under a new delivery id: the comment id keeps it one revision.
  expect(
    (await w.deliver(await w.sign('pull_request_review_comment', payload, secret))).body.status,
  ).toBe('ignored');

  await eventually(
    async () => w.github.repository('acme', 'site').comments.filter((c) => c.author === 'inkbot'),
    (comments) => comments.length === 1,
  );
  const history = (await w.api.get(`/articles/${articleId}/history?limit=200`)).body.history as {
    type: string;
    data?: any;
  }[];
  const requests = history.filter((entry) => entry.type === 'ArticleRevisionRequested');
  expect(requests).toHaveLength(1);
  expect(JSON.stringify(requests[0])).toContain(
    `On content/blog/${slug}.mdx line 12: Add a concrete number here.`,
  );
});

test('comments by bots, on other pull requests, or on issues are ignored', async () => {
  const bot = issueCommentCreated(w.github, {
    ...target,
    body: 'Deployment ready.',
    author: 'vercel',
    commentId: 9001,
  });
  Object.assign(bot.comment.user, { login: 'vercel[bot]', type: 'Bot' }); // GitHub's shape for an App's comment
  expect((await w.deliver(await w.sign('issue_comment', bot, secret))).body).toMatchObject({
    status: 'ignored',
    detail: expect.stringContaining('bot'),
  });

  w.github.pushCommit('acme', 'site', 'feature/nav', {
    message: 'Nav',
    files: { 'nav.html': '<nav></nav>' },
  });
  const octokitToken = 'ghp_writer';
  const created = await fetch(`${w.github.baseUrl}/repos/acme/site/pulls`, {
    method: 'POST',
    headers: { authorization: `token ${octokitToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ head: 'feature/nav', base: 'main', title: 'Navigation' }),
  });
  const other = (await created.json()) as { number: number };
  const elsewhere = issueCommentCreated(w.github, {
    owner: 'acme',
    repo: 'site',
    number: other.number,
    body: 'Looks good',
    author: 'octo',
    commentId: 9002,
  });
  expect((await w.deliver(await w.sign('issue_comment', elsewhere, secret))).body.status).toBe(
    'ignored',
  );

  w.github.closePullRequest('acme', 'site', other.number);
  const closedOther = pullRequestClosed(w.github, {
    owner: 'acme',
    repo: 'site',
    number: other.number,
  });
  expect((await w.deliver(await w.sign('pull_request', closedOther, secret))).body).toMatchObject({
    status: 'ignored',
    detail: 'not an Inkstream pull request',
  });

  const onIssue = issueCommentCreated(w.github, {
    ...target,
    body: 'Hello',
    author: 'octo',
    commentId: 9003,
  });
  delete (onIssue.issue as Record<string, unknown>).pull_request;
  const body = JSON.stringify(onIssue);
  const headers = {
    'content-type': 'application/json',
    'x-github-event': 'issue_comment',
    'x-github-delivery': 'issue-1',
    'x-hub-signature-256': await sign(secret, body),
  };
  expect((await w.deliver({ body, headers, deliveryId: 'issue-1' })).body.status).toBe('ignored');
});

test('a pull request closed without merging closes the article; comments after that are ignored', async () => {
  w.github.closePullRequest('acme', 'site', 1);
  const closed = await w.deliver(
    await w.sign(
      'pull_request',
      pullRequestClosed(w.github, { ...target, sender: 'octo' }),
      secret,
    ),
  );
  expect(closed.body.status).toBe('accepted');
  const article = await articleIn(w.api, articleId, ['closed']);
  expect(article.publishedAt).toBeNull();
  const late = issueCommentCreated(w.github, {
    ...target,
    body: 'One more thing',
    author: 'octo',
    commentId: 9004,
  });
  expect((await w.deliver(await w.sign('issue_comment', late, secret))).body.status).toBe(
    'ignored',
  );
});
