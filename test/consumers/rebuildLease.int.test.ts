import { hostname } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, expect, test } from 'vitest';
import { EMBEDDED_DB_FILE } from '../../src/app/stores.ts';
import { rebuildProjections } from '../../src/cli/rebuild.ts';
import { projectionUpgradeWorker } from '../../src/consumers/projectionUpgrade.ts';
import {
  REBUILD_LEASE,
  RebuildRunningError,
  withRebuildLease,
} from '../../src/consumers/rebuildLease.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { topics } from '../../projections/topics.ts';
import { eventually } from '../support/eventually.ts';
import { startInkstream, type TestInkstream } from '../support/inkstream.ts';

let server: TestInkstream | undefined;
const quiet = { progress: { stream: { write: () => true, isTTY: false } } };
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server with a topic, and a rebuild that holds the lease until `finish()`. */
async function serverWithRunningRebuild() {
  server = await startInkstream();
  const api = server.api();
  const {
    body: { project },
  } = await api.post('/projects', { name: 'Lease', websiteUrl: 'https://lease.example' });
  await api.post(`/projects/${project.id}/topics`, { title: 'One' });
  const { readStore, clock } = server.platform;
  let finish!: () => void;
  const held = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let started!: () => void;
  const holding = new Promise<void>((resolve) => {
    started = resolve;
  });
  const running = withRebuildLease(
    readStore,
    () => clock.nowMs(),
    async () => {
      started();
      await held;
      return true;
    },
  );
  await holding;
  return {
    server,
    finish: async () => {
      finish();
      await running;
    },
  };
}

test('a second rebuild while one runs is refused, naming the holder, and swaps nothing; after it ends, a rebuild runs', async () => {
  const { server, finish } = await serverWithRunningRebuild();
  const holder = (await server.platform.readStore.leaseHolder(REBUILD_LEASE))!.holder;
  const refused = rebuildProjections(server.platform, undefined, quiet);
  await expect(refused).rejects.toBeInstanceOf(RebuildRunningError);
  await expect(refused).rejects.toThrow(
    `Another rebuild of the read models is running on this store (${holder})`,
  );
  expect(await server.platform.readStore.count('topics__next').catch(() => 'never staged')).toBe(
    'never staged',
  );
  await finish();
  expect(await server.platform.readStore.leaseHolder(REBUILD_LEASE)).toBeNull();
  expect((await rebuildProjections(server.platform, undefined, quiet)).events).toBeGreaterThan(0);
});

test('a rebuild lease left by a process of this host that no longer exists is taken at once', async () => {
  server = await startInkstream();
  const { readStore, clock } = server.platform;
  const dead = `${hostname()}:2147483646:gone`;
  expect(await readStore.acquireLease(REBUILD_LEASE, dead, 60_000, clock.nowMs())).toBe(true);
  expect(
    await withRebuildLease(
      readStore,
      () => clock.nowMs(),
      async () => 'ran',
    ),
  ).toBe('ran');
  // A live holder elsewhere is not: only its lease running out frees it.
  expect(
    await readStore.acquireLease(REBUILD_LEASE, 'another-host:1:x', 60_000, clock.nowMs()),
  ).toBe(true);
  await expect(
    withRebuildLease(
      readStore,
      () => clock.nowMs(),
      async () => 'ran',
    ),
  ).rejects.toThrow('(another-host:1:x)');
});

test("the start's upgrade waits for a running rebuild to end, then builds what is still out of date", async () => {
  const { server, finish } = await serverWithRunningRebuild();
  const db = new DatabaseSync(join(server.dataDir, EMBEDDED_DB_FILE));
  db.prepare(
    `UPDATE readstore_tables SET version = 'an-older-definition' WHERE collection = 'topics'`,
  ).run();
  db.close();
  const lines: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const worker = await projectionUpgradeWorker({ retryMs: 20 }).start({
    ...server.platform,
    logger,
  });
  try {
    await eventually(
      async () => lines.join(''),
      (text) => text.includes('another rebuild is running'),
      { what: 'the upgrade to find the rebuild running' },
    );
    expect(await server.platform.readStore.onlineRebuilds.versionOf('topics')).toBe(
      'an-older-definition',
    );
    await finish();
    await eventually(
      () => server.platform.readStore.onlineRebuilds.versionOf('topics'),
      (version) => version === projectionVersion(topics),
      { what: 'the upgrade to run after it' },
    );
  } finally {
    await worker.stop();
  }
});

test('a rebuild that stalled past its lease, which another process then took, is told to stop before its swap', async () => {
  server = await startInkstream();
  const { readStore } = server.platform;
  let now = 1_000_000;
  const stopped = withRebuildLease(
    readStore,
    () => now,
    (signal) =>
      new Promise<string>((resolve) => {
        signal.addEventListener('abort', () => resolve('stopped before the swap'));
      }),
    { ttlMs: 60 },
  );
  await eventually(
    () => readStore.leaseHolder(REBUILD_LEASE),
    (lease) => lease !== null,
    { what: 'the lease taken' },
  );
  // Stalled: its lease ran out, and another process's rebuild took it.
  now += 61;
  expect(await readStore.acquireLease(REBUILD_LEASE, 'another-host:1:x', 60_000, now)).toBe(true);
  expect(await stopped).toBe('stopped before the swap');
  expect((await readStore.leaseHolder(REBUILD_LEASE))?.holder).toBe('another-host:1:x'); // its release left the other's lease alone
});
