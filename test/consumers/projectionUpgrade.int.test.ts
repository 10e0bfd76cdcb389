import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, test } from 'vitest';
import { topics } from '../../projections/topics.ts';
import { projectionUpgradeWorker } from '../../src/consumers/projectionUpgrade.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let server: TestInkstream | undefined;
afterEach(async () => { await server?.close(); server = undefined; });

/** A project with two topics, and a topic document no event made: only a rebuild from the log removes it. */
async function serverWithDamagedTopics() {
  server = await startInkstream();
  const api = server.api();
  const { body: { project } } = await api.post('/projects', { name: 'Upgrade', websiteUrl: 'https://upgrade.example' });
  for (const title of ['One', 'Two']) await api.post(`/projects/${project.id}/topics`, { title });
  await server.platform.readStore.save('topics', { id: 'tpc_bogus', accountId: 'x', projectId: project.id, title: 'Bogus', createdAt: '2026-01-01T00:00:00.000Z' });
  const titles = async () => (await api.get(`/projects/${project.id}/topics`)).body.topics.map((topic: { title: string }) => topic.title).sort();
  const recordVersion = (version: string) => {
    const db = new DatabaseSync(join(server!.dataDir, EMBEDDED_DB_FILE));
    db.prepare(`UPDATE readstore_tables SET version = ? WHERE collection = 'topics'`).run(version);
    db.close();
  };
  return { server, titles, recordVersion };
}

test('a read model built by the same definition is not rebuilt at start', async () => {
  const { server, titles } = await serverWithDamagedTopics();
  expect(await server.platform.readStore.onlineRebuilds!.versionOf('topics')).toBe(projectionVersion(topics));
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
    const seen = await eventually(titles, (listed) => !listed.includes('Bogus'), { what: 'the rebuilt topics swapped in' });
    expect(seen).toEqual(['One', 'Two']);
    expect(await server.platform.readStore.onlineRebuilds!.versionOf('topics')).toBe(projectionVersion(topics));
    expect((await server.api().post(`/projects/${(await server.api().get('/projects')).body.projects[0].id}/topics`, { title: 'Three' })).status).toBe(201);
    expect(await titles()).toEqual(['One', 'Three', 'Two']);
  } finally {
    await worker.stop();
  }
});
