import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ARTICLE_NAMES } from '../../../projections/articleNames.ts';
import { EMBEDDED_DB_FILE } from '../../../src/app/stores.ts';
import { accountIdForName } from '../../../src/domain/accounts/account.ts';
import { articleStream } from '../../../src/domain/articles/decide.ts';
import { handleCommand } from '../../../src/eventstore/handleCommand.ts';
import { openSqliteEventStore } from '../../../src/eventstore/sqlite.ts';
import { createOfflineWriter } from '../../../src/integrations/llm/offline/index.ts';
import type { Doc, FindOptions } from '../../../src/readstore/port.ts';
import { advanceArticle } from '../../support/articleLife.ts';
import { startInkstream, type TestInkstream } from '../../support/inkstream.ts';

/**
 * Adding a topic by hand compares it with the names of the project's newest published articles.
 * They are remembered between POSTs, so adding topics reads them once, not once a request however
 * many the project has published; an event that changes them makes the next POST read them again.
 */
let app: TestInkstream;
let namesRead = 0;
let releaseResearch!: (reason: Error) => void;
const researchHeld = new Promise<never>((_, reject) => {
  releaseResearch = reject;
});
researchHeld.catch(() => {});
const accountId = accountIdForName('test');
const system = (articleId: string, step: string) => ({
  accountId,
  actor: { kind: 'system' as const, worker: 'test-pipeline' },
  correlationId: articleId,
  requestId: articleId,
  commandId: `names:${articleId}:${step}`,
});

beforeAll(async () => {
  app = await startInkstream({
    // The pipeline's own writer would draft the articles this test drafts: its research waits for the end.
    pipeline: { writer: { ...createOfflineWriter(), researchArticle: () => researchHeld } },
    wrapStores: (stores) => ({
      ...stores,
      readStore: {
        ...stores.readStore,
        async find<T extends Doc>(collection: string, options: FindOptions) {
          if (collection === ARTICLE_NAMES) namesRead++;
          return stores.readStore.find<T>(collection, options);
        },
      },
    }),
  });
});
afterAll(async () => {
  releaseResearch(new Error('the test is over'));
  await app?.close();
});

async function project(name: string): Promise<string> {
  return (
    await app.api().post('/projects', { name, websiteUrl: `https://${name.toLowerCase()}.example` })
  ).body.project.id;
}

/** An article written from a topic, published with this title. */
async function published(projectId: string, title: string): Promise<string> {
  const topicId = (
    await app
      .api()
      .post(`/projects/${projectId}/topics`, { title: `Something else entirely ${title.length}` })
  ).body.topic.id;
  const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(app.platform, accountId, articleId, 'merged', { title });
  return articleId;
}

const addTopic = async (projectId: string, title: string) => {
  const response = await app.api().post(`/projects/${projectId}/topics`, { title });
  expect(response.status).toBe(201);
  return response.body.topic.overlap as { articleId: string | null; title: string } | null;
};

test('adding topics reads the published names once, not on every POST, and each is still compared with them', async () => {
  const projectId = await project('Teahouse');
  const greenTea = await published(projectId, 'Brewing green tea');
  await published(projectId, 'Storing oolong at home');

  const before = namesRead;
  expect(await addTopic(projectId, 'Green tea brewing: a complete guide')).toMatchObject({
    articleId: greenTea,
    title: 'Brewing green tea',
  });
  for (let i = 0; i < 5; i++)
    expect(await addTopic(projectId, `Matcha whisks, part ${i}`)).toBeNull();
  expect(await addTopic(projectId, 'A practical guide to brewing green teas')).toMatchObject({
    articleId: greenTea,
  });
  expect(namesRead - before).toBe(1);
});

test('an article merged since the names were read is compared with on the next POST', async () => {
  const projectId = await project('Bakery');
  expect(await addTopic(projectId, 'Sourdough starters')).toBeNull();
  const sourdough = await published(projectId, 'Keeping a sourdough starter');
  expect(await addTopic(projectId, 'Sourdough starter')).toMatchObject({ articleId: sourdough });
});

test('a published article renamed by a refresh is compared under its new name', async () => {
  const projectId = await project('Orchard');
  const articleId = await published(projectId, 'Pruning apple trees');
  expect(await addTopic(projectId, 'Pruning apple trees in winter')).toMatchObject({ articleId });
  const at = app.platform.clock.now();
  const generation = {
    provider: 'offline',
    model: null,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  };
  await app.platform.commands.execute(
    articleStream,
    articleId,
    { type: 'RefreshArticle', refreshId: 'rfr_1', at },
    system(articleId, 'refresh'),
  );
  await app.platform.commands.execute(
    articleStream,
    articleId,
    {
      type: 'RecordResearch',
      outline: [{ heading: 'Why', points: ['one'] }],
      keyPoints: ['one'],
      sources: [],
      generation,
      at,
    },
    system(articleId, 'research'),
  );
  await app.platform.commands.execute(
    articleStream,
    articleId,
    {
      type: 'RecordDraft',
      version: 2,
      mdx: '---\ntitle: Grafting pear trees\n---\n\nText.\n',
      slug: 'grafting-pear-trees',
      title: 'Grafting pear trees',
      wordCount: 2,
      cover: null,
      purpose: 'refresh',
      generation,
      at,
    },
    system(articleId, 'draft'),
  );

  expect(await addTopic(projectId, 'Grafting pear trees')).toMatchObject({
    articleId,
    title: 'Grafting pear trees',
  });
});

test('a merge appended by another process is seen before remembered names are used', async () => {
  const projectId = await project('Dairy');
  const topicId = (
    await app.api().post(`/projects/${projectId}/topics`, { title: 'An unrelated topic' })
  ).body.topic.id;
  const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  await advanceArticle(app.platform, accountId, articleId, 'pr_open', {
    title: 'Making farmhouse cheddar',
  });
  expect(await addTopic(projectId, 'Farmhouse cheddar')).toBeNull();

  const other = openSqliteEventStore(join(app.dataDir, EMBEDDED_DB_FILE));
  try {
    await handleCommand(
      other,
      articleStream,
      articleId,
      {
        type: 'RecordMerged',
        commitSha: 'def',
        prUrl: 'https://github.com/acme/site/pull/7',
        path: 'content/hello.mdx',
        mergedBy: 'octo',
        at: app.platform.clock.now(),
      },
      system(articleId, 'merged-elsewhere'),
    );
  } finally {
    await other.close();
  }
  expect(await addTopic(projectId, 'Farmhouse cheddar')).toMatchObject({
    articleId,
    title: 'Making farmhouse cheddar',
  });
});

test("a merge forgets only its own project's names: another project's next POST reads none", async () => {
  const quiet = await project('Quarry');
  const busy = await project('Mill');
  const granite = await published(quiet, 'Cutting granite slabs');
  const topicId = (
    await app.api().post(`/projects/${busy}/topics`, { title: 'Something unrelated' })
  ).body.topic.id;
  const articleId = (await app.api().post(`/topics/${topicId}/write`)).body.article.id;
  // This POST looks through the article's queuing; its merge, seen by the next, is found in the read models.
  expect(await addTopic(quiet, 'Cutting granite slabs: a guide')).toMatchObject({
    articleId: granite,
  });
  await advanceArticle(app.platform, accountId, articleId, 'merged', {
    title: 'Milling rye flour',
  });

  const before = namesRead;
  expect(await addTopic(quiet, 'Cutting granite slabs at home')).toMatchObject({
    articleId: granite,
  });
  expect(namesRead - before).toBe(0);
  expect(await addTopic(busy, 'Rye flour milling')).toMatchObject({
    articleId,
    title: 'Milling rye flour',
  });
  expect(namesRead - before).toBe(1);
  // Merged in the same look as its queuing: the project is known from the queued event.
  const rye = await published(busy, 'Baking with rye');
  expect(await addTopic(quiet, 'Cutting granite slabs safely')).toMatchObject({
    articleId: granite,
  });
  expect(await addTopic(busy, 'Baking with rye at home')).toMatchObject({ articleId: rye });
  expect(namesRead - before).toBe(2);
});
