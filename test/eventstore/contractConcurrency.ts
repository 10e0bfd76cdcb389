import { describe, expect, test } from 'vitest';
import { WrongExpectedVersionError, streamName } from '../../src/eventstore/port.ts';
import type { CurrentStore } from './contract.ts';
import { appendWithRetry, newEvent, uniqueCategory } from './events.ts';

export function concurrencyContract(store: CurrentStore): void {
  describe('concurrent writers', () => {
    test('20 writers racing on one stream each land exactly once, at revisions 0..19 with no gap', async () => {
      const stream = streamName(uniqueCategory(), 'race');
      const writers = Array.from({ length: 20 }, (_, writer) => writer);
      const conflicts = await Promise.all(
        writers.map((writer) => appendWithRetry(store(), stream, 'Raced', { writer })),
      );

      const events = await store().readStream(stream);
      expect(events.map((e) => e.revision)).toEqual(writers.map(BigInt));
      expect(events.map((e) => e.data.writer).sort((a, b) => Number(a) - Number(b))).toEqual(
        writers,
      );
      // They really raced: every loser was refused at least once and re-read.
      expect(conflicts.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    });

    test('appends sharing a commit are each decided on their own: a conflict or a retry among them changes nothing for the others', async () => {
      const category = uniqueCategory();
      const [a, b, c] = ['a', 'b', 'c'].map((id) => streamName(category, id));
      const retried = newEvent('First');
      await store().append(a, [retried], 'no_stream');
      const share = { shareCommit: true };
      const results = await Promise.allSettled([
        store().append(b, [newEvent('One')], 'no_stream', share),
        store().append(a, [newEvent('Stale')], 'no_stream', share), // a conflict
        store().append(a, [retried], 'no_stream', share), // the first append retried: nothing new
        store().append(c, [newEvent('Two'), newEvent('Three')], 'no_stream', share),
        store().append(b, [newEvent('Also')], 'no_stream', share), // b is taken by the first in this group
      ]);
      expect(results.map((result) => result.status)).toEqual([
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
        'rejected',
      ]);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(
        WrongExpectedVersionError,
      );
      expect((results[4] as PromiseRejectedResult).reason).toBeInstanceOf(
        WrongExpectedVersionError,
      );
      expect((await store().readStream(a)).map((event) => event.type)).toEqual(['First']);
      expect((await store().readStream(b)).map((event) => event.type)).toEqual(['One']);
      expect((await store().readStream(c)).map((event) => event.type)).toEqual(['Two', 'Three']);
    });
  });
}
