import { describe, expect, test } from 'vitest';
import { WrongExpectedVersionError, streamName } from '../../src/eventstore/port.ts';
import type { CurrentStore } from './contract.ts';
import { metadata, newEvent, rejectionOf, uniqueCategory } from './events.ts';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export function appendContract(store: CurrentStore): void {
  const freshStream = () => streamName(uniqueCategory(), 'a1');

  describe('append and read a stream', () => {
    test('events come back in order with revisions from 0, increasing bigint positions and a UTC timestamp', async () => {
      const stream = freshStream();
      const events = [
        newEvent('ProjectCreated', { name: 'Blog' }),
        newEvent('ProjectRenamed', { name: 'Journal' }),
      ];
      const result = await store().append(stream, events, 'no_stream');

      const stored = await store().readStream(stream);
      expect(stored.map((e) => [e.id, e.type, e.data, e.stream, e.revision])).toEqual([
        [events[0].id, 'ProjectCreated', { name: 'Blog' }, stream, 0n],
        [events[1].id, 'ProjectRenamed', { name: 'Journal' }, stream, 1n],
      ]);
      expect(typeof stored[0].position).toBe('bigint');
      expect(stored[1].position).toBeGreaterThan(stored[0].position);
      expect(stored.every((e) => ISO_UTC.test(e.createdAt))).toBe(true);
      expect(result).toEqual({ nextRevision: 1n, position: stored[1].position });
    });

    test('nested data and every metadata field come back exactly as written', async () => {
      const stream = freshStream();
      const data = {
        title: 'Crème brûlée, 抹茶 & 🍮',
        quote: 'He said "hi"\n\ttwice\\',
        nested: { list: [1, 'two', null, { deep: [true, false] }], empty: {}, none: [] },
        zero: 0,
        ratio: -0.25,
        large: 9007199254740991,
        none: null,
        position: '00000000000000000042',
      };
      const meta = metadata({
        actor: { kind: 'github', login: 'octocat' },
        causationId: 'evt_cause',
        tenantNote: { any: ['json'] },
      });
      await store().append(stream, [{ ...newEvent('Noted', data), metadata: meta }], 'no_stream');
      const [stored] = await store().readStream(stream);
      expect(stored.data).toEqual(data);
      expect(stored.metadata).toEqual(meta);
    });

    test('readStream starts at fromRevision and returns at most maxCount events', async () => {
      const stream = freshStream();
      await store().append(
        stream,
        ['A', 'B', 'C', 'D'].map((type) => newEvent(type)),
        'no_stream',
      );
      const types = async (options: { fromRevision?: bigint; maxCount?: number }) =>
        (await store().readStream(stream, options)).map((e) => e.type);
      expect(await types({ fromRevision: 1n })).toEqual(['B', 'C', 'D']);
      expect(await types({ fromRevision: 1n, maxCount: 2 })).toEqual(['B', 'C']);
      expect(await types({ maxCount: 1 })).toEqual(['A']);
      expect(await types({ fromRevision: 4n })).toEqual([]);
    });
  });

  describe('expected revision', () => {
    test("'no_stream' is refused once the stream has events, reporting its last revision, and writes nothing", async () => {
      const stream = freshStream();
      await store().append(stream, [newEvent('A'), newEvent('B')], 'no_stream');
      const head = await store().headPosition();
      const error = await rejectionOf(store().append(stream, [newEvent('C')], 'no_stream'));
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ stream, expected: 'no_stream', actual: 1n });
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
      expect(await store().headPosition()).toBe(head);
    });

    test("'stream_exists' is refused for a stream with no events and accepted once it has some", async () => {
      const stream = freshStream();
      const error = await rejectionOf(store().append(stream, [newEvent('A')], 'stream_exists'));
      expect(error).toBeInstanceOf(WrongExpectedVersionError);
      expect(error).toMatchObject({ stream, expected: 'stream_exists', actual: 'no_stream' });
      await store().append(stream, [newEvent('A')], 'no_stream');
      expect((await store().append(stream, [newEvent('B')], 'stream_exists')).nextRevision).toBe(
        1n,
      );
    });

    test('a revision must equal the last revision: stale, ahead and missing streams are refused with the actual one', async () => {
      const stream = freshStream();
      expect(await rejectionOf(store().append(stream, [newEvent('A')], 0n))).toMatchObject({
        expected: 0n,
        actual: 'no_stream',
      });
      await store().append(stream, [newEvent('A'), newEvent('B')], 'no_stream');
      expect(await rejectionOf(store().append(stream, [newEvent('C')], 0n))).toMatchObject({
        expected: 0n,
        actual: 1n,
      });
      expect(await rejectionOf(store().append(stream, [newEvent('C')], 5n))).toMatchObject({
        expected: 5n,
        actual: 1n,
      });
      expect((await store().append(stream, [newEvent('C')], 1n)).nextRevision).toBe(2n);
    });

    test('appending no events writes nothing and only checks the expectation', async () => {
      const stream = freshStream();
      expect(await store().append(stream, [], 'no_stream')).toEqual({
        nextRevision: -1n,
        position: -1n,
      });
      expect(await rejectionOf(store().append(stream, [], 'stream_exists'))).toBeInstanceOf(
        WrongExpectedVersionError,
      );
      const written = await store().append(stream, [newEvent('A')], 'no_stream');
      expect(await store().append(stream, [], 0n)).toEqual(written);
      expect(await rejectionOf(store().append(stream, [], 'no_stream'))).toMatchObject({
        actual: 0n,
      });
    });
  });

  describe('retried appends', () => {
    test('the same ids with the same expectation write nothing and return the original result', async () => {
      const stream = freshStream();
      const first = [newEvent('A'), newEvent('B')];
      const created = await store().append(stream, first, 'no_stream');
      expect(await store().append(stream, first, 'no_stream')).toEqual(created);

      const second = [newEvent('C')];
      const continued = await store().append(stream, second, 1n);
      await store().append(stream, [newEvent('D')], 2n);
      // The stream has moved on, yet the retry still finds its own event at revision 2.
      expect(await store().append(stream, second, 1n)).toEqual(continued);

      const third = [newEvent('E')];
      const existing = await store().append(stream, third, 'stream_exists');
      expect(await store().append(stream, third, 'stream_exists')).toEqual(existing);
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual([
        'A',
        'B',
        'C',
        'D',
        'E',
      ]);
    });

    test('the same ids at other revisions than the original are a conflict, not a retry', async () => {
      const stream = freshStream();
      const events = [newEvent('A')];
      await store().append(stream, events, 'no_stream');
      await store().append(stream, [newEvent('B')], 0n);
      expect(await rejectionOf(store().append(stream, events, 0n))).toMatchObject({
        expected: 0n,
        actual: 1n,
      });
      expect((await store().readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
    });
  });
}
