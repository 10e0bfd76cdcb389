import { describe, expect, test } from 'vitest';
import { StreamNotFoundError, streamName, type StoredEvent } from '../../src/eventstore/port.ts';
import type { CurrentStore } from './contract.ts';
import { newEvent, rejectionOf, uniqueCategory } from './events.ts';

export function readContract(store: CurrentStore): void {
  const ids = (events: StoredEvent[]) => events.map((e) => e.id);

  describe('reads', () => {
    test('reading a stream that has no events throws StreamNotFoundError naming it', async () => {
      const stream = streamName(uniqueCategory(), 'missing');
      const error = await rejectionOf(store().readStream(stream));
      expect(error).toBeInstanceOf(StreamNotFoundError);
      expect(error).toMatchObject({ stream });
    });

    test('readAll returns the events after a position, in log order across streams', async () => {
      const category = uniqueCategory();
      const a = streamName(category, 'a');
      const b = streamName(category, 'b');
      await store().append(a, [newEvent('A1')], 'no_stream');
      const { position: after } = await store().append(b, [newEvent('B1')], 'no_stream');
      const later = [newEvent('A2'), newEvent('A3')];
      await store().append(a, later, 0n);
      const last = newEvent('B2');
      await store().append(b, [last], 0n);

      const read = await store().readAll({ after, categories: [category] });
      expect(ids(read)).toEqual([...later, last].map((e) => e.id));
      expect(read.map((e) => e.stream)).toEqual([a, a, b]);
      expect(read.every((e, i) => i === 0 || e.position > read[i - 1].position)).toBe(true);
      expect(read[0].position).toBeGreaterThan(after);

      const everything = await store().readAll({ after, maxCount: 10_000 });
      expect(ids(everything.filter((e) => e.stream.startsWith(category)))).toEqual(ids(read));
    });

    test('the category filter matches the name before the first dash exactly and merges several in log order', async () => {
      const cat = uniqueCategory('cat');
      const other = uniqueCategory('other');
      const head = await store().headPosition();
      const inCat = newEvent('InCat');
      const longer = newEvent('SamePrefixOtherCategory');
      const inOther = newEvent('InOther');
      const alsoInCat = newEvent('AlsoInCat');
      await store().append(streamName(cat, 'x-y'), [inCat], 'no_stream');
      await store().append(streamName(`${cat}z`, 'x'), [longer], 'no_stream');
      await store().append(streamName(other, 'x'), [inOther], 'no_stream');
      await store().append(cat, [alsoInCat], 'no_stream');

      expect(ids(await store().readAll({ after: head, categories: [cat] }))).toEqual([
        inCat.id,
        alsoInCat.id,
      ]);
      expect(ids(await store().readAll({ after: head, categories: [other, cat] }))).toEqual([
        inCat.id,
        inOther.id,
        alsoInCat.id,
      ]);
      expect(
        ids(await store().readAll({ after: head, categories: [other, cat], maxCount: 2 })),
      ).toEqual([inCat.id, inOther.id]);
      expect(await store().readAll({ after: head, categories: [] })).toEqual([]);
    });

    test('paging with maxCount and the last position reads every event exactly once', async () => {
      const category = uniqueCategory();
      const head = await store().headPosition();
      const written = Array.from({ length: 7 }, (_, i) => newEvent(`E${i}`));
      for (const [i, event] of written.entries()) {
        await store().append(
          streamName(category, String(i % 3)),
          [event],
          i < 3 ? 'no_stream' : BigInt(Math.floor(i / 3) - 1),
        );
      }
      const pages: string[][] = [];
      let after = head;
      for (;;) {
        const page = await store().readAll({ after, maxCount: 3, categories: [category] });
        if (page.length === 0) break;
        pages.push(ids(page));
        after = page[page.length - 1].position;
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(written.map((e) => e.id));
    });

    test('readAll returns at most 1000 events when no maxCount is given', async () => {
      const category = uniqueCategory();
      const head = await store().headPosition();
      for (let i = 0; i < 3; i++) {
        await store().append(
          streamName(category, String(i)),
          Array.from({ length: 350 }, () => newEvent('Bulk')),
          'no_stream',
        );
      }
      expect(await store().readAll({ after: head, categories: [category] })).toHaveLength(1000);
    });

    test('headPosition is the position of the newest event', async () => {
      const stream = streamName(uniqueCategory(), 'h');
      const { position } = await store().append(
        stream,
        [newEvent('A'), newEvent('B')],
        'no_stream',
      );
      expect(await store().headPosition()).toBe(position);
    });
  });

  describe('onAppend', () => {
    test('listeners hear the position of each stored append, and not of refused or unsubscribed ones', async () => {
      const stream = streamName(uniqueCategory(), 'n');
      const heard: bigint[] = [];
      const headsSeen: Promise<bigint>[] = [];
      const unsubscribe = store().onAppend((position) => {
        heard.push(position);
        headsSeen.push(store().headPosition());
      });
      const events = [newEvent('A'), newEvent('B')];
      const first = await store().append(stream, events, 'no_stream');
      await rejectionOf(store().append(stream, [newEvent('C')], 'no_stream'));
      await store().append(stream, events, 'no_stream');
      const second = await store().append(stream, [newEvent('C')], 1n);
      unsubscribe();
      await store().append(stream, [newEvent('D')], 2n);

      // EventStoreDB acknowledges a retry as it does a write, with the original's position, so it
      // may be heard again (our own stores stay silent: contractEmbedded.ts); never anything else.
      expect([...new Set(heard)]).toEqual([first.position, second.position]);
      // When a listener runs, the append it hears about is already readable.
      expect((await Promise.all(headsSeen)).every((head, i) => head >= heard[i])).toBe(true);
    });
  });
}
