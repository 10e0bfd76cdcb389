import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { issueCommentCreated, pullRequestClosed } from '../../support/githubWebhooks.ts';
import {
  createTestCa,
  startReceiver,
  trustInThisProcess,
  type Receiver,
} from '../../support/webhookReceiver.ts';
import { articleIn, startWorld, type World } from './world.ts';

let w: World;
let hook: Receiver;
let projectId: string;
let secret: string;

beforeAll(async () => {
  w = await startWorld();
  const ca = await createTestCa();
  trustInThisProcess(ca.caCert);
  hook = await startReceiver(ca, '/rebuild');
  projectId = await w.project();
  const connected = await w.connect(projectId);
  expect(connected.status).toBe(200);
  secret = connected.body.github.webhook.secret;
  const set = await w.api.put(`/projects/${projectId}/integrations/post-publish-hook`, {
    url: hook.url,
  });
  expect(set.status).toBe(200);
  hook.secret = set.body.postPublishHook.secret;
});
afterAll(async () => {
  await w.close();
  await hook.close();
});

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const botComments = (number: number) =>
  w.github
    .repository('acme', 'site')
    .comments.filter((c) => c.issueNumber === number && c.author === 'inkbot');

test('approve → pull request with the MDX and cover → PR comment revises it → merged, hook called → refresh opens a second PR', async () => {
  const articleId = await w.draft(projectId);
  const draft = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(draft.cover).not.toBeNull();

  // Approve: one branch, one commit with the MDX file and the cover, one pull request.
  const approved = await w.api.post(`/articles/${articleId}/approve`);
  expect(approved.status).toBe(202);
  expect(approved.body.article).toMatchObject({ status: 'publishing', publishMode: 'pr' });
  const open = await articleIn(w.api, articleId, ['pr_open']);
  const slug = draft.slug as string;
  expect(open).toMatchObject({
    prNumber: 1,
    prUrl: 'https://github.com/acme/site/pull/1',
    branch: `inkstream/${slug}`,
    path: `content/blog/${slug}.mdx`,
  });
  const main = w.github.branchHistory('acme', 'site', 'main');
  const branch = w.github.branchHistory('acme', 'site', `inkstream/${slug}`);
  expect(branch).toHaveLength(main.length + 1);
  expect(branch[1].sha).toBe(main[0].sha);
  expect(
    w.github
      .fileAt('acme', 'site', `inkstream/${slug}`, `content/blog/${slug}.mdx`)
      ?.toString('utf8'),
  ).toBe(draft.content);
  expect(
    w.github
      .fileAt('acme', 'site', `inkstream/${slug}`, `public/images/covers/${slug}.png`)
      ?.subarray(0, 4),
  ).toEqual(PNG);
  const pull = w.github.pullRequestJson('acme', 'site', 1);
  expect(pull.title).toBe(`New article brief: ${draft.title}`);
  expect(pull.body).toContain('`bakery food waste`');
  expect(pull.body).toContain(draft.sources[0].url);
  expect(pull.body).toContain('becomes a revision');

  // A comment on the PR becomes a revision, committed to the branch and answered.
  const comment = issueCommentCreated(w.github, {
    owner: 'acme',
    repo: 'site',
    number: 1,
    body: 'Make the introduction shorter.',
    author: 'octo',
    commentId: 501,
  });
  const accepted = await w.deliver(await w.sign('issue_comment', comment, secret));
  expect(accepted).toMatchObject({ status: 202, body: { status: 'accepted' } });
  await eventually(
    async () => botComments(1),
    (comments) => comments.length === 1,
    { what: 'the answer to the comment' },
  );
  const revised = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(revised.version).toBe(draft.version + 1);
  expect(w.github.branchHistory('acme', 'site', `inkstream/${slug}`)).toHaveLength(main.length + 2);
  expect(
    w.github
      .fileAt('acme', 'site', `inkstream/${slug}`, `content/blog/${slug}.mdx`)
      ?.toString('utf8'),
  ).toBe(revised.content);
  const answer = botComments(1)[0].body;
  expect(answer).toContain('@octo asked');
  expect(answer).toContain('> Make the introduction shorter.');
  expect(answer).toContain(revised.lastRevisionSummary);
  // The description is rewritten for the revised file: it no longer describes the first draft.
  const described = w.github.pullRequestJson('acme', 'site', 1).body;
  expect(revised.wordCount).not.toBe(draft.wordCount);
  expect(pull.body).toContain(`| Length | ${draft.wordCount} words |`);
  expect(described).toContain(`| Length | ${revised.wordCount} words |`);
  expect(described).toContain('becomes a revision');
  const history = (await w.api.get(`/articles/${articleId}/history`)).body;
  const committed = JSON.stringify(history);
  expect(committed).toContain('ArticleRevisionCommitted');

  // Inkstream's own answer, sent back by GitHub, is not taken for a revision.
  const own = issueCommentCreated(w.github, {
    owner: 'acme',
    repo: 'site',
    number: 1,
    body: answer,
    author: 'inkbot',
    commentId: botComments(1)[0].id,
  });
  expect((await w.deliver(await w.sign('issue_comment', own, secret))).body.status).toBe('ignored');

  // Merged on GitHub: merged here, article.published, the post-publish hook called once, signed.
  w.github.mergePullRequest('acme', 'site', 1, 'octo');
  const merge = await w.sign(
    'pull_request',
    pullRequestClosed(w.github, { owner: 'acme', repo: 'site', number: 1 }),
    secret,
  );
  expect((await w.deliver(merge)).body).toMatchObject({ status: 'accepted' });
  const merged = await articleIn(w.api, articleId, ['merged']);
  expect(merged.publishedAt).not.toBeNull();
  expect((await w.deliver(merge)).body.status).toBe('duplicate');
  await eventually(
    async () => hook.received.length,
    (count) => count === 1,
    { what: 'the post-publish hook call' },
  );
  const call = hook.received[0];
  expect(call.verified).toBe(true);
  const envelope = JSON.parse(call.body.toString('utf8'));
  expect(envelope).toMatchObject({
    type: 'article.published',
    data: { id: articleId, status: 'merged', prUrl: open.prUrl },
  });
  const hookStatus = (await w.api.get(`/projects/${projectId}/integrations/post-publish-hook`)).body
    .postPublishHook.lastDelivery;
  expect(hookStatus).toMatchObject({ ok: true, statusCode: 204, articleId });

  // Refresh: a new branch and a second pull request updating the same file.
  expect((await w.api.post(`/articles/${articleId}/refresh`)).status).toBe(202);
  const refreshed = await articleIn(w.api, articleId, ['pr_open'], 20_000);
  expect(refreshed).toMatchObject({
    prNumber: 2,
    branch: `inkstream/${slug}-refresh-1`,
    path: `content/blog/${slug}.mdx`,
  });
  expect(w.github.pullRequestJson('acme', 'site', 2).title).toBe(
    `Refresh article brief: ${refreshed.title}`,
  );
  expect(
    w.github
      .fileAt('acme', 'site', `inkstream/${slug}-refresh-1`, `content/blog/${slug}.mdx`)
      ?.toString('utf8'),
  ).toBe(refreshed.content);
  expect(refreshed.content).toMatch(/\nupdated: /);

  w.github.mergePullRequest('acme', 'site', 2, 'octo');
  expect(
    (
      await w.deliver(
        await w.sign(
          'pull_request',
          pullRequestClosed(w.github, { owner: 'acme', repo: 'site', number: 2 }),
          secret,
        ),
      )
    ).body.status,
  ).toBe('accepted');
  await articleIn(w.api, articleId, ['merged']);
  await eventually(
    async () => hook.received.length,
    (count) => count === 2,
    { what: 'the second post-publish hook call' },
  );
  expect(w.github.calls('pulls/create').filter((c) => c.status === 201)).toHaveLength(2);
}, 60_000);
