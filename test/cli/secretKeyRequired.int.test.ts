import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';

/**
 * With the production stores every replica and every CLI run must open the same sealed secrets,
 * so a start without INKSTREAM_SECRET_KEY is refused by the configuration, before any store is
 * opened or connected to (nothing listens at these URLs, and DATA_DIR is never created).
 */
const ROOT = join(import.meta.dirname, '..', '..');
const parent = mkdtempSync(join(tmpdir(), 'inkstream-keyless-'));
afterAll(() => rmSync(parent, { recursive: true, force: true }));

function run(
  entry: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string }> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(INKSTREAM_|EVENTSTORE_URL|MONGODB_URL|DATA_DIR)/.test(name),
    ),
  );
  const child = spawn(process.execPath, [join(ROOT, entry), ...args], {
    env: { ...base, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stderr })));
}

test.each([
  [
    'the CLI with MONGODB_URL',
    'src/cli.ts',
    ['keys', 'list', '--account', 'acme'],
    { MONGODB_URL: 'mongodb://127.0.0.1:9/inkstream' },
    'MONGODB_URL',
  ],
  [
    'the server with EVENTSTORE_URL',
    'src/main.ts',
    [],
    { EVENTSTORE_URL: 'esdb://127.0.0.1:9?tls=false' },
    'EVENTSTORE_URL',
  ],
  [
    'the server with both stores',
    'src/main.ts',
    [],
    {
      EVENTSTORE_URL: 'esdb://127.0.0.1:9?tls=false',
      MONGODB_URL: 'mongodb://127.0.0.1:9/inkstream',
    },
    'EVENTSTORE_URL and MONGODB_URL',
  ],
])(
  '%s and no INKSTREAM_SECRET_KEY refuses to start, naming the variable, and touches nothing',
  async (_name, entry, args, stores, named) => {
    const dataDir = join(parent, `data-${entry.replace(/\W/g, '')}-${named.length}`);
    const { code, stderr } = await run(entry, args, { ...stores, DATA_DIR: dataDir });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`INKSTREAM_SECRET_KEY is required when ${named}`);
    expect(stderr).toContain('openssl rand -base64 32');
    expect(existsSync(dataDir)).toBe(false);
  },
);

test('a key that is not 32 bytes, or a retired key list with one, is refused at start whatever the store', async () => {
  const short = await run('src/cli.ts', ['keys', 'list', '--account', 'acme'], {
    DATA_DIR: join(parent, 'short'),
    INKSTREAM_SECRET_KEY: 'c2hvcnQ=',
  });
  expect(short.code).not.toBe(0);
  expect(short.stderr).toContain('INKSTREAM_SECRET_KEY: must be 32 bytes');
  const retired = await run('src/cli.ts', ['keys', 'list', '--account', 'acme'], {
    DATA_DIR: join(parent, 'retired'),
    INKSTREAM_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
    INKSTREAM_SECRET_KEYS_RETIRED: `${Buffer.alloc(32, 2).toString('base64')},abc`,
  });
  expect(retired.code).not.toBe(0);
  expect(retired.stderr).toContain('INKSTREAM_SECRET_KEYS_RETIRED: each key must be 32 bytes');
  expect(existsSync(join(parent, 'short'))).toBe(false);
});
