import { expect, test } from 'vitest';
import { eventually } from '../../support/eventually.ts';
import { useSiteAndInkstream } from '../../support/siteAndInkstream.ts';

const world = useSiteAndInkstream();

const article = (id: string) =>
  world.app
    .api()
    .get(`/articles/${id}`)
    .then((r) => r.body.article);

/** An article written by the real (offline) pipeline from a topic created over the API. */
async function writtenArticle(): Promise<{
  articleId: string;
  projectId: string;
  topicId: string;
}> {
  const project = (
    await world.app.api().post('/projects', { name: 'Audit', websiteUrl: world.site.origin })
  ).body.project;
  const topic = (
    await world.app.api().post(`/projects/${project.id}/topics`, {
      title: 'How we bake sourdough',
      keyword: 'sourdough',
    })
  ).body.topic;
  const written = (await world.app.api().post(`/topics/${topic.id}/write`)).body.article;
  const draft = await eventually(
    () => article(written.id),
    (a) => a.status === 'draft' || a.status === 'failed',
    { what: 'the draft' },
  );
  expect(draft.status).toBe('draft');
  return { articleId: written.id, projectId: project.id, topicId: topic.id };
}

test("an article's history lists every step in order with its actor and generation details", async () => {
  const { articleId } = await writtenArticle();
  expect(
    (
      await world.app
        .api()
        .post(`/articles/${articleId}/revise`, { instruction: 'make it shorter' })
    ).status,
  ).toBe(202);
  await eventually(
    () => article(articleId),
    (a) => a.version === 2,
    { what: 'the revision' },
  );

  const { body, status } = await world.app.api().get(`/articles/${articleId}/history`);
  expect(status).toBe(200);
  const types = body.history.map((entry: { type: string }) => entry.type);
  expect(types).toEqual([
    'ArticleQueued',
    'ArticleResearchStarted',
    'ArticleStepRecorded',
    'ArticleResearched',
    'ArticleStepRecorded',
    'ArticleDrafted',
    'ArticleRevisionRequested',
    'ArticleStepRecorded',
    'ArticleRevised',
  ]);
  expect(body.history.map((entry: { revision: number }) => entry.revision)).toEqual([
    0, 1, 2, 3, 4, 5, 6, 7, 8,
  ]);
  const [queued, , , researched, , drafted, requested, , revised] = body.history;
  expect(queued.actor).toMatchObject({ kind: 'api_key', keyName: 'default' });
  expect(researched.actor.kind).toBe('system');
  expect(researched.generation).toMatchObject({ provider: 'offline', usage: expect.any(Object) });
  expect(researched.sources.length).toBeGreaterThan(0);
  expect(researched.sources[0].url.startsWith(world.site.origin)).toBe(true);
  expect(drafted.generation.provider).toBe('offline');
  expect(requested).toMatchObject({
    actor: { kind: 'api_key' },
    data: { instruction: 'make it shorter' },
  });
  expect(revised.causationId).toBe(requested.eventId);
  expect(revised.correlationId).toBe(requested.correlationId);
  expect(body.nextCursor).toBeNull();
});

test('history pages continue from the cursor without gaps', async () => {
  const { articleId } = await writtenArticle();
  const first = await world.app.api().get(`/articles/${articleId}/history?limit=3`);
  expect(first.body.history).toHaveLength(3);
  const second = await world.app
    .api()
    .get(`/articles/${articleId}/history?limit=3&cursor=${first.body.nextCursor}`);
  expect(
    [...first.body.history, ...second.body.history].map(
      (entry: { revision: number }) => entry.revision,
    ),
  ).toEqual([0, 1, 2, 3, 4, 5]);
});

test('topic and project histories are served the same way', async () => {
  const { projectId, topicId } = await writtenArticle();
  const project = await world.app.api().get(`/projects/${projectId}/history`);
  expect(project.body.history.map((entry: { type: string }) => entry.type).slice(0, 3)).toEqual([
    'ProjectCreated',
    'BrandCrawlRequested',
    'BrandCrawled',
  ]);
  const topic = await world.app.api().get(`/topics/${topicId}/history`);
  expect(topic.body.history.map((entry: { type: string }) => entry.type)).toEqual([
    'TopicCreated',
    'TopicWritten',
  ]);
});

test('versions list each content version with a diff against the previous one', async () => {
  const { articleId } = await writtenArticle();
  expect(
    (
      await world.app
        .api()
        .post(`/articles/${articleId}/revise`, { instruction: 'add a section about pickup slots' })
    ).status,
  ).toBe(202);
  await eventually(
    () => article(articleId),
    (a) => a.version === 2,
    { what: 'the revision' },
  );
  const versions = (await world.app.api().get(`/articles/${articleId}/versions`)).body.versions;
  expect(versions.map((v: { version: number; kind: string }) => [v.version, v.kind])).toEqual([
    [1, 'draft'],
    [2, 'revision'],
  ]);
  expect(versions[1].diff.changed).toBe(true);
  expect(versions[1].summary).toEqual(expect.any(String));
  const second = (await world.app.api().get(`/articles/${articleId}/versions/2`)).body.version;
  expect(second.content).toBe((await article(articleId)).content);
  expect(second.unifiedDiff).toMatch(/^\+.*pickup slot/im);
  expect((await world.app.api().get(`/articles/${articleId}/versions/3`)).status).toBe(404);
});

test('another account gets 404 for every history of the first', async () => {
  const { articleId, projectId, topicId } = await writtenArticle();
  const other = world.app.api(await world.app.newKey('auditor-elsewhere'));
  for (const path of [
    `/articles/${articleId}/history`,
    `/projects/${projectId}/history`,
    `/topics/${topicId}/history`,
    `/articles/${articleId}/versions`,
    `/articles/${articleId}/versions/1`,
  ]) {
    const response = await other.get(path);
    expect(response.status, path).toBe(404);
    expect(response.body.error.code).toBe('not_found');
  }
});

test('the article at each revision equals what the API returned at that moment', async () => {
  const { articleId } = await writtenArticle();
  const seen = new Map<number, unknown>();
  const snapshot = async () => {
    const history = (await world.app.api().get(`/articles/${articleId}/history`)).body.history;
    seen.set(history.at(-1).revision, await article(articleId));
  };
  await snapshot();
  for (const instruction of ['make it shorter', 'mention our Portland bakery']) {
    const before = (await article(articleId)).version;
    expect(
      (await world.app.api().post(`/articles/${articleId}/revise`, { instruction })).status,
    ).toBe(202);
    await eventually(
      () => article(articleId),
      (a) => a.version === before + 1,
      { what: instruction },
    );
    await snapshot();
  }
  expect(seen.size).toBe(3);
  for (const [revision, then] of seen) {
    const replayed = await world.app.api().get(`/articles/${articleId}?at=${revision}`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.article, `revision ${revision}`).toEqual(then);
  }
  const queuedOnly = (await world.app.api().get(`/articles/${articleId}?at=0`)).body.article;
  expect(queuedOnly).toMatchObject({ status: 'queued', version: 0, content: null });
  const byTime = (
    await world.app
      .api()
      .get(`/articles/${articleId}?at=${encodeURIComponent(new Date().toISOString())}`)
  ).body.article;
  expect(byTime).toEqual(await article(articleId));
  expect((await world.app.api().get(`/articles/${articleId}?at=1999-01-01T00:00:00Z`)).status).toBe(
    404,
  );
  const invalid = await world.app.api().get(`/articles/${articleId}?at=yesterday`);
  expect(invalid.status).toBe(400);
  expect(invalid.body.error.code).toBe('validation_failed');
});
