/**
 * The decay pass's cost as a project grows (issue 30): the pass (runDecayPass, as each sync runs
 * it) over a project with 5,000 published articles and a year of daily figures each (the page and
 * 3 queries a day), against the same pass over a project with 50, on one SQLite read store, in
 * alternating rounds. The figure is the time per article; flat is a ratio of ~1×, the target
 * within 1.2×. The pass reads the daily documents and the publication dates 200 articles at a
 * time and never reads an article's stream (it is given no event store at all).
 * Run: npx node bench/decay.bench.ts [BIG_ARTICLES]  (default 5000)  → bench/results/decay.json
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTICLE_PUBLICATIONS_COLLECTION } from '../projections/articlePublications.ts';
import type { ArticleDoc } from '../projections/articles.ts';
import { addDays, type DailySeries } from '../src/domain/decay/series.ts';
import { DEFAULT_SETTINGS } from '../src/domain/projects/settings.ts';
import {
  ensureDecayCollections,
  SEARCH_DAILY,
  SEARCH_DAILY_COVERAGE,
} from '../src/features/searchAnalytics/dailyStore.ts';
import { runDecayPass } from '../src/features/searchAnalytics/decayPass.ts';
import { openSqliteReadStore } from '../src/readstore/sqlite.ts';

const BIG = Number(process.argv[2] ?? 5_000);
const SMALL = 50;
const ROUNDS = 5;
const END = '2026-03-12';
const PROPERTY = 'sc-domain:bench.example';
const dir = mkdtempSync(join(tmpdir(), 'ink-bench-decay-'));
const store = openSqliteReadStore(join(dir, 'reads.sqlite'));
await ensureDecayCollections(store);
await store.ensureCollections([{ name: ARTICLE_PUBLICATIONS_COLLECTION, indexes: [] }]);

const round = (n: number, digits = 3) => Number(n.toFixed(digits));
const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function yearOf(seed: number, perDay: number): DailySeries {
  const series: DailySeries = {};
  for (let i = 0; i < 365; i++) {
    const clicks = Math.max(0, Math.round(perDay * (1 + 0.3 * Math.sin((i + seed) / 5))));
    series[addDays(END, -i)] = [clicks, clicks * 20 + 10, (clicks * 20 + 10) * 4];
  }
  return series;
}

async function seed(projectId: string, count: number): Promise<ArticleDoc[]> {
  const articles: ArticleDoc[] = [];
  for (let n = 0; n < count; n++) {
    const id = `art_${projectId}_${String(n).padStart(5, '0')}`;
    const decaying = n % 3 === 0;
    await store.save(SEARCH_DAILY, {
      id,
      projectId,
      property: PROPERTY,
      url: `https://bench.example/blog/${id}`,
      days: decaying ? { ...yearOf(n, 10), ...yearOf(n, 3) } : yearOf(n, 6),
      queries: {
        [`query a ${n}`]: yearOf(n, 3),
        [`query b ${n}`]: yearOf(n + 7, 2),
        [`query c ${n}`]: yearOf(n + 13, 1),
      },
    });
    await store.save(ARTICLE_PUBLICATIONS_COLLECTION, {
      id,
      accountId: 'acc_bench',
      projectId,
      firstPublishedAt: '2025-01-10T09:00:00.000Z',
      refreshes:
        n % 10 === 0
          ? [
              {
                refreshId: `r${n}`,
                requestedAt: '2025-09-01T09:00:00.000Z',
                mergedAt: '2025-09-02T09:00:00.000Z',
              },
            ]
          : [],
    });
    articles.push({
      id,
      projectId,
      title: `Article ${n}`,
      publishedAt: '2025-01-10T09:00:00.000Z',
      body: 'In 2024 the latest release was version 3.2.1. Feed the starter twice a day.',
      content: null,
    } as unknown as ArticleDoc);
  }
  await store.save(SEARCH_DAILY_COVERAGE, {
    id: projectId,
    property: PROPERTY,
    from: addDays(END, -364),
    through: END,
  });
  return articles;
}

const seedStarted = performance.now();
const big = await seed('big', BIG);
const small = await seed('small', SMALL);
const seedSeconds = (performance.now() - seedStarted) / 1000;

async function pass(projectId: string, articles: ArticleDoc[]): Promise<number> {
  const started = performance.now();
  const summary = await runDecayPass({
    readStore: store,
    project: { id: projectId, accountId: 'acc_bench', settings: DEFAULT_SETTINGS },
    property: PROPERTY,
    articles,
    end: END,
    at: '2026-03-15T10:00:00.000Z',
  });
  if (summary.articles !== articles.length) throw new Error('the pass skipped articles');
  return (performance.now() - started) / articles.length;
}

await pass('small', small); // warm-up
const bigPerArticle: number[] = [];
const smallPerArticle: number[] = [];
const ratios: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  const s = await pass('small', small);
  const b = await pass('big', big);
  smallPerArticle.push(s);
  bigPerArticle.push(b);
  ratios.push(b / s);
}

const result = {
  bench: 'decay',
  at: new Date().toISOString(),
  host: { cpus: cpus().length, loadavg: loadavg().map((n) => round(n, 2)) },
  articles: { big: BIG, small: SMALL, daysEach: 365, queriesEach: 3 },
  seedSeconds: round(seedSeconds, 1),
  msPerArticle: {
    big: round(median(bigPerArticle)),
    small: round(median(smallPerArticle)),
  },
  bigPassSeconds: round((median(bigPerArticle) * BIG) / 1000, 2),
  ratio: round(median(ratios), 2),
  target: 1.2,
  met: median(ratios) <= 1.2,
  streamReads: 0,
};
console.log(JSON.stringify(result, null, 2));
mkdirSync(join(import.meta.dirname, 'results'), { recursive: true });
writeFileSync(
  join(import.meta.dirname, 'results', 'decay.json'),
  `${JSON.stringify(result, null, 2)}\n`,
);
