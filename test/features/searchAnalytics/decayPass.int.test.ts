import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import {
  ARTICLE_PUBLICATIONS_COLLECTION,
  articlePublications,
} from '../../../projections/articlePublications.ts';
import type { ArticleDoc } from '../../../projections/articles.ts';
import { addDays, type DailySeries } from '../../../src/domain/decay/series.ts';
import { DEFAULT_SETTINGS } from '../../../src/domain/projects/settings.ts';
import type { StoredEvent } from '../../../src/eventstore/port.ts';
import {
  DECAY_FINDINGS,
  ensureDecayCollections,
  SEARCH_DAILY,
  SEARCH_DAILY_COVERAGE,
  type DecayFindingDoc,
} from '../../../src/features/searchAnalytics/dailyStore.ts';
import { runDecayPass } from '../../../src/features/searchAnalytics/decayPass.ts';
import { openSqliteReadStore } from '../../../src/readstore/sqlite.ts';

/**
 * A merged refresh measured by the decay pass on a real SQLite read store: the first publication
 * and each refresh's merge come from the article's events (articlePublications), the clicks from
 * the recorded days; the outcome waits for the 28 days after the merge.
 */
const dir = mkdtempSync(join(tmpdir(), 'ink-decay-pass-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PROPERTY = 'sc-domain:crumb.example';

const event = (type: string, data: Record<string, unknown>): StoredEvent =>
  ({ type, data, metadata: { accountId: 'acc_1' } }) as unknown as StoredEvent;

function publications(articleId: string, refreshMergedAt: string) {
  return [
    event('ArticleQueued', { articleId, projectId: 'prj_1' }),
    event('ArticleMerged', { articleId, at: '2025-03-01T09:00:00.000Z' }),
    event('ArticleRefreshRequested', { articleId, refreshId: 'run_1', at: refreshMergedAt }),
    event('ArticleMerged', { articleId, at: refreshMergedAt }),
  ].reduce(articlePublications.evolve, null);
}

test('a refresh is better once the 28 days after its merge are recorded, and waiting for data before', async () => {
  const store = openSqliteReadStore(join(dir, 'reads.sqlite'));
  await ensureDecayCollections(store);
  await store.ensureCollections([{ name: ARTICLE_PUBLICATIONS_COLLECTION, indexes: [] }]);
  const end = '2026-03-12';
  const merge = addDays(end, -40);
  const days: DailySeries = {};
  for (let i = 0; i < 300; i++) {
    const day = addDays(end, -i);
    const clicks = day > merge ? 10 : 4;
    days[day] = [clicks, 200, 800];
  }
  const doc = publications('art_1', `${merge}T12:00:00.000Z`)!;
  expect(doc).toMatchObject({
    projectId: 'prj_1',
    firstPublishedAt: '2025-03-01T09:00:00.000Z',
    refreshes: [{ refreshId: 'run_1', mergedAt: `${merge}T12:00:00.000Z` }],
  });
  await store.save(ARTICLE_PUBLICATIONS_COLLECTION, doc);
  await store.save(SEARCH_DAILY, {
    id: 'art_1',
    projectId: 'prj_1',
    property: PROPERTY,
    url: 'u',
    days,
    queries: {},
  });
  await store.save(SEARCH_DAILY_COVERAGE, {
    id: 'prj_1',
    property: PROPERTY,
    from: addDays(end, -299),
    through: end,
  });
  const article = {
    id: 'art_1',
    title: 'Starter',
    publishedAt: `${merge}T12:00:00.000Z`,
    body: 'Feed it.',
    content: null,
  } as unknown as ArticleDoc;
  const pass = (on: string) =>
    runDecayPass({
      readStore: store,
      project: { id: 'prj_1', accountId: 'acc_1', settings: DEFAULT_SETTINGS },
      property: PROPERTY,
      articles: [article],
      end: on,
      at: `${on}T13:00:00.000Z`,
    });

  const early = await pass(addDays(merge, 20));
  expect(early.refreshes).toEqual({ better: 0, unchanged: 0, worse: 0, waitingForData: 1 });
  expect((await store.get<DecayFindingDoc>(DECAY_FINDINGS, 'art_1'))!.refresh).toMatchObject({
    outcome: 'waiting_for_data',
    after: null,
  });

  const later = await pass(end);
  expect(later.refreshes).toEqual({ better: 1, unchanged: 0, worse: 0, waitingForData: 0 });
  const finding = (await store.get<DecayFindingDoc>(DECAY_FINDINGS, 'art_1'))!;
  expect(finding.refresh).toMatchObject({
    outcome: 'better',
    before: { clicks: 112 },
    after: { clicks: 280 },
    changePercent: 150,
  });
  // Judged since the first publication, not since the refresh's merge.
  expect(finding.history.from).toBe(addDays(end, -299));
  expect(finding.verdict).toBe('steady');
});
