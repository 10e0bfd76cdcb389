import type { DateRange } from '../../core/dateRange.ts';

/**
 * Daily Search Console figures of one article as the decay rules read them: per day, clicks,
 * impressions and position × impressions (so averages over any window are exact), for the page
 * and for each of its queries. Days without a row had no impressions.
 */
export type DayFigures = [clicks: number, impressions: number, positionWeighted: number];
export type DailySeries = Record<string, DayFigures>;

export type ArticleDaily = {
  days: DailySeries;
  queries: Record<string, DailySeries>;
};

const DAY_MS = 86_400_000;
const indexes = new Map<string, number>();
/** Days since 1970-01-01; remembered, as every article's series names the same days. */
export function dayIndex(day: string): number {
  let index = indexes.get(day);
  if (index === undefined) {
    index = Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
    if (indexes.size > 10_000) indexes.clear();
    indexes.set(day, index);
  }
  return index;
}
export const dayOf = (index: number): string => new Date(index * DAY_MS).toISOString().slice(0, 10);
export const addDays = (day: string, days: number): string => dayOf(dayIndex(day) + days);

/** The 28-day window ending at `end`, both ends included. */
export const windowEnding = (end: string, days = 28): DateRange => ({
  start: addDays(end, -(days - 1)),
  end,
});

export type WindowTotals = { clicks: number; impressions: number; position: number | null };

export function totalsIn(series: DailySeries | undefined, range: DateRange): WindowTotals {
  let clicks = 0;
  let impressions = 0;
  let weighted = 0;
  if (series) {
    // YYYY-MM-DD days compare as text: no date parsing per day.
    for (const day in series) {
      if (day < range.start || day > range.end) continue;
      const figures = series[day];
      clicks += figures[0];
      impressions += figures[1];
      weighted += figures[2];
    }
  }
  return {
    clicks,
    impressions,
    position: impressions > 0 ? Math.round((weighted / impressions) * 10) / 10 : null,
  };
}

/**
 * The 28-day window with the most clicks among those starting on or after `from` and ending on or
 * before `to` (a rolling sum over the days, earliest window on ties); null when none fits.
 */
export function bestWindow(
  series: DailySeries,
  from: string,
  to: string,
  days = 28,
): { window: DateRange; clicks: number } | null {
  const first = dayIndex(from);
  const last = dayIndex(to);
  if (last - first + 1 < days) return null;
  const clicks = new Float64Array(last - first + 1);
  for (const [day, figures] of Object.entries(series)) {
    const index = dayIndex(day) - first;
    if (index >= 0 && index < clicks.length) clicks[index] = figures[0];
  }
  let sum = 0;
  for (let i = 0; i < days; i++) sum += clicks[i];
  let best = sum;
  let bestStart = 0;
  for (let start = 1; start + days <= clicks.length; start++) {
    sum += clicks[start + days - 1] - clicks[start - 1];
    if (sum > best) {
      best = sum;
      bestStart = start;
    }
  }
  return {
    window: { start: dayOf(first + bestStart), end: dayOf(first + bestStart + days - 1) },
    clicks: best,
  };
}
