import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, test } from 'vitest';
import { articleNames } from '../../projections/articleNames.ts';
import { topics } from '../../projections/topics.ts';
import {
  declareProjections,
  projectionUpgradeWorker,
} from '../../src/consumers/projectionUpgrade.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { SWAP_CATCH_UP } from '../../src/readstore/rebuild.ts';
import { rebuildProjections } from '../../src/cli/rebuild.ts';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let server: TestInkstream | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A project with two topics, and a topic document no event made: only a rebuild from the log removes it. */
async function serverWithDamagedTopics() {
  server = await startInkstream();
  const api = server.api();
  const {
    body: { project },
  } = await api.post('/projects', { name: 'Upgrade', websiteUrl: 'https://upgrade.example' });
  for (const title of ['One', 'Two']) await api.post(`/projects/${project.id}/topics`, { title });
  await server.platform.readStore.save('topics', {
    id: 'tpc_bogus',
    accountId: 'x',
    projectId: project.id,
    title: 'Bogus',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const titles = async () =>
    (await api.get(`/projects/${project.id}/topics`)).body.topics
      .map((topic: { title: string }) => topic.title)
      .sort();
  const recordVersion = (version: string) => {
    const db = new DatabaseSync(join(server!.dataDir, EMBEDDED_DB_FILE));
    db.prepare(`UPDATE readstore_tables SET version = ? WHERE collection = 'topics'`).run(version);
    db.close();
  };
  return { server, titles, recordVersion };
}

test('a read model built by the same definition is not rebuilt at start', async () => {
  const { server, titles } = await serverWithDamagedTopics();
  expect(await server.platform.readStore.onlineRebuilds!.versionOf('topics')).toBe(
    projectionVersion(topics),
  );
  const worker = await projectionUpgradeWorker().start(server.platform);
  await worker.stop();
  expect(await titles()).toEqual(['Bogus', 'One', 'Two']);
});

test('a read model built by another version is rebuilt beside the old one, which serves until the swap', async () => {
  const { server, titles, recordVersion } = await serverWithDamagedTopics();
  recordVersion('an-older-definition');
  const worker = await projectionUpgradeWorker().start(server.platform);
  try {
    // Served throughout: the old documents, then the rebuilt ones, never an error or an empty list.
    const seen = await eventually(titles, (listed) => !listed.includes('Bogus'), {
      what: 'the rebuilt topics swapped in',
    });
    expect(seen).toEqual(['One', 'Two']);
    expect(await server.platform.readStore.onlineRebuilds!.versionOf('topics')).toBe(
      projectionVersion(topics),
    );
    expect(
      (
        await server
          .api()
          .post(`/projects/${(await server.api().get('/projects')).body.projects[0].id}/topics`, {
            title: 'Three',
          })
      ).status,
    ).toBe(201);
    expect(await titles()).toEqual(['One', 'Three', 'Two']);
  } finally {
    await worker.stop();
  }
});

test('a read model added by an upgrade is built from the events before it, not left empty', async () => {
  const { server } = await serverWithDamagedTopics();
  const projectId = (await server.api().get('/projects')).body.projects[0].id as string;
  const topicId = (await server.api().get(`/projects/${projectId}/topics`)).body.topics[0]
    .id as string;
  const written = await server.api().post(`/topics/${topicId}/write`);
  expect(written.status).toBe(201);
  expect((await server.api().get(`/articles/${written.body.article.id}`)).status).toBe(200); // projected: the live checkpoint is past it
  // The version before had no article names: its file has neither the table nor its record.
  const db = new DatabaseSync(join(server.dataDir, EMBEDDED_DB_FILE));
  db.exec(
    `DROP TABLE rm_article_names; DELETE FROM readstore_tables WHERE collection = 'article_names'`,
  );
  db.close();
  await declareProjections(server.platform.readStore, server.platform.projections);
  expect(await server.platform.readStore.count('article_names')).toBe(0);
  expect(await server.platform.readStore.onlineRebuilds!.versionOf('article_names')).toBeNull();
  const worker = await projectionUpgradeWorker().start(server.platform);
  try {
    await eventually(
      () => server.platform.readStore.onlineRebuilds!.versionOf('article_names'),
      (version) => version === projectionVersion(articleNames),
      { what: 'the added read model built' },
    );
    expect(
      await server.platform.readStore.getMany('article_names', [written.body.article.id]),
    ).toMatchObject([{ projectId, published: false }]);
  } finally {
    await worker.stop();
  }
});

/** A swap that died before its catch-up lost a topic's document (a replica wrote it to the replaced collection): the catch-up checkpoint says from where. */
async function serverWithUnfinishedSwap() {
  server = await startInkstream();
  const api = server.api();
  const {
    body: { project },
  } = await api.post('/projects', { name: 'Catch-up', websiteUrl: 'https://catch-up.example' });
  await api.post(`/projects/${project.id}/topics`, { title: 'Kept' });
  const before = await server.platform.eventStore.headPosition();
  const {
    body: { topic },
  } = await api.post(`/projects/${project.id}/topics`, { title: 'Lost in the swap' });
  const titles = async () =>
    (await api.get(`/projects/${project.id}/topics`)).body.topics
      .map((listed: { title: string }) => listed.title)
      .sort();
  await eventually(titles, (listed) => listed.length === 2, { what: 'both topics projected' });
  // The server's own projection batches finish a catch-up too: let its last one (the start-up crawl's end) go by first.
  const { eventStore, readStore } = server.platform;
  await eventually(
    async () =>
      (await eventStore.readAll({ maxCount: 10_000 })).some(
        (event) => event.type === 'BrandCrawled' || event.type === 'BrandCrawlFailed',
      ),
    Boolean,
    { what: 'the crawl at creation over' },
  );
  await eventually(
    async () =>
      (await readStore.getCheckpoint('projections')) === (await eventStore.headPosition()),
    Boolean,
    { what: 'the server idle' },
  );
  await server.platform.readStore.remove('topics', topic.id);
  await server.platform.readStore.commit([], { consumer: SWAP_CATCH_UP, position: before });
  expect(await titles()).toEqual(['Kept']);
  return { server, titles };
}

test('at start, a swap whose process died before its catch-up is caught up, though no read model changed', async () => {
  const { server, titles } = await serverWithUnfinishedSwap();
  const worker = await projectionUpgradeWorker().start(server.platform);
  try {
    await eventually(titles, (listed) => listed.length === 2, { what: 'the lost topic caught up' });
    expect(await titles()).toEqual(['Kept', 'Lost in the swap']);
    expect(await server.platform.readStore.getCheckpoint(SWAP_CATCH_UP)).toBeNull();
  } finally {
    await worker.stop();
  }
});

test('a CLI rebuild of one read model first catches up an unfinished swap of the others', async () => {
  const { server, titles } = await serverWithUnfinishedSwap();
  await rebuildProjections(server.platform, 'articles', {
    progress: { stream: { write: () => true, isTTY: false } },
  });
  expect(await titles()).toEqual(['Kept', 'Lost in the swap']);
  expect(await server.platform.readStore.getCheckpoint(SWAP_CATCH_UP)).toBeNull();
});
