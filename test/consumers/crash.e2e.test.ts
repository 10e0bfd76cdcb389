import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { allProjections } from '../../src/app/features.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { rebuildOnline } from '../../src/readstore/rebuild.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { revisionAudit } from '../support/revisionAudit.ts';

const CHILD = join(import.meta.dirname, '../support/crashChild.ts');
const projections = [...allProjections, revisionAudit];

/** The exit code, and the ids of the events whose appends the child saw acknowledged. */
function runChild(
  dataDir: string,
  mode: 'load' | 'topics' | 'drain',
  killAfterReadyMs?: number,
): Promise<{ code: number | null; acknowledged: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], {
      env: { ...process.env, DATA_DIR: dataDir, MODE: mode },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      if (
        killAfterReadyMs !== undefined &&
        !output.includes('ready') &&
        chunk.toString().includes('ready')
      )
        setTimeout(() => child.kill('SIGKILL'), killAfterReadyMs);
      output += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      // A line cut short by the kill is not an acknowledgement.
      const acknowledged = output
        .split('\n')
        .slice(0, -1)
        .filter((line) => line.startsWith('ack '))
        .map((line) => line.slice(4));
      resolve({ code, acknowledged });
    });
  });
}

async function dump(store: ReadStore) {
  const out: Record<string, unknown[]> = {};
  for (const projection of projections) {
    const items = [];
    let cursor: string | undefined;
    do {
      const page = await store.find(projection.collection, {
        limit: 200,
        sort: { field: 'id', direction: 'asc' },
        cursor,
      });
      items.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    out[projection.collection] = items;
  }
  return out;
}

test('kill -9 while appending in shared commits and projecting, again and again: no acknowledged event lost, read models equal a fresh rebuild, no event skipped or applied twice', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-crash-'));
  const acknowledged: string[] = [];
  for (let kill = 0; kill < 10; kill++) {
    const run = await runChild(dataDir, 'load', 60 + ((kill * 37) % 150));
    expect(run.code).toBeNull(); // null: died by signal
    acknowledged.push(...run.acknowledged);
  }
  expect((await runChild(dataDir, 'drain')).code).toBe(0);

  const file = join(dataDir, 'inkstream.sqlite');
  const eventStore = openSqliteEventStore(file);
  const log = await eventStore.readAll({ maxCount: 1_000_000 });
  expect(log.length).toBeGreaterThan(100);
  const logged = new Set(log.map((event) => event.id));
  expect(acknowledged.length).toBeGreaterThan(100);
  expect(acknowledged.filter((id) => !logged.has(id))).toEqual([]);
  const rebuilt = openSqliteReadStore(join(dataDir, 'rebuilt.sqlite'));
  await rebuilt.ensureCollections(
    projections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  await rebuildOnline(eventStore, rebuilt, projections, {
    consumer: 'rebuild',
    live: 'projections',
    versionOf: projectionVersion,
  });

  const liveStore = openSqliteReadStore(file);
  await liveStore.ensureCollections(
    projections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  const live = await dump(liveStore);
  expect(live).toEqual(await dump(rebuilt));
  const audits = live.revision_audit as {
    applied: number;
    lastRevision: number;
    anomalies: string[];
  }[];
  expect(audits.flatMap((audit) => audit.anomalies)).toEqual([]);
  expect(audits.every((audit) => audit.applied === audit.lastRevision + 1)).toBe(true);
  expect(audits.reduce((sum, audit) => sum + audit.applied, 0)).toBe(log.length);
}, 60_000);

test("kill -9 while topics are created and rejected and approved again, again and again: every project's board totals equal a count of its topics", async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-crash-tally-'));
  for (let kill = 0; kill < 8; kill++) {
    expect((await runChild(dataDir, 'topics', 60 + ((kill * 37) % 150))).code).toBeNull();
  }
  expect((await runChild(dataDir, 'drain')).code).toBe(0);

  const file = join(dataDir, 'inkstream.sqlite');
  const liveStore = openSqliteReadStore(file);
  await liveStore.ensureCollections(
    projections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  const live = await dump(liveStore);
  const totals = live.project_topic_counts as { id: string; counts: Record<string, number> }[];
  expect(totals).toHaveLength(6);
  for (const { id: projectId, counts } of totals) {
    for (const [status, count] of Object.entries(counts))
      expect(count, `${projectId} ${status}`).toBe(
        await liveStore.count('topics', { projectId, status }),
      );
  }
  const counted = totals
    .flatMap(({ counts }) => Object.values(counts))
    .reduce((sum, n) => sum + n, 0);
  expect(counted).toBe(await liveStore.count('topics'));
  expect(await liveStore.count('topics', { status: 'rejected' })).toBeGreaterThan(0);

  const rebuilt = openSqliteReadStore(join(dataDir, 'rebuilt.sqlite'));
  await rebuilt.ensureCollections(
    projections.map((p) => ({ name: p.collection, indexes: p.indexes })),
  );
  await rebuildOnline(openSqliteEventStore(file), rebuilt, projections, {
    consumer: 'rebuild',
    live: 'projections',
    versionOf: projectionVersion,
  });
  expect(live).toEqual(await dump(rebuilt));
}, 120_000);
