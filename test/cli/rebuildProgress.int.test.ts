import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { allProjections } from '../../src/app/features.ts';
import { rebuildProjections } from '../../src/cli/rebuild.ts';
import { manualClock } from '../../src/core/clock.ts';
import { createEsdbEventStore } from '../../src/eventstore/esdb.ts';
import { createInMemoryEventStore } from '../../src/eventstore/inMemory.ts';
import type { EventStore } from '../../src/eventstore/port.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import { REBUILD_READ_BATCH } from '../../src/readstore/rebuild.ts';
import { appendSampleHistory } from '../support/domainEvents.ts';
import { openReadModels } from '../support/readModels.ts';
import { createFakeEsdbClient } from '../eventstore/fakeEsdbClient.ts';
import { newEvent } from '../eventstore/events.ts';

const tempDir = () => mkdtempSync(join(tmpdir(), 'ink-rebuild-progress-'));

const stores: [string, () => EventStore][] = [
  ['in memory', () => createInMemoryEventStore()],
  ['SQLite', () => openSqliteEventStore(join(tempDir(), 'events.sqlite'))],
  // Positions are byte offsets there: the log's head is hundreds of thousands for a few thousand events.
  ['EventStoreDB (the fake client)', () => createEsdbEventStore(createFakeEsdbClient())],
];

/** Two sample lives (the read models' events) and 2,400 events no read model reads, so the rebuild reads three batches of 1,000. */
async function grownLog(store: EventStore): Promise<number> {
  for (const seed of ['1', '2']) await appendSampleHistory(store, seed);
  for (let stream = 0; stream < 24; stream++) {
    await store.append(
      `filler-${stream}`,
      Array.from({ length: 100 }, (_, i) => newEvent('Filled', { i })),
      'no_stream',
    );
  }
  return (await store.readAll({ maxCount: 100_000 })).length;
}

/** A terminal that keeps what was drawn, and a clock that moves one second a reading. */
function watched() {
  let text = '';
  let ms = 0;
  return {
    progress: {
      stream: {
        isTTY: true,
        write: (chunk: string) => {
          text += chunk;
          return true;
        },
      },
      now: () => (ms += 1000),
    },
    lines: () => text.split(/[\r\n]/).filter(Boolean),
  };
}

const parse = (line: string) => {
  const match = /\] (\d+)% (\d+) events (\d+)\/s ETA ([\d.]+)s$/.exec(line);
  if (!match) throw new Error(`not a progress line: ${line}`);
  return {
    percent: Number(match[1]),
    events: Number(match[2]),
    rate: Number(match[3]),
    eta: Number(match[4]),
  };
};

describe.each(stores)("the rebuild's progress on %s", (_name, open) => {
  test('counts the events replayed, not positions; the bar and its ETA follow the position reached', async () => {
    const events = open();
    const total = await grownLog(events);
    const readStore = await openReadModels(join(tempDir(), 'reads.sqlite'), allProjections);
    const watch = watched();

    const result = await rebuildProjections(
      { eventStore: events, readStore, projections: allProjections, clock: manualClock() },
      undefined,
      { progress: watch.progress },
    );

    expect(result.events).toBe(total);
    const drawn = watch.lines().map(parse);
    expect(drawn.at(-1)).toMatchObject({ percent: 100, events: total, eta: 0 });
    const during = drawn.slice(0, -1);
    expect(during.map((line) => line.events)).toEqual([
      REBUILD_READ_BATCH,
      2 * REBUILD_READ_BATCH,
      total,
    ]);
    for (const line of during.slice(0, 2)) {
      expect(line.percent).toBeGreaterThan(0);
      expect(line.percent).toBeLessThan(100);
      expect(line.eta).toBeGreaterThan(0);
    }
    expect(during[0].percent).toBeLessThan(during[1].percent);
    expect(during[2]).toMatchObject({ percent: 100, eta: 0 });
  });

  test('a rebuild of one read model counts only the events of its categories and still ends at 100%', async () => {
    const events = open();
    await grownLog(events);
    const topicEvents = (await events.readAll({ maxCount: 100_000, categories: ['topic'] })).length;
    const readStore = await openReadModels(join(tempDir(), 'reads.sqlite'), allProjections);
    const watch = watched();

    const result = await rebuildProjections(
      { eventStore: events, readStore, projections: allProjections, clock: manualClock() },
      'topics',
      { progress: watch.progress },
    );

    expect(topicEvents).toBeGreaterThan(0);
    expect(result.events).toBe(topicEvents);
    expect(parse(watch.lines().at(-1)!)).toMatchObject({ percent: 100, events: topicEvents });
  });
});
