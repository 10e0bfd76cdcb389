import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { createPlatform } from '../../src/app/platform.ts';
import { createStoreConnection } from '../../src/app/storeConnection.ts';
import { standIn, unavailable } from '../support/unavailableStores.ts';

const dir = mkdtempSync(join(tmpdir(), 'ink-connect-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadConfig({
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  INKSTREAM_SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
});

test('a failure that waiting cannot fix (access denied) stops the start at once, without waiting', async () => {
  const { stores, contacts } = standIn(dir, 1, () =>
    Object.assign(new Error('Access denied for $all'), { type: 'access-denied' }),
  );
  const waits: number[] = [];
  const connection = createStoreConnection({
    wait: async (ms) => {
      waits.push(ms);
    },
  });
  await expect(
    createPlatform(config, createLogger('silent'), { stores, connection }),
  ).rejects.toThrow('Access denied');
  expect(waits).toEqual([]);
  expect(contacts()).toBe(1);
  expect(connection.state).toBe('connecting');
  await stores.close();
});

test('a store unavailable at first is waited for with growing delays, reported as connecting meanwhile, then serves', async () => {
  const { stores, contacts } = standIn(dir, 4, unavailable);
  const seen: Array<{ ms: number; state: string; lastError: string | null }> = [];
  const connection = createStoreConnection({
    wait: async (ms) => {
      seen.push({ ms, state: connection.state, lastError: connection.lastError });
    },
  });
  const platform = await createPlatform(config, createLogger('silent'), { stores, connection });
  try {
    expect(seen.map((wait) => wait.ms)).toEqual([250, 500, 1_000, 2_000]);
    expect(
      seen.every((wait) => wait.state === 'connecting' && wait.lastError?.includes('UNAVAILABLE')),
    ).toBe(true);
    expect(contacts()).toBe(5);
    expect(connection.state).toBe('ok');
    expect((await createApiKey(platform, { account: 'patient' })).key).toMatch(/^ink_/);
  } finally {
    await platform.close();
  }
});

test('with a limit (the admin CLI), it gives up and says the store is unreachable', async () => {
  const { stores } = standIn(dir, Number.POSITIVE_INFINITY, unavailable);
  let now = 0;
  const connection = createStoreConnection({
    giveUpAfterMs: 3_000,
    nowMs: () => now,
    wait: async (ms) => {
      now += ms;
    },
  });
  await expect(
    createPlatform(config, createLogger('silent'), { stores, connection }),
  ).rejects.toThrow(/is unreachable \(14 UNAVAILABLE.*gave up after 2 s/);
  await stores.close();
});

test('an embedded store whose write lock another process holds (a leader catching up, a rebuild from the CLI) is waited for, not a reason to exit', async () => {
  const locked = () =>
    Object.assign(new Error('database is locked'), {
      code: 'ERR_SQLITE_ERROR',
      errcode: 5,
      errstr: 'database is locked',
    });
  const { stores } = standIn(dir, 2, locked);
  const waits: number[] = [];
  const connection = createStoreConnection({
    wait: async (ms) => {
      waits.push(ms);
    },
  });
  const platform = await createPlatform(config, createLogger('silent'), { stores, connection });
  try {
    expect(waits).toEqual([250, 500]);
    expect(connection.state).toBe('ok');
  } finally {
    await platform.close();
  }
});
