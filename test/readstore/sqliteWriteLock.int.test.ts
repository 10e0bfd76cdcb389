import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, expect, test } from 'vitest';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';

// Another process on the file (an online rebuild from the CLI) holding the write lock must not
// stop a server's event loop: its commits and lease renewals wait for the lock on a timer.
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function lockedStore() {
  const dir = mkdtempSync(join(tmpdir(), 'inkstream-writelock-'));
  dirs.push(dir);
  const path = join(dir, 'inkstream.sqlite');
  const store = openSqliteReadStore(path);
  await store.ensureCollections([{ name: 'topics', indexes: [] }]);
  const other = new DatabaseSync(path);
  other.exec('BEGIN IMMEDIATE');
  return {
    store,
    release: () => {
      other.exec('COMMIT');
      other.close();
    },
  };
}

const turnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

test('a lease renewal while another connection holds the write lock leaves the event loop free, and lands once the lock is free', async () => {
  const { store, release } = await lockedStore();
  let settled = false;
  const renewal = store.acquireLease('background', 'server-1', 15_000, 1_000).finally(() => {
    settled = true;
  });
  await turnOfTheEventLoop();
  expect(settled).toBe(false);
  release();
  expect(await renewal).toBe(true);
  expect(await store.leaseHolder('background')).toEqual({
    holder: 'server-1',
    expiresAtMs: 16_000,
  });
  await store.close();
});

test('a projection commit while another connection holds the write lock waits without blocking, then lands with its checkpoint', async () => {
  const { store, release } = await lockedStore();
  let settled = false;
  const committed = store
    .commit(
      [
        {
          kind: 'put',
          collection: 'topics',
          id: 't1',
          doc: { id: 't1', title: 'A' },
          position: 7n,
        },
      ],
      { consumer: 'projections', position: 7n },
    )
    .finally(() => {
      settled = true;
    });
  await turnOfTheEventLoop();
  expect(settled).toBe(false);
  expect(await store.get('topics', 't1')).toBeNull();
  release();
  await committed;
  expect(await store.get('topics', 't1')).toMatchObject({ title: 'A' });
  expect(await store.getCheckpoint('projections')).toBe(7n);
  await store.close();
});

test('declaring read models while another process holds the write lock (a second server starting beside a busy leader) waits without blocking, then creates them', async () => {
  const { store, release } = await lockedStore();
  let settled = false;
  const declared = store
    .ensureCollections([{ name: 'articles', indexes: [{ projectId: 1, createdAt: -1 }] }])
    .finally(() => {
      settled = true;
    });
  await turnOfTheEventLoop();
  expect(settled).toBe(false);
  release();
  await declared;
  await store.commit(
    [
      {
        kind: 'put',
        collection: 'articles',
        id: 'a1',
        doc: { id: 'a1', projectId: 'p1', createdAt: '2026-01-01' },
        position: 3n,
      },
    ],
    { consumer: 'projections', position: 3n },
  );
  expect(await store.get('articles', 'a1')).toMatchObject({ projectId: 'p1' });
  await store.close();
});
