import type { DateRange } from '../../core/dateRange.ts';

/** What Search Console says about one article URL, as the article's events record it. */

/** Totals over a period; position is null when the page had no impressions (Google gives none). */
export type PeriodTotals = {
  clicks: number;
  impressions: number;
  ctr: number;
  position: number | null;
};

export type QueryTotals = {
  query: string;
  clicks: number;
  impressions: number;
  ctr: number;
  position: number;
};

export type SearchMetricsSnapshot = {
  property: string;
  url: string;
  period: DateRange;
  previousPeriod: DateRange;
  current: PeriodTotals;
  previous: PeriodTotals;
  /** The queries the page ranked for in `period`, most clicks first. */
  queries: QueryTotals[];
};

export const PERIOD_DAYS = 28;
/** Search Console's final figures lag two to three days; a period ending earlier holds no partial days. */
export const DATA_LAG_DAYS = 3;
export const TOP_QUERIES = 10;

const DAY_MS = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The last 28 complete days before a sync at `syncedAt`, and the 28 days before those. */
export function periodsAt(syncedAt: string): { period: DateRange; previousPeriod: DateRange } {
  const today = Math.floor(Date.parse(syncedAt) / DAY_MS) * DAY_MS;
  const end = today - DATA_LAG_DAYS * DAY_MS;
  const start = end - (PERIOD_DAYS - 1) * DAY_MS;
  return {
    period: { start: isoDay(start), end: isoDay(end) },
    previousPeriod: { start: isoDay(start - PERIOD_DAYS * DAY_MS), end: isoDay(start - DAY_MS) },
  };
}

export const NO_TRAFFIC: PeriodTotals = { clicks: 0, impressions: 0, ctr: 0, position: null };
