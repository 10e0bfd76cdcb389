import type { ArticleDoc } from '../../../projections/articles.ts';
import type { DateRange } from '../../core/dateRange.ts';
import { addDays, type DailySeries, type DayFigures } from '../../domain/decay/series.ts';
import {
  ensureDecayCollections,
  SEARCH_DAILY,
  SEARCH_DAILY_COVERAGE,
  type DailyCoverageDoc,
  type SearchDailyDoc,
} from './dailyStore.ts';
import type { ProjectDoc } from '../../../projections/projects.ts';
import type { SearchConnection } from '../../domain/searchAnalytics/searchAnalytics.ts';
import type { SearchConsolePort, SearchRow } from '../../integrations/searchAnalytics/port.ts';
import type { Platform } from '../../platform.ts';

/** What recording needs of a sync run (sync.ts's SyncRun). */
type SyncRun = {
  platform: Platform;
  port: SearchConsolePort;
  connection: SearchConnection;
  project: ProjectDoc;
  call<T>(request: () => Promise<T>): Promise<T>;
  stillCurrent(): Promise<boolean>;
};

/** Search Console keeps 16 months: the oldest day a backfill asks for is this many days before the last. */
export const SEARCH_CONSOLE_DAYS = 486;
/** The queries kept per article: those with the most clicks over the recorded days. */
export const DAILY_QUERIES = 20;
const ROW_LIMIT = 25_000;
const MAX_PAGES = 20;
const MAX_QUERY_PAGES = 4;

type Article = { article: ArticleDoc; url: string };

/** The later of two YYYY-MM-DD days (they compare as text). */
const laterDay = (a: string, b: string): string => (a < b ? b : a);

const figures = (row: SearchRow): DayFigures => [
  row.clicks,
  row.impressions,
  Math.round(row.position * row.impressions * 100) / 100,
];

async function paged(
  run: SyncRun,
  range: DateRange,
  dimensions: ('page' | 'query' | 'date')[],
  page: string | undefined,
  maxPages: number,
): Promise<SearchRow[]> {
  const rows: SearchRow[] = [];
  for (let index = 0; index < maxPages; index++) {
    const answer = await run.call(() =>
      run.port.query(run.connection.property, {
        range,
        dimensions,
        ...(page ? { page } : {}),
        rowLimit: ROW_LIMIT,
        startRow: index * ROW_LIMIT,
      }),
    );
    rows.push(...answer);
    if (answer.length < ROW_LIMIT) break;
  }
  return rows;
}

/**
 * The days to ask Google for: after the last recorded day of this property; on a first sync, the
 * whole 16 months when the connection asked for a backfill, else the sync's 28-day period.
 */
function daysToFetch(
  coverage: DailyCoverageDoc | null,
  property: string,
  period: DateRange,
  backfill: boolean,
): DateRange | null {
  const oldest = addDays(period.end, -(SEARCH_CONSOLE_DAYS - 1));
  if (coverage && coverage.property === property) {
    if (coverage.through >= period.end) return null;
    const next = addDays(coverage.through, 1);
    return { start: laterDay(next, oldest), end: period.end };
  }
  return { start: backfill ? oldest : period.start, end: period.end };
}

function merge(
  into: DailySeries,
  rows: Iterable<[string, DayFigures]>,
  oldest: string,
): DailySeries {
  const merged: DailySeries = {};
  for (const [day, value] of Object.entries(into)) if (day >= oldest) merged[day] = value;
  for (const [day, value] of rows) merged[day] = value;
  return merged;
}

const clicksOf = (series: DailySeries) =>
  Object.values(series).reduce((sum, day) => sum + day[0], 0);

/**
 * Records the daily figures of the published articles (page × day, then each article's
 * query × day), through the run's retries. Redone after a crash, it writes the same days again.
 */
export async function recordDailyFigures(
  run: SyncRun,
  articles: readonly Article[],
  period: DateRange,
  lookup: (rows: Map<string, SearchRow>, url: string) => SearchRow | null,
): Promise<boolean> {
  const { platform, connection, project } = run;
  const store = platform.readStore;
  await ensureDecayCollections(store);
  const coverage = await store.get<DailyCoverageDoc>(SEARCH_DAILY_COVERAGE, project.id);
  const range = daysToFetch(coverage, connection.property, period, connection.backfill === true);
  if (!range) return true;
  const oldest = addDays(period.end, -(SEARCH_CONSOLE_DAYS - 1));
  const byPage = new Map<string, Map<string, DayFigures>>();
  for (const row of await paged(run, range, ['page', 'date'], undefined, MAX_PAGES)) {
    const [page, day] = row.keys;
    const days = byPage.get(page) ?? new Map<string, DayFigures>();
    days.set(day, figures(row));
    byPage.set(page, days);
  }
  const pages = new Map([...byPage.keys()].map((page) => [page, { keys: [page] } as SearchRow]));
  for (const [index, { article, url }] of articles.entries()) {
    if (index > 0 && index % 25 === 0 && !(await run.stillCurrent())) return false;
    const found = lookup(pages, url);
    const stored = await store.get<SearchDailyDoc>(SEARCH_DAILY, article.id);
    const same = stored?.property === connection.property ? stored : null;
    if (!found && !same) continue;
    const days = found ? byPage.get(found.keys[0])! : new Map<string, DayFigures>();
    const queries: Record<string, DailySeries> = {};
    const fetched = new Map<string, Map<string, DayFigures>>();
    if (found)
      for (const row of await paged(
        run,
        range,
        ['query', 'date'],
        found.keys[0],
        MAX_QUERY_PAGES,
      )) {
        const [query, day] = row.keys;
        const series = fetched.get(query) ?? new Map<string, DayFigures>();
        series.set(day, figures(row));
        fetched.set(query, series);
      }
    for (const query of new Set([...Object.keys(same?.queries ?? {}), ...fetched.keys()]))
      queries[query] = merge(same?.queries[query] ?? {}, fetched.get(query) ?? [], oldest);
    const kept = Object.entries(queries)
      .filter(([, series]) => Object.keys(series).length > 0)
      .sort(([a, x], [b, y]) => clicksOf(y) - clicksOf(x) || (a < b ? -1 : 1))
      .slice(0, DAILY_QUERIES);
    await store.save(SEARCH_DAILY, {
      id: article.id,
      projectId: project.id,
      property: connection.property,
      url,
      days: merge(same?.days ?? {}, days, oldest),
      queries: Object.fromEntries(kept),
    } satisfies SearchDailyDoc);
  }
  const keepFrom = coverage?.property === connection.property ? coverage.from : range.start;
  await store.save(SEARCH_DAILY_COVERAGE, {
    id: project.id,
    property: connection.property,
    from: laterDay(keepFrom, oldest),
    through: period.end,
  } satisfies DailyCoverageDoc);
  return true;
}
