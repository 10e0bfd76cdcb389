import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { allProjections } from '../../src/app/features.ts';
import { applyProjections } from '../../src/consumers/projectionConsumer.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { defineProjection, type Projection } from '../../src/readstore/projection.ts';
import { projectionVersion } from '../../src/readstore/projectionVersion.ts';
import { rebuildOnline, type RebuildOptions } from '../../src/readstore/rebuild.ts';
import { appendSampleHistory } from '../support/domainEvents.ts';
import { dumpReadModels, openReadModels } from '../support/readModels.ts';

/** Counts each tally's events; 'Dropped' deletes it (a tombstone) and a later 'Counted' starts it again. */
type TallyEvent = { type: 'Counted' | 'Dropped'; data: { tallyId: string } };
const tallies = defineProjection<{ id: string; count: number; last: string }, TallyEvent>({
  name: 'tallies',
  collection: 'tallies',
  indexes: ['count'],
  categories: ['tally'],
  events: { Counted: true, Dropped: true },
  documentId: (event) => event.data.tallyId,
  evolve(doc, event) {
    if (event.type === 'Dropped') return null;
    return { id: event.data.tallyId, count: (doc?.count ?? 0) + 1, last: event.stream };
  },
});
const projections = [...allProjections, tallies] as readonly Projection[];

const tempFile = (name: string) => join(mkdtempSync(join(tmpdir(), 'ink-rebuild-')), name);

const openReads = (file: string) => openReadModels(file, projections);
const rebuild = (events: EventStore, reads: ReadStore, options: Partial<RebuildOptions> = {}) =>
  rebuildOnline(events, reads, projections, {
    consumer: 'rebuild',
    live: 'projections',
    versionOf: projectionVersion,
    ...options,
  });
const dump = (store: ReadStore) => dumpReadModels(store, projections);

/** Three sample lives interleaved with tallies that are counted, dropped and counted again. */
async function sampleLog(): Promise<EventStore> {
  const events = openSqliteEventStore(tempFile('events.sqlite'));
  const tally = async (stream: string, tallyId: string, type: string) => {
    await events.append(
      stream,
      [
        {
          id: crypto.randomUUID(),
          type,
          data: { tallyId },
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
  };
  for (const seed of ['1', '2', '3']) {
    await tally(`tally-a${seed}`, 'a', 'Counted');
    await appendSampleHistory(events, seed);
    await tally(`tally-b${seed}`, 'b', 'Counted');
    await tally(`tally-c${seed}`, seed === '2' ? 'a' : 'b', seed === '2' ? 'Dropped' : 'Counted');
  }
  return events;
}

async function liveReadModels(events: EventStore): Promise<Record<string, unknown[]>> {
  const live = await openReads(tempFile('live.sqlite'));
  // As the live consumer sees them at worst: every event delivered twice, in batches of one.
  for (const event of await events.readAll({ maxCount: 10_000 }))
    await applyProjections(projections, live, [event, event], 'projections', events);
  return dump(live);
}

test('a rebuild gives the read models the live consumer built, whatever its batch and memory bound', async () => {
  const events = await sampleLog();
  const expected = await liveReadModels(events);
  expect(expected.tallies).toEqual([
    { id: 'a', count: 1, last: 'tally-a3', _position: expect.any(String) },
    { id: 'b', count: 5, last: 'tally-c3', _position: expect.any(String) },
  ]);
  expect(expected.articles).toHaveLength(3);
  const head = await events.headPosition();

  for (const bounds of [
    {},
    { readBatch: 1, documentsHeld: 1 },
    { readBatch: 3, documentsHeld: 2 },
    { readBatch: 7, documentsHeld: 100 },
  ]) {
    const reads = await openReads(tempFile('rebuilt.sqlite'));
    // A document no event explains: the rebuild must not keep it.
    await reads.save('articles', { id: 'art_bogus', accountId: 'x' });
    const progress: bigint[] = [];
    await rebuild(events, reads, { ...bounds, onProgress: (position) => progress.push(position) });
    expect(await dump(reads), JSON.stringify(bounds)).toEqual(expected);
    expect(await reads.getCheckpoint('rebuild')).toBeNull();
    expect(progress.at(-1)).toBe(head);
  }
});

test('a rebuild run twice over the same read store ends in the same state', async () => {
  const events = await sampleLog();
  const reads = await openReads(tempFile('rebuilt.sqlite'));
  await rebuild(events, reads, { readBatch: 2, documentsHeld: 1 });
  const first = await dump(reads);
  await rebuild(events, reads);
  expect(await dump(reads)).toEqual(first);
});
