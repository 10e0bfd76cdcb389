import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { allProjections } from '../../src/app/features.ts';
import { applyProjections } from '../../src/consumers/projectionConsumer.ts';
import { openSqliteEventStore } from '../../src/eventstore/sqlite.ts';
import type { StoredEvent } from '../../src/eventstore/port.ts';
import type { ReadStore } from '../../src/readstore/port.ts';
import { appendSampleHistory } from '../support/domainEvents.ts';
import { dumpReadModels, openReadModels } from '../support/readModels.ts';

const freshReadStore = () =>
  openReadModels(join(mkdtempSync(join(tmpdir(), 'ink-proj-')), 'reads.sqlite'), allProjections);
const dump = (store: ReadStore) => dumpReadModels(store, allProjections);

const events = openSqliteEventStore(join(mkdtempSync(join(tmpdir(), 'ink-log-')), 'events.sqlite'));
for (const seed of ['1', '2', '3']) await appendSampleHistory(events, seed);
const sampleLog = (): Promise<StoredEvent[]> => events.readAll({ maxCount: 10_000 });

test('every projection gives the same read models when every event is delivered twice', async () => {
  const log = await sampleLog();
  const once = await freshReadStore();
  await applyProjections(allProjections, once, log, 'test', events);
  const twice = await freshReadStore();
  for (const event of log)
    await applyProjections(allProjections, twice, [event, event], 'test', events);
  for (const event of log) await applyProjections(allProjections, twice, [event], 'test', events);
  const expected = await dump(once);
  expect(expected.articles).toHaveLength(3);
  expect(expected.topics[0]).toMatchObject({ priority: 5, status: 'written' });
  expect(expected.projects[0]).toMatchObject({ paused: true });
  expect(await dump(twice)).toEqual(expected);
});

test('replaying an older event never moves a document backwards', async () => {
  const log = await sampleLog();
  const store = await freshReadStore();
  await applyProjections(allProjections, store, log, 'test', events);
  const before = await dump(store);
  await applyProjections(allProjections, store, log.slice(0, 5), 'test', events);
  expect(await dump(store)).toEqual(before);
});
