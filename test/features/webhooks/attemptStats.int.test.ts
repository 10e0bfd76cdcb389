import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ReadStore } from '../../../src/readstore/port.ts';
import { openSqliteReadStore } from '../../../src/readstore/sqlite.ts';
import {
  ATTEMPT_STATS,
  ensureWebhookCollections,
} from '../../../src/features/webhooks/collections.ts';
import {
  attemptStatsId,
  createAttemptStats,
  hourOf,
  type AttemptStatsDoc,
} from '../../../src/features/webhooks/delivery/attemptStats.ts';

let dir: string;
let readStore: ReadStore;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'inkstream-attempt-stats-'));
  readStore = openSqliteReadStore(join(dir, 'read.db'));
  await ensureWebhookCollections(readStore);
});
afterAll(async () => {
  await readStore.close();
  rmSync(dir, { recursive: true, force: true });
});

const NINE = Date.parse('2026-03-01T09:00:00.000Z');
const row = (endpointId: string, atMs: number) =>
  readStore.get<AttemptStatsDoc>(ATTEMPT_STATS, attemptStatsId(endpointId, hourOf(atMs)));

test('attempts recorded at once in one hour all count, even when their writes land in reverse order', async () => {
  const stats = createAttemptStats(readStore, 'whk_burst');
  const writes = await Promise.all(
    [true, false, true, true, false].map((ok, i) => stats.record(NINE + i * 1000, ok)),
  );
  await readStore.commit([...writes].reverse());
  expect(await row('whk_burst', NINE)).toMatchObject({
    endpointId: 'whk_burst',
    hour: '2026-03-01T09:00:00.000Z',
    succeeded: 3,
    failed: 2,
  });
});

test('a late attempt of the previous hour counts in that hour; a new process (after a crash or handover) carries on from the stored counts', async () => {
  const first = createAttemptStats(readStore, 'whk_hours');
  await readStore.commit([await first.record(NINE + 59 * 60_000, true)]);
  await readStore.commit([await first.record(NINE + 60 * 60_000, false)]);
  await readStore.commit([await first.record(NINE + 59 * 60_000 + 30_000, true)]); // started before 10:00, settled after
  const next = createAttemptStats(readStore, 'whk_hours');
  await readStore.commit([await next.record(NINE + 61 * 60_000, true)]);
  expect(await row('whk_hours', NINE)).toMatchObject({ succeeded: 2, failed: 0 });
  expect(await row('whk_hours', NINE + 60 * 60_000)).toMatchObject({ succeeded: 1, failed: 1 });
});
