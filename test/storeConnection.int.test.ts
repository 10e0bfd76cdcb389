import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createApiKey } from '../src/accounts/keys.ts';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/core/logger.ts';
import { createInMemoryEventStore } from '../src/eventstore/inMemory.ts';
import type { EventStore } from '../src/eventstore/port.ts';
import { openSqliteReadStore } from '../src/readstore/sqlite.ts';
import { createServices } from '../src/services.ts';
import { createStoreConnection } from '../src/storeConnection.ts';
import type { Stores } from '../src/stores.ts';

const dir = mkdtempSync(join(tmpdir(), 'ink-connect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', INKSTREAM_SECRET_KEY: Buffer.alloc(32, 5).toString('base64') });

/** What @eventstore/db-client throws while no node answers (UnavailableError carries type 'unavailable'). */
const unavailable = () => Object.assign(new Error('14 UNAVAILABLE: No connection established'), { type: 'unavailable' });

/** An event log that fails its first `failures` contacts with `error`, as a server that is still starting does. */
function standIn(failures: number, error: () => Error): { stores: Stores; contacts: () => number } {
  const log = createInMemoryEventStore();
  let contacts = 0;
  const eventStore: EventStore = {
    ...log,
    async storeId(options) {
      contacts++;
      if (contacts <= failures) throw error();
      return log.storeId(options);
    },
  };
  const readStore = openSqliteReadStore(join(dir, `${Math.random().toString(36).slice(2)}.sqlite`));
  return {
    contacts: () => contacts,
    stores: { eventStore, readStore, kind: { events: 'esdb', reads: 'sqlite' }, where: { events: 'the stand-in log', reads: 'SQLite' }, close: () => readStore.close() },
  };
}

test('a failure that waiting cannot fix (access denied) stops the start at once, without waiting', async () => {
  const { stores, contacts } = standIn(1, () => Object.assign(new Error('Access denied for $all'), { type: 'access-denied' }));
  const waits: number[] = [];
  const connection = createStoreConnection({ wait: async (ms) => { waits.push(ms); } });
  await expect(createServices(config, createLogger('silent'), { stores, connection })).rejects.toThrow('Access denied');
  expect(waits).toEqual([]);
  expect(contacts()).toBe(1);
  expect(connection.state).toBe('connecting');
  await stores.close();
});

test('a store unavailable at first is waited for with growing delays, reported as connecting meanwhile, then serves', async () => {
  const { stores, contacts } = standIn(4, unavailable);
  const seen: Array<{ ms: number; state: string; lastError: string | null }> = [];
  const connection = createStoreConnection({
    wait: async (ms) => { seen.push({ ms, state: connection.state, lastError: connection.lastError }); },
  });
  const services = await createServices(config, createLogger('silent'), { stores, connection });
  try {
    expect(seen.map((wait) => wait.ms)).toEqual([250, 500, 1_000, 2_000]);
    expect(seen.every((wait) => wait.state === 'connecting' && wait.lastError?.includes('UNAVAILABLE'))).toBe(true);
    expect(contacts()).toBe(5);
    expect(connection.state).toBe('ok');
    expect((await createApiKey(services, { account: 'patient' })).key).toMatch(/^ink_/);
  } finally {
    await services.close();
  }
});

test('with a limit (the admin CLI), it gives up and says the store is unreachable', async () => {
  const { stores } = standIn(Number.POSITIVE_INFINITY, unavailable);
  let now = 0;
  const connection = createStoreConnection({ giveUpAfterMs: 3_000, nowMs: () => now, wait: async (ms) => { now += ms; } });
  await expect(createServices(config, createLogger('silent'), { stores, connection })).rejects.toThrow(/is unreachable \(14 UNAVAILABLE.*gave up after 2 s/);
  await stores.close();
});
