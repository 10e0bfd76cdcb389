import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { topics } from '../../projections/topics.ts';
import type { ArticleEvent } from '../../src/domain/articles/article.ts';
import { TOPIC_EVENTS, type TopicEvent } from '../../src/domain/topics/topic.ts';
import type { StoredEvent } from '../../src/eventstore/port.ts';
import { defineProjection } from '../../src/readstore/projection.ts';
import { createProjectionFold } from '../../src/readstore/projectionFold.ts';
import { openReadModels } from '../support/readModels.ts';

let position = 0n;
const stored = (type: string, data: Record<string, unknown>): StoredEvent => ({
  id: crypto.randomUUID(),
  type,
  data,
  stream: `topic-${String(data.topicId)}`,
  revision: 0n,
  position: ++position,
  createdAt: '2026-11-29T00:00:00.000Z',
  metadata: {
    accountId: 'acc_t',
    actor: { kind: 'system', worker: 'test' },
    correlationId: 'c',
    causationId: 'c',
    requestId: 'r',
  },
});

test('a read model is typed by its streams: another stream’s event, or a missing name, does not compile', () => {
  const titles = defineProjection<{ id: string; title: string }, TopicEvent>({
    name: 'titles',
    collection: 'titles',
    indexes: [],
    categories: ['topic'],
    events: TOPIC_EVENTS,
    documentId: (event) => event.data.topicId,
    evolve(doc, event) {
      switch (event.type) {
        case 'TopicCreated':
          return { id: event.data.topicId, title: event.data.title };
        // @ts-expect-error ArticleQueued is an article event, not a topic's
        case 'ArticleQueued':
          return doc;
        default:
          return doc;
      }
    },
  });
  // @ts-expect-error the names of ArticleEvent are not those of TopicEvent
  const wrongNames: Parameters<typeof defineProjection<{ id: string }, ArticleEvent>>[0]['events'] =
    TOPIC_EVENTS;
  expect(titles.knows('TopicCreated')).toBe(true);
  expect(titles.knows('ArticleQueued')).toBe(false);
  expect(Object.keys(wrongNames)).toContain('TopicCreated');
});

test('an event of a type this release does not know touches no document and is reported', async () => {
  const reads = await openReadModels(
    join(mkdtempSync(join(tmpdir(), 'ink-typed-')), 'reads.sqlite'),
    [topics],
  );
  const reported: string[] = [];
  const fold = createProjectionFold([topics], reads, {
    onUnknownEvent: (projection, type) => reported.push(`${projection}: ${type}`),
  });
  await fold.apply([
    stored('TopicCreated', {
      topicId: 'tpc_1',
      projectId: 'prj_1',
      title: 'Solar batteries',
      keyword: null,
      brief: null,
      status: 'approved',
      scheduledFor: null,
      priority: 0,
      source: 'api',
      runId: null,
      rationale: null,
      at: '2026-11-29T00:00:00.000Z',
    }),
    stored('TopicTeleported', { topicId: 'tpc_1', title: 'from a newer release' }),
  ]);
  await fold.flush('test');
  expect(reported).toEqual(['topics: TopicTeleported']);
  expect(await reads.get('topics', 'tpc_1')).toMatchObject({ title: 'Solar batteries' });
});
