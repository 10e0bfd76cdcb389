import { describe, expect, test } from 'vitest';
import { streamName } from '../../src/eventstore/port.ts';
import type { CurrentStore } from './contract.ts';
import { appendWithRetry, uniqueCategory } from './events.ts';

export function concurrencyContract(store: CurrentStore): void {
  describe('concurrent writers', () => {
    test('20 writers racing on one stream each land exactly once, at revisions 0..19 with no gap', async () => {
      const stream = streamName(uniqueCategory(), 'race');
      const writers = Array.from({ length: 20 }, (_, writer) => writer);
      const conflicts = await Promise.all(writers.map((writer) => appendWithRetry(store(), stream, 'Raced', { writer })));

      const events = await store().readStream(stream);
      expect(events.map((e) => e.revision)).toEqual(writers.map(BigInt));
      expect(events.map((e) => e.data.writer).sort((a, b) => Number(a) - Number(b))).toEqual(writers);
      // They really raced: every loser was refused at least once and re-read.
      expect(conflicts.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(0);
    });
  });
}
