import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';
import { allProjections } from '../../src/app/features.ts';
import { applyProjections } from '../../src/consumers/projectionConsumer.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { appendSampleHistory } from '../support/domainEvents.ts';
import { startInkstream } from '../support/inkstream.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/inkstream.js');

async function dump(store: ReadStore) {
  const out: Record<string, unknown[]> = {};
  for (const projection of allProjections)
    out[projection.collection] = (
      await store.find(projection.collection, {
        limit: 200,
        sort: { field: 'id', direction: 'asc' },
      })
    ).items;
  return out;
}

test('projections rebuild drops the read models and replays the log into the same documents, printing its rate', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-rebuild-'));
  const file = join(dataDir, 'inkstream.sqlite');
  const events = openSqliteEventStore(file);
  for (const seed of ['1', '2', '3']) await appendSampleHistory(events, seed);
  const reads = openSqliteReadStore(file);
  await reads.ensureCollections(
    allProjections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  await applyProjections(
    allProjections,
    reads,
    await events.readAll({ maxCount: 10_000 }),
    'projections',
    events,
  );
  const before = await dump(reads);
  expect(before.articles).toHaveLength(3);
  // A read model damaged by hand: the rebuild must not keep it.
  await reads.save('articles', { id: 'art_bogus', accountId: 'x' });

  const { stdout, stderr } = await run(process.execPath, [CLI, 'projections', 'rebuild'], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
  });
  expect(stdout).toMatch(/^Rebuilt from \d+ events in [\d.]+ s \(\d+ events\/s\)\./m);
  expect(stderr).toContain('rebuilding all read models');
  expect(stderr).not.toContain('a server is running'); // no server: the rebuild keeps its full CPU priority

  const after = openSqliteReadStore(file);
  await after.ensureCollections(
    allProjections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  expect(await dump(after)).toEqual(before);
  expect(await after.get('articles', 'art_bogus')).toBeNull();
}, 60_000); // a CLI process starting cold

test('rebuilding one read model by name leaves the others alone; an unknown name is refused', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-rebuild-one-'));
  await appendSampleHistory(openSqliteEventStore(join(dataDir, 'inkstream.sqlite')), 'x');
  const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  // --force, which the in-place rebuild wanted beside a running server, is still taken, with a note.
  const { stdout, stderr } = await run(
    process.execPath,
    [CLI, 'projections', 'rebuild', 'topics', '--force'],
    { env },
  );
  expect(stdout).toContain('Rebuilt from');
  expect(stderr).toContain('--force is no longer needed');
  const reads = openSqliteReadStore(join(dataDir, 'inkstream.sqlite'));
  await reads.ensureCollections(
    allProjections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  expect((await reads.find('topics', { limit: 10 })).items).toHaveLength(1);
  await expect(
    run(process.execPath, [CLI, 'projections', 'rebuild', 'nonsense'], { env }),
  ).rejects.toMatchObject({ stderr: expect.stringContaining('No read model named nonsense') });
}, 60_000); // two CLI processes, each starting cold

test('a rebuild while a server runs needs no --force: the server answers throughout, then serves the rebuilt read models', async () => {
  const server = await startInkstream({ env: { INKSTREAM_RATE_LIMIT_PER_MINUTE: '1000000' } });
  try {
    const api = server.api();
    const {
      body: { project },
    } = await api.post('/projects', { name: 'Online', websiteUrl: 'https://online.example' });
    for (const title of ['One', 'Two', 'Three'])
      expect((await api.post(`/projects/${project.id}/topics`, { title })).status).toBe(201);
    // A read model damaged by hand: only a rebuild from the log removes it.
    await server.platform.readStore.save('topics', {
      id: 'tpc_bogus',
      accountId: 'x',
      projectId: project.id,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    const listed = async () =>
      (await api.get(`/projects/${project.id}/topics`)).body.topics
        .map((topic: { title: string }) => topic.title)
        .sort();
    expect(await listed()).toContain(undefined);

    const env = { ...process.env, DATA_DIR: server.dataDir, LOG_LEVEL: 'silent' };
    const rebuild = run(process.execPath, [CLI, 'projections', 'rebuild'], { env });
    const statuses: number[] = [];
    let finished = false;
    void rebuild
      .finally(() => {
        finished = true;
      })
      .catch(() => {});
    while (!finished) statuses.push((await api.get(`/projects/${project.id}/topics`)).status);
    const { stdout, stderr } = await rebuild;
    expect(stdout).toMatch(/^Rebuilt from \d+ events/m);
    expect(stderr).toMatch(/rebuilding all read models \[#+\] 100% \d+ events \d+\/s ETA/);
    // Beside a running server the rebuild runs at a lower CPU priority, so the server's requests go first.
    expect(stderr).toMatch(
      /a server is running on this store \(.+\); rebuilding at CPU priority 1\d \(nice\)/,
    );
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    expect(await listed()).toEqual(['One', 'Three', 'Two']);
    // The server goes on projecting into the tables swapped in.
    expect((await api.post(`/projects/${project.id}/topics`, { title: 'Four' })).status).toBe(201);
    expect(await listed()).toEqual(['Four', 'One', 'Three', 'Two']);
  } finally {
    await server.close();
  }
}, 60_000); // a server and a CLI process
