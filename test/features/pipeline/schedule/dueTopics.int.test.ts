import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { topics, type TopicDoc } from '../../../../projections/topics.ts';
import { dueTopics } from '../../../../src/features/pipeline/schedule/dueTopics.ts';
import type { Doc, FindOptions, ReadStore } from '../../../../src/readstore/port.ts';
import { openSqliteReadStore } from '../../../../src/readstore/sqlite.ts';
import { findPlans, slowSteps } from '../../../support/queryPlan.ts';

const NOW = Date.parse('2026-03-01T12:00:00.000Z');
const file = join(mkdtempSync(join(tmpdir(), 'ink-due-topics-')), 'reads.sqlite');
let store: ReadStore;

const topic = (
  id: string,
  projectId: string,
  status: TopicDoc['status'],
  scheduledFor: string | null,
): TopicDoc => ({
  id,
  accountId: 'acc_1',
  projectId,
  title: id,
  keyword: null,
  brief: null,
  status,
  scheduledFor,
  priority: 50,
  source: 'api',
  runId: null,
  rationale: null,
  articleId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
});

beforeAll(async () => {
  store = openSqliteReadStore(file);
  await store.ensureCollections([{ name: topics.collection, indexes: topics.indexes }]);
  const docs = [
    // A year of topics scheduled ahead, and approved ones: none of them is due.
    ...Array.from({ length: 600 }, (_, i) =>
      topic(
        `tpc_ahead${i}`,
        `prj_${i % 3}`,
        'scheduled',
        new Date(NOW + (i + 1) * 3_600_000).toISOString(),
      ),
    ),
    ...Array.from({ length: 300 }, (_, i) => topic(`tpc_approved${i}`, 'prj_0', 'approved', null)),
    topic('tpc_due_a', 'prj_0', 'scheduled', '2026-03-01T11:00:00.000Z'),
    topic('tpc_due_b', 'prj_1', 'scheduled', '2026-02-01T00:00:00.000Z'),
    topic('tpc_due_now', 'prj_0', 'scheduled', '2026-03-01T12:00:00.000Z'),
  ];
  await store.commit(
    docs.map((doc, i) => ({
      kind: 'put',
      collection: topics.collection,
      id: doc.id,
      doc,
      position: BigInt(i),
    })),
  );
});
afterAll(() => store?.close());

test('a scheduler pass reads the due topics and one page from one index, not every scheduled topic', async () => {
  const finds: { options: FindOptions; read: number }[] = [];
  const counting: ReadStore = {
    ...store,
    async find<T extends Doc>(collection: string, options: FindOptions) {
      const page = await store.find<T>(collection, options);
      finds.push({ options, read: page.items.length });
      return page;
    },
  };
  const due = await dueTopics(counting, NOW);
  expect(
    Object.fromEntries([...due].map(([projectId, list]) => [projectId, list.map((doc) => doc.id)])),
  ).toEqual({ prj_0: ['tpc_due_a', 'tpc_due_now'], prj_1: ['tpc_due_b'] });
  // One page (the three due topics, then the first still ahead, where the reading stops), not the 600 scheduled.
  expect(finds).toHaveLength(1);
  expect(finds[0].read).toBeLessThanOrEqual(200);
  const probe = new DatabaseSync(file, { readOnly: true });
  try {
    for (const { plan } of findPlans(probe, topics.collection, finds[0].options))
      expect(slowSteps(plan)).toEqual([]);
  } finally {
    probe.close();
  }
});

/** The store, counting the documents each find reads. */
function counted(readStore: ReadStore) {
  const reads: number[] = [];
  const counting: ReadStore = {
    ...readStore,
    async find<T extends Doc>(collection: string, options: FindOptions) {
      const page = await readStore.find<T>(collection, options);
      reads.push(page.items.length);
      return page;
    },
  };
  return { counting, reads };
}

test('nothing due: an empty answer, having read a handful of the 603 scheduled topics, not a page of 200', async () => {
  const { counting, reads } = counted(store);
  expect((await dueTopics(counting, Date.parse('2026-01-01T00:00:00.000Z'))).size).toBe(0);
  expect(reads).toHaveLength(1);
  expect(reads[0]).toBeLessThanOrEqual(10);
});

test('more due than the first pages hold: every due topic, earliest first, and the reading stops at the first ahead', async () => {
  const other = openSqliteReadStore(
    join(mkdtempSync(join(tmpdir(), 'ink-due-topics-many-')), 'reads.sqlite'),
  );
  try {
    await other.ensureCollections([{ name: topics.collection, indexes: topics.indexes }]);
    const due = Array.from({ length: 250 }, (_, i) =>
      topic(
        `tpc_due${String(i).padStart(3, '0')}`,
        'prj_0',
        'scheduled',
        new Date(NOW - (250 - i) * 60_000).toISOString(),
      ),
    );
    const ahead = Array.from({ length: 300 }, (_, i) =>
      topic(`tpc_later${i}`, 'prj_0', 'scheduled', new Date(NOW + (i + 1) * 60_000).toISOString()),
    );
    await other.commit(
      [...due, ...ahead].map((doc, i) => ({
        kind: 'put',
        collection: topics.collection,
        id: doc.id,
        doc,
        position: BigInt(i),
      })),
    );
    const { counting, reads } = counted(other);
    expect((await dueTopics(counting, NOW)).get('prj_0')?.map((doc) => doc.id)).toEqual(
      due.map((doc) => doc.id),
    );
    expect(reads.reduce((sum, n) => sum + n, 0)).toBeLessThan(250 + 200);
  } finally {
    await other.close();
  }
});
