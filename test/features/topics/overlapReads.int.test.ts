import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ARTICLE_NAMES } from '../../../projections/articleNames.ts';
import { EMBEDDED_DB_FILE } from '../../../src/app/stores.ts';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import type { Doc, FindOptions } from '../../../src/readstore/port.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';
import { findPlans, slowSteps } from '../../support/queryPlan.ts';

/**
 * Adding a topic by hand compares it with the project's published articles. It reads their names
 * from a slim read model, through one index: what a POST reads stays a few hundred bytes an
 * article however long the articles are, and never a sort of the project's articles.
 */
let app: TestInkstream;
let recording = false;
const reads: { collection: string; options?: FindOptions; bytes: number }[] = [];

beforeAll(async () => {
  app = await startInkstream({
    wrapStores: (stores) => ({
      ...stores,
      readStore: {
        ...stores.readStore,
        async find<T extends Doc>(collection: string, options: FindOptions) {
          const page = await stores.readStore.find<T>(collection, options);
          if (recording)
            reads.push({ collection, options, bytes: JSON.stringify(page.items).length });
          return page;
        },
        async get<T extends Doc>(collection: string, id: string) {
          const doc = await stores.readStore.get<T>(collection, id);
          if (recording) reads.push({ collection, bytes: JSON.stringify(doc).length });
          return doc;
        },
        async getMany<T extends Doc>(collection: string, ids: readonly string[]) {
          const docs = await stores.readStore.getMany<T>(collection, ids);
          if (recording) reads.push({ collection, bytes: JSON.stringify(docs).length });
          return docs;
        },
      },
    }),
  });
});
afterAll(() => app?.close());

/** An article written from a topic and brought to `status`; its draft is titled "Hello" (test/support/articleLife.ts). */
async function articleIn(projectId: string, status: 'merged' | 'pr_open'): Promise<string> {
  const topicId = (
    await app.api().post(`/projects/${projectId}/topics`, { title: `A topic to write, ${status}` })
  ).body.topic.id;
  const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(app.platform, accountIdForName('test'), articleId, status);
  return articleId;
}

test('a topic added by hand is compared with the names of published articles, read from one index, never the articles', async () => {
  const projectId = (
    await app.api().post('/projects', { name: 'Bakery', websiteUrl: 'https://bakery.example' })
  ).body.project.id;
  // Published last: its merge makes the next POST read the names again (they are remembered between POSTs).
  const unpublished = await articleIn(projectId, 'pr_open');
  const published = await articleIn(projectId, 'merged');
  expect((await app.api().get(`/articles/${published}`)).body.article.status).toBe('merged');
  expect((await app.api().get(`/articles/${unpublished}`)).body.article.status).toBe('pr_open');

  recording = true;
  const added = await app
    .api()
    .post(`/projects/${projectId}/topics`, { title: 'Hello: a complete guide' });
  recording = false;

  expect(added.status).toBe(201);
  expect(added.body.topic.overlap).toMatchObject({
    source: 'article',
    articleId: published,
    title: 'Hello',
  });
  expect(reads.map((read) => read.collection)).not.toContain('articles');
  const names = reads.filter((read) => read.collection === ARTICLE_NAMES);
  expect(names).toHaveLength(1);
  // The drafts' MDX alone is longer than this: the published article's name and links are all a POST reads.
  expect(names[0].bytes).toBeLessThan(1_000);
  const probe = new DatabaseSync(join(app.dataDir, EMBEDDED_DB_FILE), { readOnly: true });
  try {
    for (const { plan } of findPlans(probe, ARTICLE_NAMES, names[0].options!))
      expect(slowSteps(plan)).toEqual([]);
  } finally {
    probe.close();
  }
});
