import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { createPlatform } from '../../src/app/platform.ts';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { startInkstream } from '../support/inkstream.ts';

/** What a backup of DATA_DIR or another user on the machine would read: the database and the key are the owner's alone. */
let parent: string;
let previousUmask: number;
beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'inkstream-modes-'));
  previousUmask = process.umask(0o022); // the usual default: files 0644, folders 0755 unless asked otherwise
});
afterEach(() => {
  process.umask(previousUmask);
  rmSync(parent, { recursive: true, force: true });
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
const storeFiles = (dataDir: string) =>
  [EMBEDDED_DB_FILE, `${EMBEDDED_DB_FILE}-wal`, `${EMBEDDED_DB_FILE}-shm`, 'secret.key'].map(
    (name) => join(dataDir, name),
  );

test('a first start creates DATA_DIR 0700 and the database, its -wal and -shm, and secret.key 0600', async () => {
  const dataDir = join(parent, 'nested', 'data');
  // No INKSTREAM_SECRET_KEY: the embedded default generates secret.key beside the database.
  const app = await startInkstream({ env: { DATA_DIR: dataDir, INKSTREAM_SECRET_KEY: '' } });
  try {
    expect(
      (await app.api().post('/projects', { name: 'Modes', websiteUrl: 'https://example.com' }))
        .status,
    ).toBe(201);
    expect(modeOf(dataDir).toString(8)).toBe('700');
    for (const file of storeFiles(dataDir)) {
      expect(existsSync(file), file).toBe(true);
      expect(modeOf(file).toString(8), file).toBe('600');
    }
  } finally {
    await app.close();
  }
});

test('an existing store readable by others is tightened to 0600 at start, with a log line naming each file', async () => {
  const dataDir = join(parent, 'data');
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  await (await createPlatform(config, createLogger('silent'))).close();
  const loose = storeFiles(dataDir).filter(existsSync);
  expect(loose.length).toBeGreaterThanOrEqual(2);
  for (const file of loose) chmodSync(file, 0o644);

  const lines: { msg: string; path?: string; previousMode?: string }[] = [];
  const logger = createLogger('info', {
    write: (line: string) => {
      lines.push(JSON.parse(line));
    },
  });
  await (await createPlatform(config, logger)).close();
  for (const file of loose) expect(modeOf(file).toString(8), file).toBe('600');
  const tightened = lines.filter((line) => line.msg.startsWith('tightened a file in DATA_DIR'));
  expect(tightened.map((line) => line.path).sort()).toEqual([...loose].sort());
  expect(tightened.every((line) => line.previousMode === '644')).toBe(true);
});

test('an existing DATA_DIR keeps the mode its operator gave it', async () => {
  const dataDir = join(parent, 'shared');
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
  });
  mkdirSync(dataDir, { mode: 0o750 });
  await (await createPlatform(config, createLogger('silent'))).close();
  expect(modeOf(dataDir).toString(8)).toBe('750');
  expect(modeOf(join(dataDir, EMBEDDED_DB_FILE)).toString(8)).toBe('600');
});
