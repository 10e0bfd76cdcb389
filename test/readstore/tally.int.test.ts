import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import type { StoredEvent } from '../../src/eventstore/port.ts';
import type { ReadStore, TallyTarget } from '../../src/readstore/port.ts';
import { defineProjection, type Projection } from '../../src/readstore/projection.ts';
import { createProjectionFold } from '../../src/readstore/projectionFold.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { rebuildOnline } from '../../src/readstore/rebuild.ts';
import { defineTally, withTallies, type TallyDoc } from '../../src/readstore/tally.ts';
import { dumpReadModels, openReadModels } from '../support/readModels.ts';

/**
 * Items in groups; an 'Opened' item begins in its group, a 'Moved' one changes its state (the event
 * does not name the group), a 'Regrouped' one its group, and a 'Closed' one is deleted.
 */
type ItemEvent =
  | { type: 'Opened'; data: { itemId: string; group: string } }
  | { type: 'Moved'; data: { itemId: string; state: string } }
  | { type: 'Regrouped'; data: { itemId: string; group: string } }
  | { type: 'Closed'; data: { itemId: string } };
const items = defineProjection<{ id: string; group: string; state: string }, ItemEvent>({
  name: 'items',
  collection: 'items',
  indexes: [{ group: 1, state: 1 }],
  categories: ['item'],
  events: { Opened: true, Moved: true, Regrouped: true, Closed: true },
  documentId: (event) => event.data.itemId,
  evolve(doc, event) {
    switch (event.type) {
      case 'Opened':
        return { id: event.data.itemId, group: event.data.group, state: 'open' };
      case 'Closed':
        return null;
      case 'Regrouped':
        return doc && { ...doc, group: event.data.group };
      case 'Moved':
        return doc && { ...doc, state: event.data.state };
    }
  },
});
const itemCounts = defineTally({
  name: 'itemCounts',
  collection: 'item_counts',
  source: 'items',
  groupBy: 'group',
  countBy: 'state',
  values: ['open', 'done'],
});
const both: readonly Projection[] = [items, itemCounts as Projection];

let position = 0n;
const event = (type: string, data: Record<string, unknown>): StoredEvent => ({
  id: crypto.randomUUID(),
  type,
  data,
  stream: `item-${String(data.itemId)}`,
  revision: 0n,
  position: ++position,
  createdAt: '2026-11-25T00:00:00.000Z',
  metadata: {
    accountId: 'acc_t',
    actor: { kind: 'system', worker: 'test' },
    correlationId: 'c',
    causationId: 'c',
    requestId: 'r',
  },
});
const store = () =>
  openReadModels(join(mkdtempSync(join(tmpdir(), 'ink-tally-')), 'reads.sqlite'), both);
const countsOf = async (reads: ReadStore, group: string) =>
  (await reads.get<TallyDoc>('item_counts', group))?.counts;
const GROUPS = ['g1', 'g2', 'g3'];

/** Each group's tally against a count of its documents in the store (an item 'archived' is counted in neither value). */
async function expectCountsOfDocuments(reads: ReadStore, label = ''): Promise<void> {
  for (const group of GROUPS) {
    const counted = {
      open: await reads.count('items', { group, state: 'open' }),
      done: await reads.count('items', { group, state: 'done' }),
    };
    expect((await countsOf(reads, group)) ?? { open: 0, done: 0 }, `${label} ${group}`).toEqual(
      counted,
    );
  }
}

async function apply(reads: ReadStore, events: StoredEvent[]): Promise<void> {
  const fold = createProjectionFold(both, reads);
  await fold.apply(events);
  await fold.flush('test');
}

test('a write counted by a field its source does not index, or in an undeclared tally, is refused and changes nothing', async () => {
  const reads = await store();
  const doc = { id: 'x', group: 'g1', state: 'open' };
  const hostile: TallyTarget[] = [
    {
      collection: 'item_counts',
      groupBy: 'group" FROM rm_items; DROP TABLE rm_items; --',
      countBy: 'state',
      values: ['open'],
    },
    { collection: 'item_counts', groupBy: 'title', countBy: 'state', values: ['open'] },
    { collection: 'nowhere', groupBy: 'group', countBy: 'state', values: ['open'] },
  ];
  for (const target of hostile) {
    await expect(
      reads.commit(
        [{ kind: 'put', collection: 'items', id: 'x', doc, position: 1n, countedIn: [target] }],
        { consumer: 'test', position: 1n },
      ),
    ).rejects.toThrow(/is not an index of items|is not declared/);
  }
  expect(await reads.get('items', 'x')).toBeNull();
  expect(await reads.getCheckpoint('test')).toBeNull();
  expect(await countsOf(reads, 'g1')).toBeUndefined();
  expect(await reads.count('items')).toBe(0);
});

test('a tally without its source is refused, and a rebuild of either takes the other along', () => {
  expect(() => createProjectionFold([itemCounts as Projection], {} as ReadStore)).toThrow(
    /counts items's documents: build them together/,
  );
  expect(withTallies([items], both).map((p) => p.name)).toEqual(['items', 'itemCounts']);
  expect(withTallies([itemCounts as Projection], both).map((p) => p.name)).toEqual([
    'items',
    'itemCounts',
  ]);
});

test('two folds of overlapping batches over one store, flushed in either order and again, leave the counts of the documents', async () => {
  const reads = await store();
  const log = [
    event('Opened', { itemId: 'a', group: 'g1' }),
    event('Opened', { itemId: 'b', group: 'g1' }),
    event('Opened', { itemId: 'c', group: 'g2' }),
    event('Moved', { itemId: 'a', state: 'done' }),
    event('Moved', { itemId: 'c', state: 'done' }),
    event('Moved', { itemId: 'b', state: 'done' }),
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

test('two folds that loaded the same documents, flushed oldest first, count each change once', async () => {
  const reads = await store();
  await apply(reads, [
    event('Opened', { itemId: 'a', group: 'g1' }),
    event('Opened', { itemId: 'b', group: 'g1' }),
  ]);
  const later = [
    event('Moved', { itemId: 'a', state: 'done' }),
    event('Moved', { itemId: 'b', state: 'done' }),
  ];
  const first = createProjectionFold(both, reads);
  const second = createProjectionFold(both, reads);
  await first.apply(later.slice(0, 1));
  await second.apply(later);
  // The first moves its checkpoint forwards; the second's checkpoint moves further, but 'a' was
  // loaded as 'open' before the first wrote it 'done': only the stored row says it moved already.
  await first.flush('test');
  await second.flush('test');
  expect(await countsOf(reads, 'g1')).toEqual({ open: 0, done: 2 });
  await expectCountsOfDocuments(reads);
});

test("recounting (MongoDB's way): a crash between the documents' commit and the counts' is made good when the batch is delivered again", async () => {
  // The SQLite store writes a document and its counts in one transaction; a store that cannot
  // (talliesInCommit false) has the fold count the touched groups again after the documents.
  const reads: ReadStore = Object.assign(Object.create(await store()), { talliesInCommit: false });
  await apply(reads, [
    event('Opened', { itemId: 'x', group: 'g' }),
    event('Opened', { itemId: 'y', group: 'g' }),
  ]);
  const moved = [event('Moved', { itemId: 'x', state: 'done' })];
  let crash = true;
  const crashing: ReadStore = Object.assign(Object.create(reads), {
    commit: (...args: Parameters<ReadStore['commit']>) => {
      if (crash && args[1]) {
        crash = false;
        return Promise.reject(new Error('killed'));
      }
      return reads.commit(...args);
    },
  });
  await expect(apply(crashing, moved)).rejects.toThrow('killed');
  expect((await reads.get<{ id: string; state: string }>('items', 'x'))?.state).toBe('done');
  expect(await countsOf(reads, 'g')).toEqual({ open: 2, done: 0 });
  await apply(reads, moved);
  expect(await countsOf(reads, 'g')).toEqual({ open: 1, done: 1 });
});

test('a crash in the commit leaves neither the documents nor their counts, and the batch delivered again counts once', async () => {
  const reads = await store();
  await apply(reads, [
    event('Opened', { itemId: 'x', group: 'g1' }),
    event('Opened', { itemId: 'y', group: 'g1' }),
  ]);
  const moved = [
    event('Moved', { itemId: 'x', state: 'done' }),
    event('Opened', { itemId: 'z', group: 'g2' }),
  ];
  const crashing: ReadStore = Object.assign(Object.create(reads), {
    commit: () => Promise.reject(new Error('killed')),
  });
  await expect(apply(crashing, moved)).rejects.toThrow('killed');
  expect((await reads.get<{ id: string; state: string }>('items', 'x'))?.state).toBe('open');
  await expectCountsOfDocuments(reads);
  await apply(reads, moved);
  await apply(reads, moved);
  expect(await countsOf(reads, 'g1')).toEqual({ open: 1, done: 1 });
  expect(await countsOf(reads, 'g2')).toEqual({ open: 1, done: 0 });
});

test('a batch replayed at the same positions changes no count, no document and no checkpoint', async () => {
  const reads = await store();
  const batch = [
    event('Opened', { itemId: 'a', group: 'g1' }),
    event('Opened', { itemId: 'b', group: 'g1' }),
    event('Moved', { itemId: 'a', state: 'done' }),
    event('Regrouped', { itemId: 'b', group: 'g2' }),
    event('Closed', { itemId: 'a' }),
  ];
  await apply(reads, batch);
  const once = await dumpReadModels(reads, both);
  // g1 has nothing left to count: no document, as if it had never had any.
  expect(once.item_counts).toEqual([{ id: 'g2', counts: { open: 1, done: 0 } }]);
  await apply(reads, batch);
  await apply(reads, batch.slice(1, 4));
  expect(await dumpReadModels(reads, both)).toEqual(once);
  expect(await reads.getCheckpoint('test')).toBe(batch.at(-1)!.position);
});

/** One step of a random history: what happens to an item, and where the delivery cuts the log into batches. */
const step = fc.record({
  kind: fc.constantFrom('open', 'move', 'move', 'regroup', 'close'),
  item: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
  group: fc.constantFrom(...GROUPS),
  state: fc.constantFrom('open', 'done', 'archived'),
  cut: fc.nat(3),
  again: fc.boolean(),
});
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never;

function eventOf(s: Step): StoredEvent {
  switch (s.kind) {
    case 'open':
      return event('Opened', { itemId: s.item, group: s.group });
    case 'move':
      return event('Moved', { itemId: s.item, state: s.state });
    case 'regroup':
      return event('Regrouped', { itemId: s.item, group: s.group });
    default:
      return event('Closed', { itemId: s.item });
  }
}

test('counts equal a count of the documents after any history of creates, moves, regroupings and deletes, batched and flushed at random (seeded)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(step, { minLength: 1, maxLength: 40 }),
      fc.constantFrom('live', 'rebuild', 'recount'),
      async (steps, way) => {
        const sqlite = await store();
        const reads: ReadStore =
          way === 'recount'
            ? Object.assign(Object.create(sqlite), { talliesInCommit: false })
            : sqlite;
        const batches: { events: StoredEvent[]; again: boolean }[] = [{ events: [], again: false }];
        for (const s of steps) {
          batches.at(-1)!.events.push(eventOf(s));
          if (s.cut === 0) batches.push({ events: [], again: s.again });
        }
        // The rebuild's way: documents held across batches, flushed now and then in commits of one or two documents.
        const held = createProjectionFold(both, reads, { writesPerCommit: 1 + (steps.length % 2) });
        for (const [n, { events, again }] of batches.entries()) {
          if (events.length === 0) continue;
          if (way === 'rebuild') {
            await held.apply(events);
            if (!again) continue;
            await held.flush('test');
            if (n % 2 === 0) held.forget();
          } else {
            await apply(reads, events);
            if (again) await apply(reads, batches[Math.floor(n / 2)].events); // an older batch delivered again
          }
          await expectCountsOfDocuments(reads, `${way} after batch ${n}`);
        }
        await held.flush('test');
        await expectCountsOfDocuments(reads, way);
        await reads.close();
      },
    ),
    { numRuns: 60, seed: 20261125 },
  );
}, 120_000);

test('an online rebuild gives the counts of the documents; a live batch loaded before its swap and committed after moves no count', async () => {
  const log = openSqliteEventStore(
    join(mkdtempSync(join(tmpdir(), 'ink-tally-log-')), 'events.sqlite'),
  );
  let n = 0;
  const append = (type: string, data: Record<string, unknown>) =>
    log.append(
      `item-${String(data.itemId)}x${++n}`,
      [
        {
          id: crypto.randomUUID(),
          type,
          data,
          metadata: {
            accountId: 'acc_t',
            actor: { kind: 'system', worker: 'test' },
            correlationId: 'c',
            causationId: 'c',
            requestId: 'r',
          },
        },
      ],
      'no_stream',
    );
  for (let i = 0; i < 30; i++) await append('Opened', { itemId: `i${i}`, group: GROUPS[i % 3] });
  for (let i = 0; i < 30; i += 2) await append('Moved', { itemId: `i${i}`, state: 'done' });
  const reads = await store();
  const live = createProjectionFold(both, reads);
  await live.apply(await log.readAll({ maxCount: 1_000 }));
  await live.flush('projections');
  const caughtUp = await reads.getCheckpoint('projections');

  for (let i = 0; i < 30; i += 3) await append('Closed', { itemId: `i${i}` });
  for (let i = 1; i < 30; i += 4) await append('Moved', { itemId: `i${i}`, state: 'done' });
  // The live consumer has loaded the next batch from the tables that serve now...
  const pending = createProjectionFold(both, reads);
  await pending.apply(await log.readAll({ after: caughtUp!, maxCount: 1_000 }));
  // ...when the rebuild, which has read the whole log, swaps its tables in.
  expect(
    await rebuildOnline(log, reads, both, {
      consumer: 'rebuild',
      live: 'projections',
      versionOf: projectionVersion,
    }),
  ).toBe(true);
  await expectCountsOfDocuments(reads, 'rebuilt');
  const rebuilt = await dumpReadModels(reads, both);
  await pending.flush('projections'); // every document is already there: the guard refuses them all
  await expectCountsOfDocuments(reads, 'after the late batch');
  expect(await dumpReadModels(reads, both)).toEqual(rebuilt);
  // g1's items are all closed: it has nothing left to count.
  expect(rebuilt.item_counts).toEqual([
    { id: 'g2', counts: { open: 2, done: 8 } },
    { id: 'g3', counts: { open: 2, done: 8 } },
  ]);
});
