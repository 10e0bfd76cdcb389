import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ArticleStatus } from '../../../src/domain/articles/article.ts';
import type { ReadStore } from '../../../src/readstore/port.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { stopPipeline } from '../../support/stopPipeline.ts';

let app: TestInkstream;
/** Read-store calls made by the projects endpoints (src/features/projects/api.ts), while `counting`. */
const calls: string[] = [];
let counting = false;

beforeAll(async () => {
  app = await startInkstream({
    wrapStores: (stores) => {
      const store = stores.readStore;
      const watched = (name: 'find' | 'getMany' | 'get' | 'count') => (...args: unknown[]) => {
        if (counting && /features\/projects\/api\.ts:/.test(new Error().stack ?? '')) calls.push(`${name} ${String(args[0])}`);
        return (store[name] as (...a: unknown[]) => unknown).apply(store, args);
      };
      const readStore: ReadStore = Object.assign(Object.create(store), {
        find: watched('find'), getMany: watched('getMany'), get: watched('get'), count: watched('count'),
      });
      return { ...stores, readStore };
    },
  });
  await stopPipeline(app);
}, 60_000);
afterAll(async () => { await app?.close(); });

async function articleIn(projectId: string, status: ArticleStatus): Promise<void> {
  const topic = await app.api().post(`/projects/${projectId}/topics`, { title: `A topic to reach ${status}` });
  const written = await app.api().post(`/topics/${topic.body.topic.id}/write`);
  expect(written.status).toBe(201);
  const accountId = (await app.platform.eventStore.readStream(`project-${projectId}`, { maxCount: 1 }))[0].metadata.accountId;
  await advanceArticle(app.platform, accountId, written.body.article.id, status);
}

test('a project carries how many of its articles are in each state, in the list and on its own', async () => {
  const created = await app.api().post('/projects', { name: 'Counted', websiteUrl: 'https://counted.example' });
  const projectId: string = created.body.project.id;
  expect(created.body.project.articleCounts).toMatchObject({ queued: 0, draft: 0, merged: 0, failed: 0 });
  await articleIn(projectId, 'draft');
  await articleIn(projectId, 'draft');
  await articleIn(projectId, 'failed');
  await articleIn(projectId, 'merged');
  const expected = { queued: 0, researching: 0, writing: 0, draft: 2, publishing: 0, pr_open: 0, merged: 1, closed: 0, failed: 1 };
  await expect.poll(async () => (await app.api().get(`/projects/${projectId}`)).body.project.articleCounts, { timeout: 15_000 }).toEqual(expected);
  const listed = (await app.api().get('/projects')).body.projects.find((project: { id: string }) => project.id === projectId);
  expect(listed.articleCounts).toEqual(expected);
});

test('a page of a hundred projects is one indexed read of projects and one key lookup of their counts', async () => {
  for (let i = 0; i < 100; i++) {
    expect((await app.api().post('/projects', { name: `Client ${i}`, websiteUrl: `https://client${i}.example` })).status).toBe(201);
  }
  counting = true;
  const page = await app.api().get('/projects?limit=100');
  counting = false;
  expect(page.status).toBe(200);
  expect(page.body.projects).toHaveLength(100);
  expect(calls).toEqual(['find projects', 'getMany project_article_counts']);
}, 120_000);
