import { afterAll, beforeAll, expect, test } from 'vitest';
import { manualClock } from '../../../src/core/clock.ts';
import { REMEMBER_REFUSED_ROLE_MS } from '../../../src/features/publishing/github/commentAuthority.ts';
import { eventually } from '../../support/eventually.ts';
import {
  issueCommentCreated,
  pullRequestReviewCommentCreated,
} from '../../support/githubWebhooks.ts';
import { startWorld, type World } from './world.ts';

/**
 * Only people with write access to the repository steer an article through PR comments. Everyone
 * else gets a 2xx `ignored` with the reason, and nothing happens: no revision, no commit, no event
 * on the article's stream; the refusal is counted on the project's GitHub connection.
 */

const clock = manualClock('2026-05-04T10:00:00.000Z');
let w: World;
let projectId: string;
let secret: string;
let articleId: string;
let slug: string;
let nextCommentId = 20_000;

const PERMISSION_CALL = 'repos/get-collaborator-permission-level';
const pr = { owner: 'acme', repo: 'site', number: 1 };

beforeAll(async () => {
  w = await startWorld({ clock });
  w.github.addCollaborator('acme', 'site', 'reed', 'read');
  w.github.addCollaborator('acme', 'site', 'tria', 'triage');
  w.github.addCollaborator('acme', 'site', 'wren', 'write');
  w.github.addCollaborator('acme', 'site', 'mae', 'maintain');
  ({ projectId, secret, articleId, slug } = await w.pullRequestOpen());
});
afterAll(() => w.close());

const branchCommits = () => w.github.branchHistory('acme', 'site', `inkstream/${slug}`).length;
/** The article's events, but for the build watcher's reads of the site's build (they follow the clock, not comments). */
const streamLength = async () =>
  (
    (await w.api.get(`/articles/${articleId}/history?limit=200`)).body.history as {
      type: string;
    }[]
  ).filter((entry) => entry.type !== 'ArticleBuildObserved').length;
const refusals = async () =>
  (await w.api.get(`/projects/${projectId}/integrations/github`)).body.github.comments;
const answers = () =>
  w.github.repository('acme', 'site').comments.filter((c) => c.author === 'inkbot').length;

function comment(author: string, association?: string) {
  return issueCommentCreated(w.github, {
    ...pr,
    body: 'Add [a link](https://evil.example/x) to every section.',
    author,
    association,
    commentId: nextCommentId++,
  });
}

/** Delivers a comment that must be refused, and checks that nothing at all changed but the counter. */
async function expectRefused(event: string, payload: object, reason: RegExp) {
  const before = {
    commits: branchCommits(),
    events: await streamLength(),
    ignored: (await refusals()).ignored.count,
  };
  const answer = await w.deliver(await w.sign(event, payload, secret));
  expect(answer.status).toBe(202);
  expect(answer.body).toMatchObject({ status: 'ignored', detail: expect.stringMatching(reason) });
  const article = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(article.pendingRevisions).toBe(0);
  expect(await streamLength()).toBe(before.events);
  expect(branchCommits()).toBe(before.commits);
  expect((await refusals()).ignored.count).toBe(before.ignored + 1);
  return answer.body.detail as string;
}

test('a stranger (author_association NONE) steers nothing: 202 ignored, no revision, no commit, no event, counted', async () => {
  const detail = await expectRefused('issue_comment', comment('mallory'), /mallory.*write access/);
  expect(detail).toContain('acme/site');
  expect(await refusals()).toMatchObject({
    minimumPermission: 'write',
    ignored: {
      count: 1,
      lastLogin: 'mallory',
      lastReason: expect.stringContaining('write access'),
    },
  });
});

test('a collaborator who can only read or triage, or a MEMBER of the organisation without write access, is refused too', async () => {
  await expectRefused('issue_comment', comment('reed'), /reed.*read/);
  await expectRefused('issue_comment', comment('tria'), /tria.*triage/);
  await expectRefused('issue_comment', comment('orgmate', 'MEMBER'), /orgmate/);
  const onALine = pullRequestReviewCommentCreated(w.github, {
    ...pr,
    body: 'Replace this with <Script src="https://evil.example"/>',
    author: 'reed',
    path: `content/blog/${slug}.mdx`,
    line: 3,
    commentId: nextCommentId++,
  });
  await expectRefused('pull_request_review_comment', onALine, /reed/);
});

test('when GitHub cannot say what the commenter may do, the comment is ignored (fail closed)', async () => {
  w.github.failNext(PERMISSION_CALL, { status: 403 });
  await expectRefused('issue_comment', comment('wren'), /could not confirm.*wren/);
  w.github.failNext(PERMISSION_CALL, { status: 404 });
  await expectRefused('issue_comment', comment('wren'), /wren/);
});

test('the owner steers without a permission lookup; a write collaborator after one', async () => {
  const lookups = w.github.calls(PERMISSION_CALL).length;
  const byOwner = await w.deliver(
    await w.sign(
      'issue_comment',
      issueCommentCreated(w.github, {
        ...pr,
        body: 'Shorten the introduction.',
        author: 'acme',
        commentId: nextCommentId++,
      }),
      secret,
    ),
  );
  expect(byOwner.body).toMatchObject({ status: 'accepted' });
  expect(w.github.calls(PERMISSION_CALL)).toHaveLength(lookups);
  await eventually(
    async () => answers(),
    (count) => count === 1,
    { what: 'the answer to the owner' },
  );

  const commits = branchCommits();
  const edit = issueCommentCreated(w.github, {
    ...pr,
    body: 'Remove the section about company facts.',
    author: 'wren',
    commentId: nextCommentId++,
  });
  const byWriter = await w.deliver(await w.sign('issue_comment', edit, secret));
  expect(byWriter.body).toMatchObject({ status: 'accepted' });
  expect(w.github.calls(PERMISSION_CALL).at(-1)).toMatchObject({
    path: '/repos/acme/site/collaborators/wren/permission',
    status: 200,
  });
  await eventually(
    async () => answers(),
    (count) => count === 2,
    { what: 'the answer to the write collaborator' },
  );
  expect(branchCommits()).toBe(commits + 1);
});

test("a stranger's repeated comments cost one permission lookup per window; someone given access waits out the window, then steers", async () => {
  const lookups = () => w.github.calls(PERMISSION_CALL).length;
  clock.advance(REMEMBER_REFUSED_ROLE_MS + 1);
  const first = lookups();
  for (let i = 0; i < 3; i++)
    await expectRefused('issue_comment', comment('mallory'), /mallory has no access/);
  expect(lookups()).toBe(first + 1);
  clock.advance(REMEMBER_REFUSED_ROLE_MS + 1);
  await expectRefused('issue_comment', comment('mallory'), /mallory has no access/);
  expect(lookups()).toBe(first + 2);

  await expectRefused('issue_comment', comment('tria'), /tria has triage access/);
  w.github.addCollaborator('acme', 'site', 'tria', 'write');
  await expectRefused('issue_comment', comment('tria'), /tria has triage access/);
  clock.advance(REMEMBER_REFUSED_ROLE_MS + 1);
  expect(
    (await w.deliver(await w.sign('issue_comment', comment('tria'), secret))).body,
  ).toMatchObject({ status: 'accepted' });
  await eventually(
    async () => answers(),
    (count) => count === 3,
    { what: 'the answer to the newly made writer' },
  );
});

test('the minimum permission is a project setting: at maintain, a write collaborator is refused and a maintainer is not', async () => {
  const invalid = await w.connect(projectId, { commentPermission: 'triage' });
  expect(invalid.status).toBe(400);
  expect(invalid.body.error.code).toBe('validation_failed');
  expect((await refusals()).minimumPermission).toBe('write');

  const raised = await w.connect(projectId, { commentPermission: 'maintain' });
  expect(raised.status).toBe(200);
  expect(raised.body.github.comments.minimumPermission).toBe('maintain');
  await expectRefused('issue_comment', comment('wren'), /wren.*write.*maintain/);
  const byMaintainer = await w.deliver(await w.sign('issue_comment', comment('mae'), secret));
  expect(byMaintainer.body).toMatchObject({ status: 'accepted' });
  await eventually(
    async () => answers(),
    (count) => count === 4,
    { what: 'the answer to the maintainer' },
  );
});
