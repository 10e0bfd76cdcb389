import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { createInMemoryEventStore } from '../../src/eventstore/inMemory.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';
import { startServer, type RunningServer } from '../../src/app/start.ts';
import type { Stores } from '../../src/app/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'ink-identity-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  INKSTREAM_SECRET_KEY: Buffer.alloc(32, 3).toString('base64'),
});

/** A production-like pair: an event log that can be swapped (as a new EventStoreDB would be) beside a read database that stays. */
function stores(eventStore: EventStore, readFile: string): Stores {
  const readStore = openSqliteReadStore(readFile);
  return {
    eventStore,
    readStore,
    kind: { events: 'esdb', reads: 'mongo' },
    where: { events: 'the in-memory log', reads: `SQLite ${readFile}` },
    async close() {
      await readStore.close();
    },
  };
}

async function start(given?: Stores): Promise<RunningServer> {
  return await startServer(config, createLogger('silent'), { stores: given, announce: () => {} });
}

async function projectsStatus(server: RunningServer, key: string): Promise<number> {
  return (
    await fetch(`${server.url}/api/v1/projects`, { headers: { authorization: `Bearer ${key}` } })
  ).status;
}

test('a start with a new, empty event log against read models built from another log is refused, naming both and the fix', async () => {
  const readFile = join(dir, 'reads-1.sqlite');
  const firstLog = createInMemoryEventStore();
  const first = await start(stores(firstLog, readFile));
  const firstId = await firstLog.storeId({ create: false });
  await createApiKey(first.platform, { account: 'early' });
  await first.stop();

  const newLog = createInMemoryEventStore();
  const second = stores(newLog, readFile);
  const refused = await start(second).then(
    () => null,
    (error: Error) => error,
  );
  await second.close();
  expect(refused?.message).toContain(`built from event log ${firstId}`);
  expect(refused?.message).toContain(
    `the event log in the in-memory log is ${await newLog.storeId({ create: false })}`,
  );
  expect(refused?.message).toContain(`SQLite ${readFile}`);
  expect(refused?.message).toMatch(
    /point DATA_DIR \/ EVENTSTORE_URL and MONGODB_URL at databases that belong together/,
  );
  expect(refused?.message).toMatch(/empty database/);
});

test('given an empty read database, the new log starts and the key it issues is accepted (nothing skipped)', async () => {
  const log = createInMemoryEventStore();
  const before = await start(stores(log, join(dir, 'reads-2.sqlite')));
  await before.stop();
  const server = await start(stores(log, join(dir, 'reads-2b.sqlite')));
  try {
    const { key } = await createApiKey(server.platform, { account: 'late' });
    expect(await projectsStatus(server, key)).toBe(200);
  } finally {
    await server.stop();
  }
});

test('a restart on the same embedded store keeps one identity and serves the keys of the first run', async () => {
  const first = await start();
  const { key } = await createApiKey(first.platform, { account: 'steady' });
  const id = await first.platform.eventStore.storeId({ create: false });
  await first.stop();
  const again = await start();
  try {
    expect(await again.platform.eventStore.storeId({ create: false })).toBe(id);
    expect(await projectsStatus(again, key)).toBe(200);
  } finally {
    await again.stop();
  }
});
