import { expect, test } from 'vitest';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import type { ArticleStatus } from '../../../src/domain/articles/article.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { useAcmeProject } from '../../support/acmeProject.ts';

const acme = useAcmeProject({ pipeline: 'stopped' });

/** A new article of the test account, moved by the pipeline's own commands to `status`. */
async function articleIn(status: ArticleStatus, inProject = acme.projectId): Promise<string> {
  const {
    body: { topic },
  } = await acme.app
    .api()
    .post(`/projects/${inProject}/topics`, { title: `About ${status}`, keyword: status });
  const {
    body: { article },
  } = await acme.app.api().post(`/topics/${topic.id}/write`);
  await advanceArticle(acme.app.platform, accountIdForName('test'), article.id, status);
  return article.id;
}

test('a full read carries the MDX content, its frontmatter and body, sources and PR info', async () => {
  const id = await articleIn('pr_open');
  const read = await acme.app.api().get(`/articles/${id}`);
  expect(read.status).toBe(200);
  expect(read.body.article).toMatchObject({
    id,
    projectId: acme.projectId,
    status: 'pr_open',
    title: 'Hello',
    slug: 'hello',
    version: 1,
    content: expect.stringContaining('# Hello'),
    frontmatter: { title: 'Hello', tags: ['a'] },
    body: expect.stringContaining('Body text.'),
    sources: [{ url: 'https://example.com/a', title: 'A' }],
    prUrl: 'https://github.com/acme/site/pull/7',
    prNumber: 7,
    publishMode: 'pr',
    generation: { provider: 'offline' },
    failure: null,
  });
  expect(read.body.article).not.toHaveProperty('accountId');
});

test('lists carry status and PR info, filter by status and page with a cursor', async () => {
  const {
    body: { project },
  } = await acme.app.api().post('/projects', { name: 'List', websiteUrl: 'https://list.example' });
  const ids = [
    await articleIn('queued', project.id),
    await articleIn('pr_open', project.id),
    await articleIn('failed', project.id),
  ];
  const all = await acme.app.api().get(`/projects/${project.id}/articles`);
  expect(all.status).toBe(200);
  expect(all.body.articles.map((a: { id: string }) => a.id)).toEqual([...ids].reverse());
  expect(all.body.nextCursor).toBeNull();
  const open = await acme.app.api().get(`/projects/${project.id}/articles?status=pr_open`);
  expect(open.body.articles).toEqual([
    expect.objectContaining({
      id: ids[1],
      status: 'pr_open',
      prUrl: 'https://github.com/acme/site/pull/7',
      prNumber: 7,
    }),
  ]);
  const item = open.body.articles[0];
  expect(Object.keys(item).sort()).toEqual([
    'build',
    'createdAt',
    'failure',
    'id',
    'keyword',
    'prNumber',
    'prUrl',
    'projectId',
    'publishedAt',
    'slug',
    'status',
    'title',
    'topicId',
    'updatedAt',
    'usage',
    'version',
    'waitingFor',
  ]);
  const first = await acme.app.api().get(`/projects/${project.id}/articles?limit=2`);
  const rest = await acme.app
    .api()
    .get(`/projects/${project.id}/articles?limit=2&cursor=${first.body.nextCursor}`);
  expect([...first.body.articles, ...rest.body.articles].map((a: { id: string }) => a.id)).toEqual(
    [...ids].reverse(),
  );
  expect(rest.body.nextCursor).toBeNull();
  expect(
    (await acme.app.api().get(`/projects/${project.id}/articles?status=failed`)).body.articles[0]
      .failure,
  ).toEqual({ step: 'researching', reason: 'the site did not answer' });
});

test('revise queues a revision on a draft and on an open pull request, and refuses other states', async () => {
  for (const status of ['draft', 'pr_open'] as const) {
    const id = await articleIn(status);
    const revised = await acme.app
      .api()
      .post(`/articles/${id}/revise`, { instruction: 'Shorter intro, please.' });
    expect(revised.status).toBe(202);
    expect(revised.body.revision).toMatchObject({
      id: expect.stringMatching(/^rev_/),
      articleId: id,
      status: 'queued',
      instruction: 'Shorter intro, please.',
    });
    expect((await acme.app.api().get(`/articles/${id}`)).body.article.pendingRevisions).toBe(1);
  }
  const queued = await articleIn('queued');
  const refused = await acme.app.api().post(`/articles/${queued}/revise`, { instruction: 'x' });
  expect(refused.status).toBe(409);
  expect(refused.body.error).toEqual({
    code: 'invalid_state',
    message: expect.stringContaining('Cannot revise an article that is queued'),
    requestId: expect.any(String),
  });
});

test('revise needs an instruction of 1 to 4000 characters', async () => {
  const id = await articleIn('draft');
  for (const body of [
    {},
    { instruction: '' },
    { instruction: '   ' },
    { instruction: 'x'.repeat(4001) },
    { instruction: 3 },
  ]) {
    const response = await acme.app.api().post(`/articles/${id}/revise`, body);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0].path).toBe('body.instruction');
  }
  expect(
    (await acme.app.api().post(`/articles/${id}/revise`, { instruction: 'x'.repeat(4000) })).status,
  ).toBe(202);
});

test('approve explains how to connect GitHub when the project has no connection, and refuses non-drafts', async () => {
  const draft = await articleIn('draft');
  const approved = await acme.app.api().post(`/articles/${draft}/approve`);
  expect(approved.status).toBe(409);
  expect(approved.body.error.code).toBe('invalid_state');
  expect(approved.body.error.message).toContain(
    `PUT /api/v1/projects/${acme.projectId}/integrations/github`,
  );
  expect((await acme.app.api().get(`/articles/${draft}`)).body.article.status).toBe('draft');
  const queued = await articleIn('queued');
  const early = await acme.app.api().post(`/articles/${queued}/approve`);
  expect(early.status).toBe(409);
  expect(early.body.error.message).toContain('only a draft can be approved');
});

test('refresh re-opens a merged article and is refused unless merged', async () => {
  const merged = await articleIn('merged');
  const refreshed = await acme.app.api().post(`/articles/${merged}/refresh`);
  expect(refreshed.status).toBe(202);
  expect(refreshed.body.article).toMatchObject({ id: merged, status: 'researching' });
  expect((await acme.app.api().get(`/articles/${merged}`)).body.article.status).toBe('researching');
  const events = await acme.app.platform.eventStore.readStream(`article-${merged}`);
  expect(events.at(-1)!.type).toBe('ArticleRefreshRequested');
  for (const status of ['draft', 'pr_open', 'closed'] as const) {
    const refused = await acme.app.api().post(`/articles/${await articleIn(status)}/refresh`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toContain(
      'only a published (merged) article can be refreshed',
    );
  }
});

test('retry resumes a failed article at the step that failed and is refused otherwise', async () => {
  const failed = await articleIn('failed');
  const retried = await acme.app.api().post(`/articles/${failed}/retry`);
  expect(retried.status).toBe(202);
  expect(retried.body.article).toMatchObject({ status: 'researching', failure: null });
  const again = await acme.app.api().post(`/articles/${failed}/retry`);
  expect(again.status).toBe(409);
  expect(again.body.error.message).toContain('only a failed article can be retried');
});

test('unknown or malformed article ids are 404, for reads and for every operation', async () => {
  for (const id of ['art_00000000000000000000000000', 'nope', 'tpc_00000000000000000000000000']) {
    expect((await acme.app.api().get(`/articles/${id}`)).status).toBe(404);
    for (const operation of ['approve', 'refresh', 'retry'])
      expect((await acme.app.api().post(`/articles/${id}/${operation}`)).status).toBe(404);
    expect((await acme.app.api().post(`/articles/${id}/revise`, { instruction: 'x' })).status).toBe(
      404,
    );
  }
  expect(
    (await acme.app.api().get('/projects/prj_00000000000000000000000000/articles')).status,
  ).toBe(404);
  expect(
    (await acme.app.api().get(`/projects/${acme.projectId}/articles?status=published`)).status,
  ).toBe(400);
});

test('a full read served again is exact: a new event anywhere refreshes it, and another account still gets 404', async () => {
  const id = await articleIn('draft');
  const first = await acme.app.api().get(`/articles/${id}`);
  expect((await acme.app.api().get(`/articles/${id}`)).body).toEqual(first.body);
  // A revision recorded by the pipeline (no API request involved) must show in the next read.
  await acme.app.platform.commands.execute(
    articleStream,
    id,
    {
      type: 'RequestRevision',
      revisionId: acme.app.platform.ids.next('rev'),
      instruction: 'from a PR comment',
      source: { kind: 'github', login: 'octo', commentId: 1, prNumber: 7 },
      at: acme.app.platform.clock.now(),
    },
    {
      accountId: accountIdForName('test'),
      actor: { kind: 'github', login: 'octo' },
      correlationId: 'c',
      requestId: 'r',
      commandId: `comment:${id}`,
    },
  );
  expect((await acme.app.api().get(`/articles/${id}`)).body.article.pendingRevisions).toBe(1);
  const other = acme.app.api(await acme.app.newKey('cache-outsider'));
  expect((await other.get(`/articles/${id}`)).status).toBe(404);
});
