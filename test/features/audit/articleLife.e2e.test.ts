import { afterAll, beforeAll, expect, test } from 'vitest';
import { pullRequestClosed } from '../../support/githubWebhooks.ts';
import { eventually } from '../../support/eventually.ts';
import { articleIn, startWorld, type World } from '../publishing/world.ts';

let w: World;
let projectId: string;
let secret: string;
beforeAll(async () => {
  w = await startWorld();
  projectId = await w.project();
  const connected = await w.connect(projectId);
  expect(connected.status).toBe(200);
  secret = connected.body.github.webhook.secret;
});
afterAll(async () => {
  await w?.close();
});

type Entry = {
  revision: number;
  type: string;
  actor: { kind: string; keyName?: string; login?: string; worker?: string };
};

test('a scripted article life: its history lists every step with the right actor, and the article at each revision is what the API returned then', async () => {
  const seen = new Map<number, unknown>();
  const history = async (): Promise<Entry[]> =>
    (await w.api.get(`/articles/${articleId}/history?limit=1000`)).body.history;
  /** The article with the revision it reflects: read between two history reads that agree. */
  const snapshot = async () => {
    for (;;) {
      const before = (await history()).at(-1)!.revision;
      const article = (await w.api.get(`/articles/${articleId}`)).body.article;
      if ((await history()).at(-1)!.revision === before) return seen.set(before, article);
    }
  };

  const articleId = await w.draft(projectId, 'How bakeries plan a week of bread');
  await snapshot();
  for (const instruction of ['Make the introduction shorter.', 'Mention our Portland bakery.']) {
    const before = (await w.api.get(`/articles/${articleId}`)).body.article.version;
    expect((await w.api.post(`/articles/${articleId}/revise`, { instruction })).status).toBe(202);
    await eventually(
      async () => (await w.api.get(`/articles/${articleId}`)).body.article,
      (a) => a.version === before + 1,
      { what: instruction },
    );
    await snapshot();
  }
  expect((await w.api.post(`/articles/${articleId}/approve`)).status).toBe(202);
  await articleIn(w.api, articleId, ['pr_open']);
  await snapshot();
  w.github.mergePullRequest('acme', 'site', 1, 'octo');
  expect(
    (
      await w.deliver(
        await w.sign(
          'pull_request',
          pullRequestClosed(w.github, { owner: 'acme', repo: 'site', number: 1 }),
          secret,
        ),
      )
    ).status,
  ).toBe(202);
  await articleIn(w.api, articleId, ['merged']);
  await snapshot();
  expect((await w.api.post(`/articles/${articleId}/refresh`)).status).toBe(202);
  await articleIn(w.api, articleId, ['pr_open'], 20_000);
  await snapshot();

  const entries = await history();
  expect(entries.map((entry) => entry.revision)).toEqual(entries.map((_, index) => index));
  const byType = (type: string) => entries.filter((entry) => entry.type === type);
  // The steps, in the order they happened.
  const steps = entries
    .map((entry) => entry.type)
    .filter((type) =>
      [
        'ArticleQueued',
        'ArticleDrafted',
        'ArticleRevised',
        'ArticlePublishRequested',
        'ArticlePullRequestOpened',
        'ArticleMerged',
        'ArticleRefreshRequested',
      ].includes(type),
    );
  expect(steps).toEqual([
    'ArticleQueued',
    'ArticleDrafted',
    'ArticleRevised',
    'ArticleRevised',
    'ArticlePublishRequested',
    'ArticlePullRequestOpened',
    'ArticleMerged',
    'ArticleRefreshRequested',
    'ArticleDrafted',
    'ArticlePublishRequested',
    'ArticlePullRequestOpened',
  ]);
  // Who did each: the API key for what a user asked, the workers for what they did, GitHub for the merge.
  for (const type of ['ArticleQueued', 'ArticleRevisionRequested', 'ArticleRefreshRequested']) {
    for (const entry of byType(type))
      expect(entry.actor, type).toMatchObject({ kind: 'api_key', keyName: 'default' });
  }
  expect(byType('ArticlePublishRequested')[0].actor).toMatchObject({ kind: 'api_key' });
  for (const type of [
    'ArticleResearched',
    'ArticleDrafted',
    'ArticleRevised',
    'ArticlePullRequestOpened',
  ]) {
    for (const entry of byType(type)) expect(entry.actor.kind, type).toBe('system');
  }
  expect(byType('ArticleMerged')[0].actor).toMatchObject({ kind: 'github', login: 'octo' });

  // Replaying the stream to each revision gives back exactly what the API said at that moment.
  expect(seen.size).toBe(6);
  for (const [revision, then] of seen) {
    expect(
      (await w.api.get(`/articles/${articleId}?at=${revision}`)).body.article,
      `at revision ${revision}`,
    ).toEqual(then);
  }
}, 60_000);
