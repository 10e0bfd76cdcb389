import type { DateRange } from '../../core/dateRange.ts';
import { datedSentences } from './datedFacts.ts';
import {
  addDays,
  bestWindow,
  dayIndex,
  totalsIn,
  windowEnding,
  type ArticleDaily,
} from './series.ts';
import type { DecaySettings } from './settings.ts';

/**
 * The decay rules (docs/decay.md): pure and deterministic over one article's recorded daily
 * figures, its text and the project's thresholds. Each signal names its evidence.
 */
export type Severity = 'high' | 'medium' | 'low';
export const SEVERITY_RANK: Record<Severity | 'none', number> = {
  high: 3,
  medium: 2,
  low: 1,
  none: 0,
};

type Clicks = { window: DateRange; clicks: number };
type QueryPosition = { query: string; before: number; now: number; places: number };

export type DecaySignal =
  | {
      rule: 'clicks_below_best';
      severity: Severity;
      current: Clicks;
      best: Clicks;
      dropPercent: number;
    }
  | {
      rule: 'clicks_below_last_year';
      severity: Severity;
      current: Clicks;
      yearBefore: Clicks;
      dropPercent: number;
    }
  | {
      rule: 'position_worsened';
      severity: Severity;
      before: DateRange;
      now: DateRange;
      queries: QueryPosition[];
    }
  | {
      rule: 'query_lost';
      severity: Severity;
      before: DateRange;
      now: DateRange;
      queries: { query: string; clicksBefore: number; clicksNow: 0 }[];
    }
  | { rule: 'dated_facts'; severity: Severity; ageMonths: number; sentences: string[] };

export type DecayVerdict = 'decaying' | 'steady' | 'not_enough_history' | 'too_small';

export type DecayAssessment = {
  verdict: DecayVerdict;
  severity: Severity | 'none';
  /** The sum of the signals' ranks: orders findings of the same severity. */
  score: number;
  signals: DecaySignal[];
  /** The recorded days the traffic rules could read, since publication. */
  history: { from: string | null; to: string; days: number };
  current: Clicks;
};

/** A finding as an article's refresh carries it (on its stream, for the webhook payload): what the refresh answers. */
export type DecayNote = Pick<DecayAssessment, 'verdict' | 'severity' | 'signals' | 'history'> & {
  assessedAt: string;
};

export type ArticleToAssess = {
  publishedAt: string;
  /** The article's Markdown as published (for dated facts); null when unknown. */
  text: string | null;
  daily: ArticleDaily;
};

/** Days of figures the traffic rules need: the last 28 days and the 28 before them. */
export const HISTORY_DAYS = 56;

const dropPercent = (from: number, to: number) => Math.round((1 - to / from) * 100);

function monthsBetween(from: string, to: string): number {
  const a = new Date(from);
  const b = new Date(`${to}T00:00:00Z`);
  return (
    (b.getUTCFullYear() - a.getUTCFullYear()) * 12 +
    (b.getUTCMonth() - a.getUTCMonth()) -
    (b.getUTCDate() < a.getUTCDate() ? 1 : 0)
  );
}

/**
 * Judges one article on `end`, the last complete day of figures; `recordedFrom` is the first day
 * the project's figures were recorded from (days before it are unknown, not zero).
 */
export function assessDecay(
  article: ArticleToAssess,
  recordedFrom: string | null,
  end: string,
  settings: DecaySettings,
): DecayAssessment {
  const now = windowEnding(end);
  const before = windowEnding(addDays(end, -28));
  const published = article.publishedAt.slice(0, 10);
  const from = recordedFrom === null ? null : recordedFrom > published ? recordedFrom : published;
  const days = from === null ? 0 : Math.max(0, dayIndex(end) - dayIndex(from) + 1);
  const current = { window: now, clicks: totalsIn(article.daily.days, now).clicks };
  const signals: DecaySignal[] = [];
  const enough = from !== null && days >= HISTORY_DAYS;
  let small = true;

  if (enough) {
    const best = bestWindow(article.daily.days, from, addDays(now.start, -1));
    if (best && best.clicks >= settings.minClicks) {
      small = false;
      const drop = dropPercent(best.clicks, current.clicks);
      if (drop >= settings.bestDropPercent)
        signals.push({
          rule: 'clicks_below_best',
          severity: drop >= 70 ? 'high' : 'medium',
          current,
          best,
          dropPercent: drop,
        });
    }
    const yearWindow = windowEnding(addDays(end, -364));
    if (yearWindow.start >= from) {
      const yearBefore = {
        window: yearWindow,
        clicks: totalsIn(article.daily.days, yearWindow).clicks,
      };
      if (yearBefore.clicks >= settings.minClicks) {
        small = false;
        const drop = dropPercent(yearBefore.clicks, current.clicks);
        if (drop >= settings.yearDropPercent)
          signals.push({
            rule: 'clicks_below_last_year',
            severity: drop >= 70 ? 'high' : 'medium',
            current,
            yearBefore,
            dropPercent: drop,
          });
      }
    }
    if (current.clicks >= settings.minClicks) small = false;
    signals.push(...queryRules(article.daily, before, now, settings));
  }

  const ageMonths = monthsBetween(article.publishedAt, end);
  if (article.text && ageMonths >= settings.staleMonths) {
    const sentences = datedSentences(article.text, Number(published.slice(0, 4)));
    if (sentences.length > 0)
      signals.push({ rule: 'dated_facts', severity: 'low', ageMonths, sentences });
  }

  const severity = signals.reduce<Severity | 'none'>(
    (worst, signal) =>
      SEVERITY_RANK[signal.severity] > SEVERITY_RANK[worst] ? signal.severity : worst,
    'none',
  );
  const verdict: DecayVerdict =
    signals.length > 0
      ? 'decaying'
      : !enough
        ? 'not_enough_history'
        : small
          ? 'too_small'
          : 'steady';
  return {
    verdict,
    severity,
    score: signals.reduce((sum, signal) => sum + SEVERITY_RANK[signal.severity], 0),
    signals,
    history: { from, to: end, days },
    current,
  };
}

/** Position worsened on the top queries, and queries that brought clicks and now bring none. */
function queryRules(
  daily: ArticleDaily,
  before: DateRange,
  now: DateRange,
  settings: DecaySettings,
): DecaySignal[] {
  const figures = Object.entries(daily.queries)
    .map(([query, series]) => ({
      query,
      before: totalsIn(series, before),
      now: totalsIn(series, now),
    }))
    .sort((a, b) => b.before.clicks - a.before.clicks || (a.query < b.query ? -1 : 1));
  const worse: QueryPosition[] = [];
  for (const { query, before: then, now: later } of figures.slice(0, settings.topQueries)) {
    if (then.clicks === 0) continue;
    if (then.impressions < settings.minQueryImpressions) continue;
    if (later.impressions < settings.minQueryImpressions) continue;
    const places = Math.round((later.position! - then.position!) * 10) / 10;
    if (places > settings.positionDrop)
      worse.push({ query, before: then.position!, now: later.position!, places });
  }
  const lost = figures
    .filter((query) => query.before.clicks >= settings.lostQueryMinClicks && query.now.clicks === 0)
    .map((query) => ({
      query: query.query,
      clicksBefore: query.before.clicks,
      clicksNow: 0 as const,
    }));
  const signals: DecaySignal[] = [];
  if (worse.length > 0)
    signals.push({
      rule: 'position_worsened',
      severity: worse.some((query) => query.places > 2 * settings.positionDrop) ? 'medium' : 'low',
      before,
      now,
      queries: worse,
    });
  if (lost.length > 0)
    signals.push({
      rule: 'query_lost',
      severity: lost.length > 1 ? 'medium' : 'low',
      before,
      now,
      queries: lost,
    });
  return signals;
}
