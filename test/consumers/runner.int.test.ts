import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, expect, test } from 'vitest';
import { startConsumer, type ConsumerHandle } from '../../src/consumers/runner.ts';
import { eventHandlerConsumer } from '../../src/consumers/define.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import type { NewEvent, StoredEvent } from '../../src/eventstore/port.ts';
import { openSqliteReadStore } from '../../src/readstore/sqlite.ts';

const logger = pino({ level: 'silent' });
const running: ConsumerHandle[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((handle) => handle.stop()));
});

function stores() {
  const file = join(mkdtempSync(join(tmpdir(), 'ink-runner-')), 'inkstream.sqlite');
  return { store: openSqliteEventStore(file), readStore: openSqliteReadStore(file) };
}

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

test('a consumer wakes on an append in this process without waiting for its poll interval', async () => {
  const { store, readStore } = stores();
  const seen: number[] = [];
  const handle = await startConsumer(
    {
      name: 'watcher',
      handleBatch: async (events) => {
        seen.push(...events.map((e) => Number(e.data.n)));
        await readStore.commit([], { consumer: 'watcher', position: events.at(-1)!.position });
      },
    },
    { store, readStore, logger, pollIntervalMs: 60_000 },
  );
  running.push(handle);
  const { position } = await store.append('tick-1', [event(1)], 'no_stream');
  const started = performance.now();
  expect(await handle.waitFor(position, 5_000)).toBe(true);
  expect(performance.now() - started).toBeLessThan(1_000);
  expect(seen).toEqual([1]);
});

test('a restarted consumer resumes after its checkpoint and handles each event once', async () => {
  const { store, readStore } = stores();
  const handled: string[] = [];
  const definition = () =>
    eventHandlerConsumer(
      {
        name: 'counter',
        types: ['Ticked'],
        handle: async (e: StoredEvent) => {
          handled.push(e.id);
        },
      },
      readStore,
    );
  for (let n = 0; n < 5; n++) await store.append(`tick-${n}`, [event(n)], 'no_stream');
  const first = await startConsumer(definition(), { store, readStore, logger });
  expect(await first.waitFor(await store.headPosition(), 5_000)).toBe(true);
  await first.stop();
  for (let n = 5; n < 8; n++) await store.append(`tick-${n}`, [event(n)], 'no_stream');
  const second = await startConsumer(definition(), { store, readStore, logger });
  running.push(second);
  expect(await second.waitFor(await store.headPosition(), 5_000)).toBe(true);
  expect(handled).toHaveLength(8);
  expect(new Set(handled).size).toBe(8);
});

test('a failing handler is retried from its checkpoint and reports the error until it recovers', async () => {
  const { store, readStore } = stores();
  let failuresLeft = 2;
  const handled: number[] = [];
  const handle = await startConsumer(
    eventHandlerConsumer(
      {
        name: 'flaky',
        types: ['Ticked'],
        handle: async (e) => {
          if (failuresLeft-- > 0) throw new Error('downstream unavailable');
          handled.push(Number(e.data.n));
        },
      },
      readStore,
    ),
    { store, readStore, logger, maxBackoffMs: 20 },
  );
  running.push(handle);
  const { position } = await store.append('tick-1', [event(1)], 'no_stream');
  expect(await handle.waitFor(position, 5_000)).toBe(true);
  expect(handled).toEqual([1]);
  expect(handle.lastError()).toBeNull();
});

test('waitFor gives up after its bound when the consumer cannot get there', async () => {
  const { store, readStore } = stores();
  const handle = await startConsumer(
    eventHandlerConsumer({ name: 'idle', types: [], handle: async () => {} }, readStore),
    { store, readStore, logger },
  );
  running.push(handle);
  expect(await handle.waitFor(1_000n, 50)).toBe(false);
});

test('a consumer whose events never come records how far it has looked, so a restart does not read the whole log again', async () => {
  const { store, readStore } = stores();
  for (let n = 0; n < 1_200; n++) await store.append(`tick-${n}`, [event(n)], 'no_stream');
  const handle = await startConsumer(
    {
      name: 'rare',
      categories: ['never'],
      handleBatch: async () => {
        throw new Error('no event of its categories exists');
      },
    },
    { store, readStore, logger },
  );
  running.push(handle);
  const head = await store.headPosition();
  expect(await handle.waitFor(head, 5_000)).toBe(true);
  expect(await readStore.getCheckpoint('rare')).toBe(head);
});

test('a consumer that has taken an event does not have its checkpoint moved past it by the events it passes over (its work may be unfinished)', async () => {
  const { store, readStore } = stores();
  const { position: taken } = await store.append('rare-1', [event(0)], 'no_stream');
  const handle = await startConsumer(
    {
      name: 'slow',
      categories: ['rare'],
      handleBatch: async () => {
        /* work started, not finished: no checkpoint saved */
      },
    },
    { store, readStore, logger },
  );
  running.push(handle);
  expect(await handle.waitFor(taken, 5_000)).toBe(true);
  for (let n = 1; n < 1_200; n++) await store.append(`tick-${n}`, [event(n)], 'no_stream');
  expect(await handle.waitFor(await store.headPosition(), 5_000)).toBe(true);
  expect(await readStore.getCheckpoint('slow')).toBeNull();
});
