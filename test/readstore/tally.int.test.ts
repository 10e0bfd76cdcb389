import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { StoredEvent } from '../../src/eventstore/port.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { defineProjection, type Projection } from '../../src/readstore/projection.ts';
import { createProjectionFold } from '../../src/readstore/projectionFold.ts';
import { defineTally, withTallies, type TallyDoc } from '../../src/readstore/tally.ts';
import { openReadModels } from '../support/readModels.ts';

/** Items in groups; an 'Opened' item begins in its group, a 'Moved' one changes its state (the event does not name the group). */
const items = defineProjection<{ id: string; group: string; state: string }>({
  name: 'items', collection: 'items', indexes: [{ group: 1, state: 1 }], categories: ['item'],
  documentId: (event) => String(event.data.itemId),
  evolve(doc, event) {
    if (event.type === 'Opened') return { id: String(event.data.itemId), group: String(event.data.group), state: 'open' };
    return doc && { ...doc, state: String(event.data.state) };
  },
});
const itemCounts = defineTally({ name: 'itemCounts', collection: 'item_counts', source: 'items', groupBy: 'group', countBy: 'state', values: ['open', 'done'] });
const both: readonly Projection[] = [items, itemCounts as Projection];

let position = 0n;
const event = (type: string, data: Record<string, unknown>): StoredEvent => ({
  id: crypto.randomUUID(), type, data, stream: `item-${String(data.itemId)}`, revision: 0n, position: ++position, createdAt: '2026-11-25T00:00:00.000Z',
  metadata: { accountId: 'acc_t', actor: { kind: 'system', worker: 'test' }, correlationId: 'c', causationId: 'c', requestId: 'r' },
});
const store = () => openReadModels(join(mkdtempSync(join(tmpdir(), 'ink-tally-')), 'reads.sqlite'), both);
const countsOf = async (reads: ReadStore, group: string) => (await reads.get<TallyDoc>('item_counts', group))?.counts;

async function apply(reads: ReadStore, events: StoredEvent[]): Promise<void> {
  const fold = createProjectionFold(both, reads);
  await fold.apply(events);
  await fold.flush('test');
}

test('a tally without its source is refused, and a rebuild of either takes the other along', () => {
  expect(() => createProjectionFold([itemCounts as Projection], {} as ReadStore)).toThrow(/counts items's documents: build them together/);
  expect(withTallies([items], both).map((p) => p.name)).toEqual(['items', 'itemCounts']);
  expect(withTallies([itemCounts as Projection], both).map((p) => p.name)).toEqual(['items', 'itemCounts']);
});

test('two folds of overlapping batches over one store, flushed in either order and again, leave the counts of the documents', async () => {
  const reads = await store();
  const log = [
    event('Opened', { itemId: 'a', group: 'g1' }), event('Opened', { itemId: 'b', group: 'g1' }), event('Opened', { itemId: 'c', group: 'g2' }),
    event('Moved', { itemId: 'a', state: 'done' }), event('Moved', { itemId: 'c', state: 'done' }), event('Moved', { itemId: 'b', state: 'done' }),
  ];
  const first = createProjectionFold(both, reads);
  const second = createProjectionFold(both, reads);
  await first.apply(log.slice(0, 4));
  await second.apply(log);
  await second.flush('test');
  await first.flush('test'); // older: its writes and its counts are refused by the position guard
  expect(await countsOf(reads, 'g1')).toEqual({ open: 0, done: 2 });
  expect(await countsOf(reads, 'g2')).toEqual({ open: 0, done: 1 });
  await apply(reads, log); // delivered again
  expect(await countsOf(reads, 'g1')).toEqual({ open: 0, done: 2 });
});

test('a crash between the documents\' commit and the counts\' is made good when the batch is delivered again', async () => {
  const reads = await store();
  await apply(reads, [event('Opened', { itemId: 'x', group: 'g' }), event('Opened', { itemId: 'y', group: 'g' })]);
  const moved = [event('Moved', { itemId: 'x', state: 'done' })];
  let crash = true;
  const crashing: ReadStore = Object.assign(Object.create(reads), {
    commit: (...args: Parameters<ReadStore['commit']>) => {
      if (crash && args[1]) { crash = false; return Promise.reject(new Error('killed')); }
      return reads.commit(...args);
    },
  });
  await expect(apply(crashing, moved)).rejects.toThrow('killed');
  expect((await reads.get<{ id: string; state: string }>('items', 'x'))?.state).toBe('done');
  expect(await countsOf(reads, 'g')).toEqual({ open: 2, done: 0 });
  await apply(reads, moved);
  expect(await countsOf(reads, 'g')).toEqual({ open: 1, done: 1 });
});
