import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';

const MAIN = join(import.meta.dirname, '../../src/main.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** `npm start` as a user runs it, on a fresh DATA_DIR; resolves with its URL and first-start key. */
function start(dataDir: string): Promise<{
  child: ChildProcess;
  url: string;
  key: string | null;
  exited: Promise<number | null>;
}> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
      if (url) resolve({ child, url, key: /(ink_[0-9A-Za-z]+)/.exec(out)?.[1] ?? null, exited });
    });
    child.on('error', reject);
    void exited.then((code) => reject(new Error(`exited with ${code} before listening`)));
  });
}

test('a first start prints a working key; SIGTERM with requests in flight answers them all, exits 0, and loses none', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ink-server-'));
  const first = await start(dataDir);
  expect(first.key).toMatch(/^ink_/);
  expect(await (await fetch(`${first.url}/healthz`)).json()).toEqual({ ok: true });
  expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
  const headers = { authorization: `Bearer ${first.key}`, 'content-type': 'application/json' };

  const inFlight = Array.from({ length: 40 }, (_, i) =>
    fetch(`${first.url}/api/v1/projects`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: `Site ${i}`, websiteUrl: `https://site-${i}.example` }),
    }).then(
      (response) => response.status,
      () => 'refused' as const,
    ),
  );
  await new Promise((resolve) => setImmediate(resolve));
  first.child.kill('SIGTERM');
  const statuses = await Promise.all(inFlight);
  expect(await first.exited).toBe(0);
  // Every request the server took in was answered in full; any it had stopped accepting was refused, never cut.
  expect(statuses.every((status) => status === 201 || status === 'refused')).toBe(true);
  const created = statuses.filter((status) => status === 201).length;
  expect(created).toBeGreaterThan(0);

  const second = await start(dataDir);
  expect(second.key).toBeNull(); // not a first start any more
  const listed = (await (
    await fetch(`${second.url}/api/v1/projects?limit=200`, { headers })
  ).json()) as { projects: unknown[] };
  expect(listed.projects).toHaveLength(created);
}, 30_000);
