import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'bin/inkstream.js');

/** The environment of a user's shell: no store configured unless the test says so. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent', ...extra };
  for (const name of ['DATA_DIR', 'EVENTSTORE_URL', 'MONGODB_URL'])
    if (!(name in extra)) delete env[name];
  return env;
}

const cli = (cwd: string, args: string[], extra: Record<string, string> = {}) =>
  run(process.execPath, [CLI, ...args], { cwd, env: userEnv(extra) });

let server: TestInkstream;
const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ink-cli-config-'));
  dirs.push(dir);
  return dir;
};
beforeAll(async () => {
  server = await startInkstream();
});
afterAll(async () => {
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

test("without the server's DATA_DIR, keys create refuses, names where it looked, and creates no second store", async () => {
  const cwd = freshDir();
  const failed = await cli(cwd, ['keys', 'create', '--account', 'acme', '--json']).catch(
    (error) => error,
  );
  expect(failed.code).toBe(1);
  expect(failed.stdout).toBe('');
  expect(failed.stderr).toContain(
    `No Inkstream store in SQLite ${join(cwd, 'data', 'inkstream.sqlite')}`,
  );
  expect(failed.stderr).toContain('DATA_DIR=./data');
  expect(failed.stderr).toContain('inkstream init');
  expect(existsSync(join(cwd, 'data'))).toBe(false);
});

test('a DATA_DIR that names no store is refused the same way, for every command', async () => {
  const cwd = freshDir();
  const commands = [
    ['keys', 'list', '--account', 'acme'],
    ['projections', 'rebuild'],
    ['events', 'verify'],
  ];
  const failures = await Promise.all(
    commands.map((args) => cli(cwd, args, { DATA_DIR: join(cwd, 'typo') }).catch((error) => error)),
  );
  for (const failed of failures) {
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(`DATA_DIR=${join(cwd, 'typo')}`);
  }
  expect(existsSync(join(cwd, 'typo'))).toBe(false);
}, 60_000);

test("a .env in the working directory points the CLI at the server's store: the key it makes works, --json stays clean", async () => {
  const cwd = freshDir();
  writeFileSync(join(cwd, '.env'), `# the server's settings\nDATA_DIR=${server.dataDir}\n`);
  const { stdout, stderr } = await cli(cwd, ['keys', 'create', '--account', 'dotenv', '--json']);
  const issued = JSON.parse(stdout);
  expect(stderr).toContain(`inkstream: store SQLite ${join(server.dataDir, 'inkstream.sqlite')}`);
  expect(stderr).toContain(join(cwd, '.env'));
  expect((await server.api(issued.key).get('/projects')).status).toBe(200);
});

test('a variable set in the environment wins over the .env file', async () => {
  const cwd = freshDir();
  writeFileSync(join(cwd, '.env'), `DATA_DIR=${join(cwd, 'not-the-store')}\n`);
  const { stdout, stderr } = await cli(cwd, ['keys', 'list', '--account', 'dotenv', '--json'], {
    DATA_DIR: server.dataDir,
  });
  expect(JSON.parse(stdout)).toHaveLength(1);
  expect(stderr).toContain(server.dataDir);
  expect(existsSync(join(cwd, 'not-the-store'))).toBe(false);
});

test('inkstream init creates a store, after which commands use it; a second init changes nothing', async () => {
  const cwd = freshDir();
  const created = await cli(cwd, ['init']);
  expect(created.stdout).toContain('Created a new, empty store');
  expect(created.stderr).toContain(join(cwd, 'data', 'inkstream.sqlite'));
  const { stdout } = await cli(cwd, ['keys', 'create', '--account', 'acme', '--json']);
  expect(JSON.parse(stdout).account).toBe('acme');
  expect((await cli(cwd, ['init'])).stdout).toContain('already exists');
}, 60_000);

test('npm start on a fresh machine still creates its store, where the .env says', async () => {
  const cwd = freshDir();
  writeFileSync(join(cwd, '.env'), 'DATA_DIR=./store\nPORT=0\nHOST=127.0.0.1\n');
  const child = spawn(process.execPath, [join(ROOT, 'src/main.ts')], {
    cwd,
    env: userEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('First start')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`the server exited with ${code}: ${out}`)));
    });
    expect(existsSync(join(cwd, 'store', 'inkstream.sqlite'))).toBe(true);
  } finally {
    child.kill('SIGTERM');
  }
}, 60_000);
