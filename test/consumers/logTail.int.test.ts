import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createLogTail } from '../../src/consumers/logTail.ts';
import type { EventStore, NewEvent } from '../../src/eventstore/port.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';

const event = (n: number): NewEvent => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  type: 'Ticked',
  data: { n },
  metadata: {
    accountId: 'acc',
    actor: { kind: 'system', worker: 'test' },
    correlationId: 'c',
    causationId: 'c',
    requestId: 'r',
  },
});

/** Counts the store's log reads, to see who pays for them. */
function counting(store: EventStore) {
  const counted = { reads: 0 };
  const wrapped: EventStore = {
    ...store,
    readAll: (options) => {
      counted.reads++;
      return store.readAll(options);
    },
  };
  return Object.assign(counted, { store: wrapped });
}

function file() {
  return join(mkdtempSync(join(tmpdir(), 'ink-tail-')), 'inkstream.sqlite');
}

async function appendMany(store: EventStore, from: number, to: number) {
  for (let n = from; n < to; n++)
    await store.append(`${n % 2 ? 'odd' : 'even'}-${n}`, [event(n)], 'no_stream');
}

test("this process's appends reach every reader, each with its own categories, without a read of the log", async () => {
  const store = openSqliteEventStore(file());
  await appendMany(store, 0, 4);
  const log = counting(store);
  const tail = await createLogTail(log.store);
  await appendMany(store, 4, 8);
  const share = { shareCommit: true };
  await Promise.all([
    // one group commit, with a two-event append in it
    store.append('even-8', [event(8)], 'no_stream', share),
    store.append('odd-9', [event(9), event(11)], 'no_stream', share),
  ]);

  const readers = await Promise.all([
    tail.read(3n, undefined, 100, false),
    tail.read(3n, ['odd'], 100, false),
    tail.read(3n, ['even'], 2, false),
  ]);
  expect(log.reads).toBe(0);
  expect(readers[0].events).toEqual(await store.readAll({ after: 3n })); // as a read of the log gives them
  expect(readers[0].events.map((e) => [e.data.n, e.stream, e.revision])).toEqual([
    [4, 'even-4', 0n],
    [5, 'odd-5', 0n],
    [6, 'even-6', 0n],
    [7, 'odd-7', 0n],
    [8, 'even-8', 0n],
    [9, 'odd-9', 0n],
    [11, 'odd-9', 1n],
  ]);
  expect(readers[1].events.map((e) => e.data.n)).toEqual([5, 7, 9, 11]);
  expect(readers[2].events.map((e) => e.data.n)).toEqual([4, 6]); // the first two, then the caller reads on
  expect(readers.map((read) => read.through)).toEqual([10n, 10n, 10n]);
  tail.stop();
  await store.close();
});

test("an append after another process's reads the log once, for both processes' events", async () => {
  const path = file();
  const store = openSqliteEventStore(path);
  const otherProcess = openSqliteEventStore(path);
  const log = counting(store);
  const tail = await createLogTail(log.store);
  await appendMany(store, 0, 2);
  await appendMany(otherProcess, 2, 3);
  await appendMany(store, 3, 4);

  const readers = await Promise.all([
    tail.read(-1n, undefined, 100, false),
    tail.read(-1n, ['odd'], 100, false),
  ]);
  expect(log.reads).toBe(1);
  expect(readers[0].events.map((e) => e.data.n)).toEqual([0, 1, 2, 3]);
  expect(readers[1].events.map((e) => e.data.n)).toEqual([1, 3]);
  tail.stop();
  await otherProcess.close();
  await store.close();
});

test('appends of another process are seen on a fresh read, and a reader behind the tail reads the store itself', async () => {
  const path = file();
  const store = openSqliteEventStore(path);
  const otherProcess = openSqliteEventStore(path); // its appends notify nobody here
  await appendMany(store, 0, 3);
  const tail = await createLogTail(store, { capacity: 2 });
  await appendMany(otherProcess, 3, 5);

  expect((await tail.read(2n, undefined, 100, false)).events).toEqual([]); // nothing told it yet
  const fresh = await tail.read(2n, undefined, 100, true);
  expect(fresh.events.map((e) => e.data.n)).toEqual([3, 4]);
  expect(fresh.through).toBe(4n);

  await appendMany(store, 5, 10); // more than twice the capacity since the tail began: the oldest are dropped
  expect((await tail.read(8n, undefined, 100, false)).events.map((e) => e.data.n)).toEqual([9]);
  const behind = await tail.read(-1n, ['odd'], 100, false);
  expect(behind.events.map((e) => e.data.n)).toEqual([1, 3, 5, 7, 9]);
  expect(behind.through).toBe(9n);
  tail.stop();
  await otherProcess.close();
  await store.close();
});

test('the tail holds the newest events up to a byte bound: big events (drafts carry their MDX) push old ones out, which are read from the store', async () => {
  const store = openSqliteEventStore(file());
  const log = counting(store);
  const tail = await createLogTail(log.store, { capacity: 10_000, maxBytes: 1_000_000 });
  const draft = 'x'.repeat(100_000);
  for (let n = 0; n < 40; n++)
    await store.append(`big-${n}`, [{ ...event(n), data: { n, mdx: draft } }], 'no_stream');
  expect(tail.heldBytes()).toBeLessThanOrEqual(2_000_000);
  expect(tail.heldBytes()).toBeGreaterThanOrEqual(900_000);

  log.reads = 0;
  const newest = await tail.read(37n, undefined, 10, false);
  expect(newest.events.map((e) => e.data.n)).toEqual([38, 39]);
  expect(log.reads).toBe(0);

  const oldest = await tail.read(-1n, undefined, 3, false);
  expect(oldest.events.map((e) => e.data.n)).toEqual([0, 1, 2]);
  expect(log.reads).toBe(1);
  tail.stop();
  await store.close();
});
