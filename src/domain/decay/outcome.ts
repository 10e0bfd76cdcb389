import type { DateRange } from '../../core/dateRange.ts';
import { addDays, totalsIn, windowEnding, type DailySeries } from './series.ts';

/**
 * A merged refresh measured: the clicks of the 28 days before the merge day against the 28 days
 * after it, once both are recorded. No baseline is invented: until the days after exist (or when
 * the days before were never recorded) the outcome is `waiting_for_data`.
 */
export type RefreshOutcome = {
  mergedAt: string;
  outcome: 'better' | 'unchanged' | 'worse' | 'waiting_for_data';
  before: { window: DateRange; clicks: number };
  after: { window: DateRange; clicks: number } | null;
  changePercent: number | null;
};

/** A change under this share (either way) is `unchanged`. */
export const OUTCOME_MARGIN = 0.1;

export function measureRefresh(
  mergedAt: string,
  days: DailySeries,
  recordedFrom: string | null,
  end: string,
  minClicks: number,
): RefreshOutcome {
  const mergeDay = mergedAt.slice(0, 10);
  const beforeWindow = windowEnding(addDays(mergeDay, -1));
  const afterWindow = windowEnding(addDays(mergeDay, 28));
  const before = { window: beforeWindow, clicks: totalsIn(days, beforeWindow).clicks };
  if (recordedFrom === null || recordedFrom > beforeWindow.start || end < afterWindow.end)
    return { mergedAt, outcome: 'waiting_for_data', before, after: null, changePercent: null };
  const after = { window: afterWindow, clicks: totalsIn(days, afterWindow).clicks };
  const changePercent =
    before.clicks > 0 ? Math.round((after.clicks / before.clicks - 1) * 100) : null;
  const small = before.clicks < minClicks && after.clicks < minClicks;
  const outcome = small
    ? 'unchanged'
    : after.clicks >= before.clicks * (1 + OUTCOME_MARGIN)
      ? 'better'
      : after.clicks <= before.clicks * (1 - OUTCOME_MARGIN)
        ? 'worse'
        : 'unchanged';
  return { mergedAt, outcome, before, after, changePercent };
}
