import { afterAll, beforeAll, expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { reply, startFakeOpenAi, type FakeOpenAi } from '../../support/fakeOpenAi.ts';
import { issueCommentCreated } from '../../support/githubWebhooks.ts';
import { kindOf, modelAnswers } from '../../support/modelAnswers.ts';
import { startWorld, type World } from './world.ts';

/** A model that answers every revision with a fragment of the article (modelAnswers' 42 words for a 102-word draft). */
let fake: FakeOpenAi;
let w: World;
beforeAll(async () => {
  fake = await startFakeOpenAi({
    respond: (request) => reply.object(modelAnswers()[kindOf(request)] ?? {}),
  });
  w = await startWorld({ env: fake.env });
}, 60_000);
afterAll(async () => {
  await w?.close();
  await fake?.close();
});

test('a PR comment whose revision would lose most of the article is answered on the PR with the reason, and nothing is committed', async () => {
  const { articleId, secret } = await w.pullRequestOpen();
  const before = (await w.api.get(`/articles/${articleId}`)).body.article;
  const commits = w.github.branchHistory('acme', 'site', before.branch).length;
  const comment = issueCommentCreated(w.github, {
    owner: 'acme',
    repo: 'site',
    number: before.prNumber,
    body: 'Make the opening warmer.',
    author: 'octo',
    commentId: 9_001,
  });
  expect((await w.deliver(await w.sign('issue_comment', comment, secret))).body.status).toBe(
    'accepted',
  );

  const bot = () =>
    w.github
      .repository('acme', 'site')
      .comments.filter((c) => c.issueNumber === before.prNumber && c.author === 'inkbot');
  const [answer] = await eventually(
    async () => bot(),
    (found) => found.length === 1,
    { what: 'the answer on the pull request' },
  );
  expect(answer.body).toContain('@octo asked:');
  expect(answer.body).toMatch(
    /\*\*Not applied\*\*, nothing was committed: The revision was not applied: it would have cut the article from \d+ to \d+ words/,
  );
  const after = (await w.api.get(`/articles/${articleId}`)).body.article;
  expect(after).toMatchObject({
    version: before.version,
    content: before.content,
    pendingRevisions: 0,
  });
  expect(after.revisionFailure.reason).toMatch(/did not ask for a shorter article/);
  expect(w.github.branchHistory('acme', 'site', before.branch)).toHaveLength(commits);
});
