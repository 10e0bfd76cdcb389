import type { ArticleDoc } from '../../../projections/articles.ts';
import type { ProjectDoc } from '../../../projections/projects.ts';
import { articleStream } from '../../domain/articles/decide.ts';
import type { StoredEvent } from '../../eventstore/port.ts';
import type { DateRange } from '../../core/dateRange.ts';
import type { SearchConsolePort, SearchRow } from '../../integrations/searchAnalytics/port.ts';
import { keyedContext } from '../../consumers/commandContext.ts';
import type { Platform } from '../../platform.ts';
import { articleUrl, publishedSlug } from './articleUrl.ts';
import { recordDailyFigures } from './daily.ts';
import { runDecayPass } from './decayPass.ts';
import type { SearchConnection } from '../../domain/searchAnalytics/searchAnalytics.ts';
import {
  NO_TRAFFIC,
  periodsAt,
  TOP_QUERIES,
  type PeriodTotals,
  type QueryTotals,
} from '../../domain/searchAnalytics/metrics.ts';

export const SEARCH_SYNC_WORKER = 'searchAnalytics.sync';

/** Search Console's largest page of rows. */
const ROW_LIMIT = 25_000;
const MAX_PAGES = 20;
/** How often (in articles) a long run checks it is still the current run of the current connection. */
const CHECK_EVERY = 25;

export type SyncRun = {
  platform: Platform;
  port: SearchConsolePort;
  connection: SearchConnection;
  project: ProjectDoc;
  syncId: string;
  syncedAt: string;
  /** The SearchAnalyticsSyncRequested event: what the recorded figures are caused by. */
  cause: StoredEvent;
  /** Every Google call goes through it (retries with backoff). */
  call<T>(request: () => Promise<T>): Promise<T>;
  stillCurrent(): Promise<boolean>;
};

export type SyncOutcome = {
  period: DateRange;
  previousPeriod: DateRange;
  articles: number;
  withTraffic: number;
};

/** Published articles: merged at least once (a refresh in progress leaves the published version live). */
async function publishedArticles(platform: Platform, projectId: string): Promise<ArticleDoc[]> {
  const found: ArticleDoc[] = [];
  let cursor: string | undefined;
  do {
    const page = await platform.readStore.find<ArticleDoc>('articles', {
      filter: { projectId },
      limit: 200,
      cursor,
    });
    found.push(
      ...page.items.filter(
        (article) => article.publishedAt !== null && publishedSlug(article) !== null,
      ),
    );
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return found;
}

async function pageTotals(run: SyncRun, range: DateRange): Promise<Map<string, SearchRow>> {
  const byPage = new Map<string, SearchRow>();
  for (let page = 0; page < MAX_PAGES; page++) {
    const rows = await run.call(() =>
      run.port.query(run.connection.property, {
        range,
        dimensions: ['page'],
        rowLimit: ROW_LIMIT,
        startRow: page * ROW_LIMIT,
      }),
    );
    for (const row of rows) byPage.set(row.keys[0], row);
    if (rows.length < ROW_LIMIT) break;
  }
  return byPage;
}

/** Google reports the canonical URL; a pattern that differs from it by a trailing slash still finds it. */
function lookup(rows: Map<string, SearchRow>, url: string): SearchRow | null {
  return rows.get(url) ?? rows.get(url.endsWith('/') ? url.slice(0, -1) : `${url}/`) ?? null;
}

const totals = (row: SearchRow | null): PeriodTotals =>
  row
    ? { clicks: row.clicks, impressions: row.impressions, ctr: row.ctr, position: row.position }
    : NO_TRAFFIC;

async function topQueries(run: SyncRun, page: string, range: DateRange): Promise<QueryTotals[]> {
  const rows = await run.call(() =>
    run.port.query(run.connection.property, {
      range,
      dimensions: ['query'],
      page,
      rowLimit: TOP_QUERIES,
    }),
  );
  return rows.map((row) => ({
    query: row.keys[0],
    clicks: row.clicks,
    impressions: row.impressions,
    ctr: row.ctr,
    position: row.position,
  }));
}

/**
 * One sync: page-level figures of the property for the last 28 days and the 28 before (two
 * queries, paged), then each published article's top queries, recorded on the article's stream
 * (ArticleSearchMetricsUpdated, once per run). Null when the run was superseded meanwhile.
 */
export async function syncArticles(run: SyncRun): Promise<SyncOutcome | null> {
  const { platform, connection, project, syncId, syncedAt } = run;
  const { period, previousPeriod } = periodsAt(syncedAt);
  const articles = await publishedArticles(platform, project.id);
  if (articles.length === 0) return { period, previousPeriod, articles: 0, withTraffic: 0 };
  const now = await pageTotals(run, period);
  const before = await pageTotals(run, previousPeriod);
  let withTraffic = 0;
  for (const [index, article] of articles.entries()) {
    if (index > 0 && index % CHECK_EVERY === 0 && !(await run.stillCurrent())) return null;
    const url = articleUrl(connection.urlPattern, project, publishedSlug(article)!);
    const current = lookup(now, url);
    if (current) withTraffic++;
    const queries = current ? await topQueries(run, current.keys[0], period) : [];
    await platform.commands.execute(
      articleStream,
      article.id,
      {
        type: 'RecordSearchMetrics',
        projectId: project.id,
        syncId,
        property: connection.property,
        url,
        period,
        previousPeriod,
        current: totals(current),
        previous: totals(lookup(before, url)),
        queries,
        at: syncedAt,
      },
      keyedContext(run.cause, SEARCH_SYNC_WORKER, `${syncId}:${article.id}`),
    );
  }
  const urls = articles.map((article) => ({
    article,
    url: articleUrl(connection.urlPattern, project, publishedSlug(article)!),
  }));
  if (!(await recordDailyFigures(run, urls, period, lookup))) return null;
  await runDecayPass({
    readStore: platform.readStore,
    project,
    property: connection.property,
    articles,
    end: period.end,
    at: syncedAt,
  });
  return { period, previousPeriod, articles: articles.length, withTraffic };
}
