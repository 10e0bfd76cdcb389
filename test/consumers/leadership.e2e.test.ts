import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { eventually } from '../support/eventually.ts';

const MAIN = join(import.meta.dirname, '../../src/main.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A real `npm start` equivalent on a shared DATA_DIR; resolves with its URL once it listens. */
function startProcess(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        INKSTREAM_LEASE_TTL_MS: '600',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let buffered = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const match = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(buffered);
      if (match) resolve({ child, url: match[1] });
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      reject(new Error(`exited with ${code} before listening:\n${buffered.slice(-4000)}`)),
    );
  });
}

type Readiness = {
  status: number;
  ok: boolean;
  role: string;
  checks: Record<string, string>;
  background: Record<string, string>;
};
const readiness = async (url: string): Promise<Readiness> => {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, ...((await response.json()) as Omit<Readiness, 'status'>) };
};
const runsBackground = (r: Readiness) =>
  r.role === 'leader' &&
  Object.keys(r.background).some((name) => name.startsWith('consumer:pipeline.'));

test('two processes on one store: both are ready and say their role, only the leader runs the background work, and the standby takes over when it is killed', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-leader-'));
  const first = await startProcess(dataDir);
  const second = await startProcess(dataDir);
  const leader = await eventually(() => readiness(first.url), runsBackground, {
    what: 'the first process to lead',
  });
  const standby = await readiness(second.url);
  // Both serve the API, so both are ready: a readiness probe keeps the standby in rotation.
  expect(leader).toMatchObject({ status: 200, ok: true, role: 'leader' });
  expect(standby).toMatchObject({ status: 200, ok: true, role: 'standby', background: {} });
  expect(standby.checks).toEqual({
    eventStore: 'ok',
    readStore: 'ok',
    'consumer:projections': 'ok',
  });

  first.child.kill('SIGKILL');
  const promoted = await eventually(() => readiness(second.url), runsBackground, {
    what: 'the second process to take over',
    timeoutMs: 10_000,
  });
  expect(promoted).toMatchObject({ status: 200, ok: true, role: 'leader' });
}, 30_000);
