import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, onTestFinished, test } from 'vitest';
import { PROJECTIONS_CONSUMER } from '../../../src/consumers/projectionConsumer.ts';
import type { ArticleStatus } from '../../../src/domain/articles/article.ts';
import type { ReadStore } from '../../../src/readstore/port.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';

let app: TestInkstream;
/** Read-store calls made by the projects endpoints (src/features/projects/api.ts), while `counting`. */
const calls: string[] = [];
let counting = false;
/** While set, every consumer but the projections commits late, as on a loaded host: what they write trails the read models. */
let otherConsumersLag = false;

beforeAll(async () => {
  app = await startInkstream({
    wrapStores: (stores) => {
      const store = stores.readStore;
      const watched =
        (name: 'find' | 'getMany' | 'get' | 'count') =>
        (...args: unknown[]) => {
          if (counting && /features\/projects\/api\.ts:/.test(new Error().stack ?? ''))
            calls.push(`${name} ${String(args[0])}`);
          return (store[name] as (...a: unknown[]) => unknown).apply(store, args);
        };
      const readStore: ReadStore = Object.assign(Object.create(store), {
        find: watched('find'),
        getMany: watched('getMany'),
        get: watched('get'),
        count: watched('count'),
        async commit(...args: Parameters<ReadStore['commit']>) {
          if (otherConsumersLag && args[1] && args[1].consumer !== PROJECTIONS_CONSUMER)
            await delay(300);
          return store.commit(...args);
        },
      });
      return { ...stores, readStore };
    },
  });
  await stopPipeline(app);
}, 60_000);
afterAll(async () => {
  await app?.close();
});

async function articleIn(projectId: string, status: ArticleStatus): Promise<void> {
  const topic = await app
    .api()
    .post(`/projects/${projectId}/topics`, { title: `A topic to reach ${status}` });
  const written = await app.api().post(`/topics/${topic.body.topic.id}/write`);
  expect(written.status).toBe(201);
  const accountId = (
    await app.platform.eventStore.readStream(`project-${projectId}`, { maxCount: 1 })
  )[0].metadata.accountId;
  await advanceArticle(app.platform, accountId, written.body.article.id, status);
}

test("another account's project shows no counts: 404, and its articles and topics move no count of the caller's", async () => {
  const stranger = app.api(await app.newKey('stranger'));
  const theirs = (
    await stranger.post('/projects', { name: 'Theirs', websiteUrl: 'https://theirs.example' })
  ).body.project.id as string;
  await stranger.post(`/projects/${theirs}/topics`, { title: 'Their topic' });
  const mine = (
    await app.api().post('/projects', { name: 'Mine', websiteUrl: 'https://mine.example' })
  ).body.project.id as string;
  const peek = await app.api().get(`/projects/${theirs}`);
  expect(peek.status).toBe(404);
  expect(peek.body).toEqual({ error: expect.objectContaining({ code: 'not_found' }) });
  expect(JSON.stringify(peek.body)).not.toContain('topicCounts');
  expect((await app.api().get(`/projects/${mine}`)).body.project.topicCounts).toEqual({
    suggested: 0,
    approved: 0,
    scheduled: 0,
    rejected: 0,
    written: 0,
  });
  expect((await stranger.get(`/projects/${theirs}`)).body.project.topicCounts).toMatchObject({
    approved: 1,
  });
});

/** What the boards show: each column's total and its cards, read one after the other as a page does (a key of its own: 14 reads). */
async function boardAgrees(projectId: string): Promise<void> {
  const reader = app.api(await app.newKey('steps'));
  const { articleCounts, topicCounts } = (await reader.get(`/projects/${projectId}`)).body.project;
  for (const [status, count] of Object.entries(articleCounts)) {
    expect(
      (await reader.get(`/projects/${projectId}/articles?status=${status}&limit=200`)).body
        .articles,
      `articles ${status}`,
    ).toHaveLength(count as number);
  }
  for (const [status, count] of Object.entries(topicCounts)) {
    expect(
      (await reader.get(`/projects/${projectId}/topics?status=${status}&limit=200`)).body.topics,
      `topics ${status}`,
    ).toHaveLength(count as number);
  }
}

test('the counts a read returns agree with the lists at once after every step, however late other consumers run: they never trail the cards', async () => {
  otherConsumersLag = true;
  onTestFinished(() => {
    otherConsumersLag = false;
  });
  const steps = app.api(await app.newKey('steps'));
  const projectId = (
    await steps.post('/projects', { name: 'In step', websiteUrl: 'https://in-step.example' })
  ).body.project.id as string;
  const accountId = (
    await app.platform.eventStore.readStream(`project-${projectId}`, { maxCount: 1 })
  )[0].metadata.accountId;
  const rejected = (await steps.post(`/projects/${projectId}/topics`, { title: 'One to reject' }))
    .body.topic.id as string;
  await boardAgrees(projectId);
  expect((await steps.patch(`/topics/${rejected}`, { status: 'rejected' })).status).toBe(200);
  await boardAgrees(projectId);
  for (const status of [
    'queued',
    'researching',
    'writing',
    'draft',
    'pr_open',
    'merged',
  ] as const) {
    const topic = (
      await steps.post(`/projects/${projectId}/topics`, { title: `One to reach ${status}` })
    ).body.topic.id as string;
    const articleId = (await steps.post(`/topics/${topic}/write`)).body.article.id as string;
    await boardAgrees(projectId);
    await advanceArticle(app.platform, accountId, articleId, status);
    await boardAgrees(projectId);
  }
  const { articleCounts, topicCounts } = (await steps.get(`/projects/${projectId}`)).body.project;
  expect(articleCounts).toMatchObject({
    queued: 1,
    researching: 1,
    writing: 1,
    draft: 1,
    pr_open: 1,
    merged: 1,
  });
  expect(topicCounts).toMatchObject({ written: 6, rejected: 1 });
}, 120_000);

test('a project carries how many of its articles are in each state, in the list and on its own', async () => {
  const created = await app
    .api()
    .post('/projects', { name: 'Counted', websiteUrl: 'https://counted.example' });
  const projectId: string = created.body.project.id;
  expect(created.body.project.articleCounts).toMatchObject({
    queued: 0,
    draft: 0,
    merged: 0,
    failed: 0,
  });
  await articleIn(projectId, 'draft');
  await articleIn(projectId, 'draft');
  await articleIn(projectId, 'failed');
  await articleIn(projectId, 'merged');
  const expected = {
    queued: 0,
    researching: 0,
    writing: 0,
    draft: 2,
    publishing: 0,
    pr_open: 0,
    merged: 1,
    closed: 0,
    failed: 1,
  };
  await expect
    .poll(async () => (await app.api().get(`/projects/${projectId}`)).body.project.articleCounts, {
      timeout: 15_000,
    })
    .toEqual(expected);
  const listed = (await app.api().get('/projects')).body.projects.find(
    (project: { id: string }) => project.id === projectId,
  );
  expect(listed.articleCounts).toEqual(expected);
});

test('a page of a hundred projects is one indexed read of projects and one key lookup of each of their counts', async () => {
  for (let i = 0; i < 100; i++) {
    expect(
      (
        await app
          .api()
          .post('/projects', { name: `Client ${i}`, websiteUrl: `https://client${i}.example` })
      ).status,
    ).toBe(201);
  }
  counting = true;
  const page = await app.api().get('/projects?limit=100');
  counting = false;
  expect(page.status).toBe(200);
  expect(page.body.projects).toHaveLength(100);
  expect(calls.sort()).toEqual([
    'find projects',
    'getMany project_article_counts',
    'getMany project_topic_counts',
  ]);
}, 120_000);
