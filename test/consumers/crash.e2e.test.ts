import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { allProjections } from '../../projections/index.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { rebuildReadModels } from '../../src/readstore/rebuild.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { revisionAudit } from '../support/revisionAudit.ts';

const CHILD = join(import.meta.dirname, '../support/crashChild.ts');
const projections = [...allProjections, revisionAudit];

function runChild(dataDir: string, mode: 'load' | 'drain', killAfterReadyMs?: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { env: { ...process.env, DATA_DIR: dataDir, MODE: mode }, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (chunk: Buffer) => {
      if (killAfterReadyMs !== undefined && chunk.toString().includes('ready')) setTimeout(() => child.kill('SIGKILL'), killAfterReadyMs);
    });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  });
}

async function dump(store: ReadStore) {
  const out: Record<string, unknown[]> = {};
  for (const projection of projections) {
    const items = [];
    let cursor: string | undefined;
    do {
      const page = await store.find(projection.collection, { limit: 200, sort: { field: 'id', direction: 'asc' }, cursor });
      items.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    out[projection.collection] = items;
  }
  return out;
}

test('kill -9 while appending and projecting, again and again: read models equal a fresh rebuild, no event skipped or applied twice', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-crash-'));
  for (let kill = 0; kill < 10; kill++) {
    expect(await runChild(dataDir, 'load', 60 + ((kill * 37) % 150))).toBeNull(); // null: died by signal
  }
  expect(await runChild(dataDir, 'drain')).toBe(0);

  const file = join(dataDir, 'inkstream.sqlite');
  const eventStore = openSqliteEventStore(file);
  const log = await eventStore.readAll({ maxCount: 1_000_000 });
  expect(log.length).toBeGreaterThan(100);
  const rebuilt = openSqliteReadStore(join(dataDir, 'rebuilt.sqlite'));
  await rebuilt.ensureCollections(projections.map((p) => ({ name: p.collection, indexes: p.indexes })));
  await rebuildReadModels(eventStore, rebuilt, projections, { consumer: 'rebuild' });

  const liveStore = openSqliteReadStore(file);
  await liveStore.ensureCollections(projections.map((p) => ({ name: p.collection, indexes: p.indexes })));
  const live = await dump(liveStore);
  expect(live).toEqual(await dump(rebuilt));
  const audits = live.revision_audit as { applied: number; lastRevision: number; anomalies: string[] }[];
  expect(audits.flatMap((audit) => audit.anomalies)).toEqual([]);
  expect(audits.every((audit) => audit.applied === audit.lastRevision + 1)).toBe(true);
  expect(audits.reduce((sum, audit) => sum + audit.applied, 0)).toBe(log.length);
}, 60_000);
