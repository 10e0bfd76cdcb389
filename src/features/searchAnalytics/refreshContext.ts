import type { ArticleEvent } from '../../domain/articles/article.ts';
import { oneLine } from '../../core/oneLine.ts';
import type { StoredEvent } from '../../eventstore/port.ts';
import type { PeriodTotals, SearchMetricsSnapshot } from '../../domain/searchAnalytics/metrics.ts';

/**
 * What a refresh knows of the published article's search performance: the latest figures recorded
 * on its stream (the refreshed version is not live until merged, so these are the "before"
 * figures), put into words for the writer and into a table for the pull request.
 */
export type RecordedMetrics = SearchMetricsSnapshot & { syncedAt: string };

export function latestSearchMetrics(events: readonly StoredEvent[]): RecordedMetrics | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as unknown as ArticleEvent;
    if (event.type === 'ArticleSearchMetricsUpdated') {
      const {
        articleId: _articleId,
        projectId: _projectId,
        syncId: _syncId,
        at,
        ...snapshot
      } = event.data;
      return { ...snapshot, syncedAt: at };
    }
  }
  return null;
}

const count = (value: number): string => value.toLocaleString('en-US');
const percent = (ctr: number): string => `${(ctr * 100).toFixed(1)}%`;
const position = (value: number | null): string => (value === null ? '—' : value.toFixed(1));

const totalsText = (totals: PeriodTotals): string =>
  `${count(totals.clicks)} clicks, ${count(totals.impressions)} impressions, CTR ${percent(totals.ctr)}, average position ${position(totals.position)}`;

/** For the refresh's research and writing: the figures, and the queries to keep ranking for. */
export function searchBrief(metrics: RecordedMetrics): string {
  const { url, period, previousPeriod, current, previous, queries } = metrics;
  const figures =
    `Search performance of the published page ${url} (Google Search Console): ${period.start} to ${period.end}: ${totalsText(current)}; ` +
    `${previousPeriod.start} to ${previousPeriod.end}: ${totalsText(previous)}.`;
  if (queries.length === 0)
    return `${figures} It ranked for no query in the last period; make the article answer its keyword's search intent plainly.`;
  const listed = queries
    .map(
      (query) =>
        `"${query.query}" (${count(query.clicks)} clicks, ${count(query.impressions)} impressions, position ${position(query.position)})`,
    )
    .join('; ');
  return `${figures} Queries it ranks for: ${listed}. Keep answering these queries well, and where a position is weak cover what people searching it expect.`;
}

/** The refresh pull request's section quoting the figures before the refresh. */
export function searchBeforeSection(metrics: RecordedMetrics): string[] {
  const { url, period, previousPeriod, current, previous, queries, syncedAt } = metrics;
  const row = (name: string, pick: (totals: PeriodTotals) => string) =>
    `| ${name} | ${pick(current)} | ${pick(previous)} |`;
  return [
    '### Search performance before this refresh',
    `Google Search Console figures for \`${url}\`, synced ${syncedAt.slice(0, 10)}:`,
    '',
    `| | ${period.start} – ${period.end} | ${previousPeriod.start} – ${previousPeriod.end} |`,
    '|---|---|---|',
    row('Clicks', (t) => count(t.clicks)),
    row('Impressions', (t) => count(t.impressions)),
    row('CTR', (t) => percent(t.ctr)),
    row('Average position', (t) => position(t.position)),
    ...(queries.length
      ? [
          '',
          `Top queries (${period.start} – ${period.end}): ${queries.map((q) => `\`${oneLine(q.query, 200).replace(/`/g, '')}\` (${count(q.clicks)} clicks, position ${position(q.position)})`).join(', ')}.`,
        ]
      : []),
  ];
}
