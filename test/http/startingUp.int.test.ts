import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createApiKey } from '../../src/features/accounts/keys.ts';
import { loadConfig } from '../../src/core/config.ts';
import { createLogger } from '../../src/core/logger.ts';
import { startServer } from '../../src/app/start.ts';
import { createStoreConnection } from '../../src/app/storeConnection.ts';
import { parseResponse, rawConnection } from '../support/rawHttp.ts';
import { standIn, unavailable } from '../support/unavailableStores.ts';

const dir = mkdtempSync(join(tmpdir(), 'ink-starting-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const config = loadConfig({
  PORT: '0',
  HOST: '127.0.0.1',
  DATA_DIR: dir,
  LOG_LEVEL: 'silent',
  INKSTREAM_SECRET_KEY: Buffer.alloc(32, 6).toString('base64'),
});

/**
 * A server whose event log is unreachable at first. Its start-up waits are held by the test, so
 * the store stays "connecting" until `reachStores()` lets the next attempt through (no sleeping).
 */
async function startWhileStoresAreDown() {
  const { stores, log } = standIn(dir, 1, unavailable);
  let firstWait!: () => void;
  const waiting = new Promise<void>((resolve) => {
    firstWait = resolve;
  });
  let endWait!: () => void;
  const connection = createStoreConnection({
    wait: () =>
      new Promise<void>((resolve) => {
        endWait = resolve;
        firstWait();
      }),
  });
  let listening!: (url: string) => void;
  const bound = new Promise<string>((resolve) => {
    listening = resolve;
  });
  const started = startServer(config, createLogger('silent'), {
    stores,
    connection,
    onListening: listening,
    announce: () => {},
  });
  const url = await bound;
  await waiting;
  return { url, log, started, reachStores: () => endWait() };
}

test('while the stores are unreachable the API answers 503 unavailable with Retry-After, reads no upload and appends nothing; readiness names no error', async () => {
  const { url, log, started, reachStores } = await startWhileStoresAreDown();
  try {
    // A 1 MB upload with a made-up key: answered at once, its body not waited for.
    const upload = rawConnection(url);
    await upload.ready;
    upload.socket.write(
      `POST /api/v1/projects HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ink_made_up\r\nContent-Type: application/json\r\nContent-Length: ${1024 * 1024}\r\n\r\n{"name":`,
    );
    const refused = parseResponse(await upload.answer);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    expect(JSON.parse(refused.body).error.code).toBe('unavailable');

    const api = await fetch(`${url}/api/v1/projects`, {
      headers: { authorization: 'Bearer ink_made_up' },
    });
    expect(api.status).toBe(503);
    expect(api.headers.get('retry-after')).toBe('5');
    expect(api.headers.get('cache-control')).toBe('no-store');
    const { error } = (await api.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('unavailable');
    expect(error.message).not.toMatch(/UNAVAILABLE|stand-in/);

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    const readiness = await ready.text();
    expect(JSON.parse(readiness)).toEqual({
      ok: false,
      role: 'standby',
      checks: { stores: 'connecting' },
      background: {},
    });
    expect(readiness).not.toMatch(/UNAVAILABLE|connection established|stand-in/);
    expect(await log.headPosition()).toBe(-1n);
  } finally {
    reachStores();
    await (await started).stop();
  }
});

test('the process is alive while the stores connect, then ready, and the API serves once they are open', async () => {
  const { url, started, reachStores } = await startWhileStoresAreDown();
  const alive = await fetch(`${url}/healthz`);
  expect(alive.status).toBe(200);
  expect(await alive.json()).toEqual({ ok: true });
  expect((await fetch(`${url}/healthz/`, { method: 'HEAD' })).status).toBe(200);
  expect((await fetch(`${url}/readyz`)).status).toBe(503);

  reachStores();
  const running = await started;
  try {
    expect(running.url).toBe(url);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: unknown }).checks).toMatchObject({
      eventStore: 'ok',
      readStore: 'ok',
    });
    const { key } = await createApiKey(running.platform, { account: 'starting' });
    const created = await fetch(`${url}/api/v1/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the wait', websiteUrl: 'https://example.com' }),
    });
    expect(created.status).toBe(201);
  } finally {
    await running.stop();
  }
});
