import { expect, test } from 'vitest';
import { createLogTail } from '../../src/consumers/logTail.ts';
import { createEsdbEventStore } from '../../src/eventstore/esdb.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { createFakeEsdbClient } from '../eventstore/fakeEsdbClient.ts';
import { newEvent } from '../eventstore/events.ts';

// On EventStoreDB positions are byte offsets: they jump by each record's size, and system events
// sit between ours. The tail must neither skip nor repeat an event for that.

const append = (store: EventStore, stream: string, type: string) =>
  store.append(stream, [newEvent(type)], 'no_stream');

test("on EventStoreDB (positions jump) every event reaches the tail once, ours and another process's in between", async () => {
  const server = createFakeEsdbClient();
  const store = createEsdbEventStore(server);
  const otherProcess = createEsdbEventStore(server); // its appends notify nobody here
  await append(store, 'even-0', 'E0');
  const start = await store.headPosition();
  const tail = await createLogTail(store);
  await append(store, 'odd-1', 'O1');
  await append(otherProcess, 'even-2', 'E2');
  await append(store, 'odd-3', 'O3');

  const all = await tail.read(start, undefined, 100, false);
  expect(all.events.map((event) => event.type)).toEqual(['O1', 'E2', 'O3']);
  expect(all.events[1].position - all.events[0].position).toBeGreaterThan(1n);
  expect(all.through).toBe(await store.headPosition());
  expect((await tail.read(start, ['odd'], 100, false)).events.map((event) => event.type)).toEqual([
    'O1',
    'O3',
  ]);
  expect(
    (await tail.read(all.events[0].position, ['even'], 100, false)).events.map(
      (event) => event.type,
    ),
  ).toEqual(['E2']);

  await append(otherProcess, 'odd-5', 'O5');
  expect((await tail.read(all.through, undefined, 100, false)).events).toEqual([]); // nothing told it yet
  expect(
    (await tail.read(all.through, undefined, 100, true)).events.map((event) => event.type),
  ).toEqual(['O5']);
  tail.stop();
});
