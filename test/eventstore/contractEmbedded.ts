import { describe, expect, test } from 'vitest';
import { DuplicateEventIdError } from '../../src/eventstore/appendPlan.ts';
import { StreamNotFoundError, streamName } from '../../src/eventstore/port.ts';
import type { CurrentStore } from './contract.ts';
import { newEvent, rejectionOf } from './events.ts';

/** What our own stores promise beyond EventStoreDB: a fresh log per open, gapless positions, log-wide ids. */
export function embeddedContract(store: CurrentStore): void {
  describe('embedded log', () => {
    test('an empty log has head -1, reads nothing and has no streams', async () => {
      expect(await store().headPosition()).toBe(-1n);
      expect(await store().readAll()).toEqual([]);
      expect(await rejectionOf(store().readStream('project-1'))).toBeInstanceOf(
        StreamNotFoundError,
      );
    });

    test('positions are gapless from 0 in append order across streams, and survive a refused append', async () => {
      await store().append('project-1', [newEvent('A'), newEvent('B')], 'no_stream');
      await rejectionOf(store().append('project-1', [newEvent('X')], 'no_stream'));
      await store().append('topic-1', [newEvent('C')], 'no_stream');
      await store().append('project-1', [newEvent('D')], 1n);
      const all = await store().readAll();
      expect(all.map((e) => [e.type, e.position])).toEqual([
        ['A', 0n],
        ['B', 1n],
        ['C', 2n],
        ['D', 3n],
      ]);
      expect(await store().headPosition()).toBe(3n);
      expect(await store().readAll({ after: 1n, maxCount: 1 })).toMatchObject([
        { type: 'C', position: 2n },
      ]);
      expect(await store().readAll({ after: 2n ** 62n })).toEqual([]);
    });

    test('a retried append is not heard by append listeners', async () => {
      const events = [newEvent('A'), newEvent('B')];
      await store().append('project-1', events, 'no_stream');
      const heard: bigint[] = [];
      const unsubscribe = store().onAppend((position) => {
        heard.push(position);
      });
      await store().append('project-1', events, 'no_stream');
      unsubscribe();
      expect(heard).toEqual([]);
    });

    test('an event id already stored in another stream is refused and nothing of the append is written', async () => {
      const taken = newEvent('A');
      await store().append(streamName('project', '1'), [taken], 'no_stream');
      for (const events of [[taken], [newEvent('B'), taken]]) {
        const error = await rejectionOf(
          store().append(streamName('project', '2'), events, 'no_stream'),
        );
        expect(error).toBeInstanceOf(DuplicateEventIdError);
        expect(error).toMatchObject({
          id: taken.id,
          message: expect.stringContaining('project-1@0'),
        });
      }
      expect(await rejectionOf(store().readStream('project-2'))).toBeInstanceOf(
        StreamNotFoundError,
      );
      expect(await store().headPosition()).toBe(0n);
    });

    test('one append carrying the same id twice is refused', async () => {
      const twice = newEvent('A');
      expect(
        await rejectionOf(store().append('project-1', [twice, twice], 'no_stream')),
      ).toBeInstanceOf(DuplicateEventIdError);
      expect(await store().headPosition()).toBe(-1n);
    });
  });
}
