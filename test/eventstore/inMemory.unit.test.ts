import { describe, expect, test } from 'vitest';
import { manualClock } from '../../src/core/clock.ts';
import { createInMemoryEventStore } from '../../src/eventstore/inMemory.ts';
import { describeEventStoreContract } from './contract.ts';
import { newEvent } from './events.ts';

describeEventStoreContract('in-memory', async () => createInMemoryEventStore(), { embedded: true });

describe('in-memory event store', () => {
  test('createdAt comes from the injected clock', async () => {
    const clock = manualClock('2030-05-06T07:08:09.010Z');
    const store = createInMemoryEventStore({ clock });
    await store.append('project-1', [newEvent('A')], 'no_stream');
    clock.advance(1500);
    await store.append('project-1', [newEvent('B')], 0n);
    expect((await store.readStream('project-1')).map((e) => e.createdAt)).toEqual([
      '2030-05-06T07:08:09.010Z',
      '2030-05-06T07:08:10.510Z',
    ]);
  });

  test('changing an object after writing or reading it does not change the log', async () => {
    const store = createInMemoryEventStore();
    const event = newEvent('A', { tags: ['x'] });
    await store.append('project-1', [event], 'no_stream');
    (event.data.tags as string[]).push('written');
    const [read] = await store.readStream('project-1');
    (read.data.tags as string[]).push('read');
    expect((await store.readAll())[0].data).toEqual({ tags: ['x'] });
  });
});
