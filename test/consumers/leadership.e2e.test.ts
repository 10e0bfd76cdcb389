import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { eventually } from '../support/eventually.ts';

const MAIN = join(import.meta.dirname, '../../src/main.ts');
const children: ChildProcess[] = [];
afterEach(() => { for (const child of children.splice(0)) child.kill('SIGKILL'); });

/** A real `npm start` equivalent on a shared DATA_DIR; resolves with its URL once it listens. */
function startProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', INKSTREAM_LEASE_TTL_MS: '600' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(buffered);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
  });
}

const readiness = async (url: string) => (await fetch(`${url}/readyz`)).json() as Promise<{ ok: boolean; checks: Record<string, string> }>;
const runsBackground = (checks: Record<string, string>) => checks.background === 'ok' && Object.keys(checks).some((name) => name.startsWith('consumer:pipeline.'));

test('two processes on one store: only one runs the background work, and the other takes over when it is killed', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-leader-'));
  const first = await startProcess(dataDir);
  const second = await startProcess(dataDir);
  await eventually(() => readiness(first.url), (r) => runsBackground(r.checks), { what: 'the first process to lead' });
  const standby = await readiness(second.url);
  expect(standby.checks.background).toMatch(/standby/);
  expect(Object.keys(standby.checks).some((name) => name.startsWith('consumer:pipeline.'))).toBe(false);
  expect(standby.checks['consumer:projections']).toBe('ok');

  first.child.kill('SIGKILL');
  await eventually(() => readiness(second.url), (r) => runsBackground(r.checks), { what: 'the second process to take over', timeoutMs: 10_000 });
}, 30_000);
