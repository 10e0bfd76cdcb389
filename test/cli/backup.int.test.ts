import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { afterAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import { startServer, type RunningServer } from '../../src/app/start.ts';

const run = promisify(execFile);
const CLI = join(import.meta.dirname, '../../bin/inkstream.js');
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ink-backup-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A server as `npm start` runs it on the embedded default: no INKSTREAM_SECRET_KEY, so it generates DATA_DIR/secret.key. */
async function startEmbedded(dataDir: string): Promise<RunningServer> {
  return await startServer(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    createLogger('silent'),
    { announce: () => {} },
  );
}

function cli(args: string[], dataDir: string, extra: Record<string, string> = {}) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    ...extra,
  };
  if (!('INKSTREAM_SECRET_KEY' in extra)) delete env.INKSTREAM_SECRET_KEY;
  return run(process.execPath, [CLI, ...args], { env, cwd: freshDir() });
}

test('restore refuses what is not an Inkstream backup and leaves the store as it was', async () => {
  const dataDir = freshDir();
  await cli(['init'], dataDir);
  const before = readFileSync(join(dataDir, 'inkstream.sqlite'));
  const text = join(dataDir, 'notes.txt');
  writeFileSync(text, 'DATA_DIR=/elsewhere\n');
  const plain = join(dataDir, 'plain.sqlite');
  new DatabaseSync(plain).exec('CREATE TABLE events (position INTEGER PRIMARY KEY)');
  const files = [text, plain, join(dataDir, 'missing.sqlite')];
  for (const failed of await Promise.all(
    files.map((file) => cli(['restore', file], dataDir).catch((error) => error)),
  )) {
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/is not an Inkstream backup|does not exist/);
  }
  expect(readFileSync(join(dataDir, 'inkstream.sqlite'))).toEqual(before);
}, 90_000);

test('a backup taken while the server takes writes restores, on a new machine, every write acknowledged before it and the key to its secrets', async () => {
  const dataDir = freshDir();
  const server = await startEmbedded(dataDir);
  const { key } = await createApiKey(server.platform, { account: 'backed-up' });
  const backupFile = join(freshDir(), 'inkstream.backup');
  const originalKey = readFileSync(join(dataDir, 'secret.key'), 'utf8');
  const createProject = async (n: number) => {
    const response = await fetch(`${server.url}/api/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `p${n}`, websiteUrl: `https://p${n}.example` }),
    });
    return {
      status: response.status,
      body: (await response.json()) as { project: { id: string } },
    };
  };
  let writing = true;
  const acknowledged: string[] = [];
  const writes = (async () => {
    for (let n = 0; writing; n++) {
      const created = await createProject(n);
      expect(created.status).toBe(201);
      acknowledged.push(created.body.project.id);
    }
  })();
  try {
    while (acknowledged.length < 5) await new Promise((resolve) => setImmediate(resolve));
    const beforeBackup = acknowledged.length;
    const { stdout } = await cli(['backup', backupFile], dataDir);
    const afterBackup = acknowledged.length;
    writing = false;
    await writes;
    expect(stdout).toContain(`to ${backupFile}`);
    expect(afterBackup).toBeGreaterThan(beforeBackup); // the server kept taking writes meanwhile
    expect(statSync(backupFile).mode & 0o777).toBe(0o600);
    const overwrite = await cli(['backup', backupFile], dataDir).catch((error) => error);
    expect(overwrite.stderr).toContain('already exists');

    const refused = await cli(['restore', backupFile], dataDir).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('A server is running on');

    await server.stop();
    const newMachine = join(freshDir(), 'data');
    const restored = await cli(['restore', backupFile], newMachine);
    expect(restored.stdout).toContain(`into ${join(newMachine, 'inkstream.sqlite')}`);
    expect(readFileSync(join(newMachine, 'secret.key'), 'utf8')).toBe(originalKey);
    expect(statSync(join(newMachine, 'secret.key')).mode & 0o777).toBe(0o600);

    const again = await startEmbedded(newMachine);
    try {
      const listed = await fetch(`${again.url}/api/v1/projects?limit=200`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(listed.status).toBe(200);
      const ids = new Set(
        ((await listed.json()) as { projects: { id: string }[] }).projects.map(
          (project) => project.id,
        ),
      );
      for (const id of acknowledged.slice(0, beforeBackup)) expect(ids.has(id)).toBe(true);
      expect(ids.size).toBeLessThanOrEqual(afterBackup);
    } finally {
      await again.stop();
    }
  } finally {
    writing = false;
    await writes.catch(() => {});
    await server.stop();
  }
}, 120_000);

test('with the secret key from the environment, the backup says so and leaves it out; restore says the key is needed', async () => {
  const dataDir = freshDir();
  const key = Buffer.alloc(32, 9).toString('base64');
  await cli(['init'], dataDir, { INKSTREAM_SECRET_KEY: key });
  const backupFile = join(dataDir, 'b.backup');
  const { stdout } = await cli(['backup', backupFile], dataDir, { INKSTREAM_SECRET_KEY: key });
  expect(stdout).toContain('comes from INKSTREAM_SECRET_KEY and is not in the backup');
  expect(readFileSync(backupFile).includes(Buffer.from(key))).toBe(false);
  const target = join(dataDir, 'restored');
  const restored = await cli(['restore', backupFile], target);
  expect(restored.stdout).toContain('holds no secret key');
  expect(existsSync(join(target, 'secret.key'))).toBe(false);
}, 60_000);
