import { expect, test } from 'vitest';
import { verifyLog } from '../../../src/features/audit/verifyLog.ts';
import type { EventStore, StoredEvent } from '../../../src/eventstore/port.ts';

/** A log as a store would return it, possibly damaged: verify must read it only through readAll. */
function logOf(
  events: Array<Pick<StoredEvent, 'id' | 'stream' | 'revision' | 'position'>>,
): EventStore {
  const stored = events.map((event) => ({
    ...event,
    type: 'T',
    data: {},
    metadata: {} as StoredEvent['metadata'],
    createdAt: '',
  }));
  return {
    readAll: async ({ after = -1n, maxCount = 1000 } = {}) =>
      stored.filter((event) => event.position > after).slice(0, maxCount),
  } as EventStore;
}

test('a healthy log has no problems', async () => {
  const report = await verifyLog(
    logOf([
      { id: 'a', stream: 's-1', revision: 0n, position: 0n },
      { id: 'b', stream: 's-2', revision: 0n, position: 1n },
      { id: 'c', stream: 's-1', revision: 1n, position: 2n },
    ]),
    { gapless: true },
  );
  expect(report).toMatchObject({ events: 3, streams: 2, problems: [] });
});

test('gaps, revision jumps and repeated ids are each reported', async () => {
  const report = await verifyLog(
    logOf([
      { id: 'a', stream: 's-1', revision: 0n, position: 0n },
      { id: 'b', stream: 's-1', revision: 2n, position: 1n },
      { id: 'a', stream: 's-2', revision: 0n, position: 5n },
    ]),
    { gapless: true },
  );
  expect(report.problems).toEqual([
    'stream s-1: revision 2 where 1 was expected (position 1)',
    'gap: position 5 follows 1',
    'event id a appears twice (position 5)',
  ]);
});
