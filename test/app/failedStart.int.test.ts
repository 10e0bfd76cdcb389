import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { startServer } from '../../src/app/start.ts';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { SIGN_IN_THROTTLE_FILE } from '../../src/features/application/signInThrottleStore.ts';

/** A start that fails part-way must leave nothing running or open: the same data can be started again at once. */
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ink-failed-start-'));
  dirs.push(dir);
  return dir;
}

const configFor = (dir: string, env: Record<string, string> = {}) =>
  loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
    ...env,
  });
const start = (dir: string, env?: Record<string, string>) =>
  startServer(configFor(dir, env), createLogger('silent'), { announce: () => {} });

test('when the sign-in throttle cannot open its file, the start fails and stops the background work and the stores it had started', async () => {
  const dir = dataDir();
  mkdirSync(join(dir, SIGN_IN_THROTTLE_FILE)); // a directory where the counters' SQLite file belongs
  await expect(start(dir)).rejects.toThrow();
  expect(existsSync(join(dir, `${EMBEDDED_DB_FILE}-wal`))).toBe(false); // the last connection to the store closed

  rmSync(join(dir, SIGN_IN_THROTTLE_FILE), { recursive: true });
  const again = await start(dir);
  try {
    // The failed start's background released its lease: this start runs the background work at once.
    expect(again.background.isLeader()).toBe(true);
  } finally {
    await again.stop();
  }
}, 60_000);

test('when the secret key file cannot be read, the start fails and closes the stores it had opened', async () => {
  const dir = dataDir();
  mkdirSync(join(dir, 'secret.key')); // a directory where the key file belongs
  await expect(start(dir, { INKSTREAM_SECRET_KEY: '' })).rejects.toThrow();
  expect(existsSync(join(dir, `${EMBEDDED_DB_FILE}-wal`))).toBe(false);
}, 60_000);
