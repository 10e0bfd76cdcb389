import { describe, expect, test } from 'vitest';
import { measureRefresh } from '../../../src/domain/decay/outcome.ts';
import { assessDecay, HISTORY_DAYS } from '../../../src/domain/decay/rules.ts';
import { addDays, type ArticleDaily, type DayFigures } from '../../../src/domain/decay/series.ts';
import { DEFAULT_DECAY_SETTINGS, type DecaySettings } from '../../../src/domain/decay/settings.ts';
import { END, LABELLED_SERIES, rowsOf } from '../../support/decaySeries.ts';

/** Daily figures as the sync records them, from rows of the fake's shape. */
function dailyOf(
  rows: { date: string; query: string; clicks: number; impressions: number; position: number }[],
): ArticleDaily {
  const daily: ArticleDaily = { days: {}, queries: {} };
  const add = (into: Record<string, DayFigures>, row: (typeof rows)[number]) => {
    const [c, i, w] = into[row.date] ?? [0, 0, 0];
    into[row.date] = [c + row.clicks, i + row.impressions, w + row.position * row.impressions];
  };
  for (const row of rows) {
    add(daily.days, row);
    add((daily.queries[row.query] ??= {}), row);
  }
  return daily;
}

/** `days` days of figures ending at END: f(daysAgo) per query. */
function series(
  days: number,
  f: (
    daysAgo: number,
  ) => { query: string; clicks: number; impressions: number; position: number }[],
): ArticleDaily {
  const rows = [];
  for (let i = days - 1; i >= 0; i--)
    for (const q of f(i)) rows.push({ date: addDays(END, -i), ...q });
  return dailyOf(rows);
}

const RECORDED_FROM = addDays(END, -485);
const judge = (
  daily: ArticleDaily,
  settings: Partial<DecaySettings> = {},
  article: { publishedAt?: string; text?: string | null; recordedFrom?: string } = {},
) =>
  assessDecay(
    {
      publishedAt: article.publishedAt ?? '2025-01-01T00:00:00.000Z',
      text: article.text ?? null,
      daily,
    },
    article.recordedFrom ?? RECORDED_FROM,
    END,
    { ...DEFAULT_DECAY_SETTINGS, ...settings },
  );
const rules = (assessment: ReturnType<typeof judge>) =>
  assessment.signals.map((s) => s.rule).sort();

test('the labelled fixture: every series gets its expected verdict and rules (pure, without the sync)', () => {
  const wrong = LABELLED_SERIES.filter((entry) => {
    const found = judge(
      dailyOf(rowsOf(entry)),
      {},
      { publishedAt: entry.publishedAt, text: entry.text },
    );
    return (
      found.verdict !== entry.expected.verdict ||
      rules(found).join() !== [...entry.expected.rules].sort().join()
    );
  });
  expect(wrong.map((entry) => entry.slug)).toEqual([]);
  expect(LABELLED_SERIES.length).toBeGreaterThanOrEqual(30);
});

describe('clicks below the best window since publication', () => {
  const halved = series(300, (i) => [
    { query: 'q', clicks: i >= 100 ? 10 : 5, impressions: 200, position: 4 },
  ]);
  test('a 50% drop counts at the default 40%, not at 60%', () => {
    const found = judge(halved, {}, { publishedAt: '2025-05-16T00:00:00.000Z' });
    expect(found.signals).toEqual([
      expect.objectContaining({
        rule: 'clicks_below_best',
        severity: 'medium',
        dropPercent: 50,
        best: expect.objectContaining({ clicks: 280 }),
        current: expect.objectContaining({ clicks: 140 }),
      }),
    ]);
    expect(
      judge(halved, { bestDropPercent: 60 }, { publishedAt: '2025-05-16T00:00:00.000Z' }).verdict,
    ).toBe('steady');
  });
  test('the traffic floor: below minClicks the same drop is too small to judge', () => {
    const found = judge(halved, { minClicks: 281 }, { publishedAt: '2025-05-16T00:00:00.000Z' });
    expect(found.verdict).toBe('too_small');
  });
});

describe('clicks below the same window a year before', () => {
  const yearAgo = series(480, (i) => [
    { query: 'q', clicks: i >= 300 ? 10 : 5, impressions: 200, position: 4 },
  ]);
  test('counts at yearDropPercent 40, not at 60; without the year recorded it is not judged', () => {
    expect(rules(judge(yearAgo))).toEqual(['clicks_below_best', 'clicks_below_last_year']);
    expect(rules(judge(yearAgo, { yearDropPercent: 60 }))).toEqual(['clicks_below_best']);
    expect(rules(judge(yearAgo, {}, { recordedFrom: addDays(END, -330) }))).toEqual([
      'clicks_below_best',
    ]);
  });
});

describe('average position worse on a top query', () => {
  const slipped = series(120, (i) => [
    { query: 'q', clicks: 5, impressions: 100, position: i < 28 ? 8 : 3 },
  ]);
  test('5 places count at positionDrop 3 (low), not at 6; a query under minQueryImpressions is not judged', () => {
    const found = judge(slipped);
    expect(found.signals).toEqual([
      expect.objectContaining({
        rule: 'position_worsened',
        severity: 'low',
        queries: [{ query: 'q', before: 3, now: 8, places: 5 }],
      }),
    ]);
    expect(judge(slipped, { positionDrop: 6 }).verdict).toBe('steady');
    expect(judge(slipped, { minQueryImpressions: 5_000 }).verdict).toBe('steady');
    expect(judge(slipped, { positionDrop: 2 }).signals[0].severity).toBe('medium');
  });
});

describe('a query that brought clicks now brings none', () => {
  const lost = series(120, (i) => [
    { query: 'main', clicks: 8, impressions: 100, position: 3 },
    { query: 'side', clicks: i < 28 ? 0 : 1, impressions: 20, position: 6 },
  ]);
  test('28 clicks before count at lostQueryMinClicks 10, not at 40', () => {
    expect(judge(lost).signals).toEqual([
      expect.objectContaining({
        rule: 'query_lost',
        queries: [{ query: 'side', clicksBefore: 28, clicksNow: 0 }],
      }),
    ]);
    expect(judge(lost, { lostQueryMinClicks: 40 }).verdict).toBe('steady');
  });
});

describe('dated facts in an old article', () => {
  const level = series(120, () => [{ query: 'q', clicks: 5, impressions: 100, position: 3 }]);
  const text =
    '---\ntitle: T\n---\n\n# Heading 2019\n\nIn 2024 the latest release was out. Bread needs flour.\n\n```\nv9.9.9\n```\n';
  test('an article 22 months old counts at staleMonths 12, not at 24; the sentences are quoted, headings and code are not', () => {
    const found = judge(level, {}, { publishedAt: '2024-05-01T00:00:00.000Z', text });
    expect(found.signals).toEqual([
      {
        rule: 'dated_facts',
        severity: 'low',
        ageMonths: 22,
        sentences: ['In 2024 the latest release was out.'],
      },
    ]);
    expect(
      judge(level, { staleMonths: 24 }, { publishedAt: '2024-05-01T00:00:00.000Z', text }).verdict,
    ).toBe('steady');
  });
});

test('not enough history: the traffic rules wait for 56 recorded days since publication', () => {
  const crash = series(200, (i) => [
    { query: 'q', clicks: i < 28 ? 0 : 20, impressions: 200, position: 3 },
  ]);
  const at = (days: number) => judge(crash, {}, { recordedFrom: addDays(END, -(days - 1)) });
  expect(at(HISTORY_DAYS - 1)).toMatchObject({ verdict: 'not_enough_history', signals: [] });
  expect(at(HISTORY_DAYS).verdict).toBe('decaying');
});

describe('a merged refresh measured', () => {
  const days = series(200, (i) => [
    { query: 'q', clicks: i < 60 ? 12 : 6, impressions: 200, position: 3 },
  ]);
  const mergedAt = `${addDays(END, -60)}T12:00:00.000Z`;
  test('28 days before against the 28 after: better, and waiting until the days after exist', () => {
    expect(measureRefresh(mergedAt, days.days, RECORDED_FROM, END, 30)).toMatchObject({
      outcome: 'better',
      before: { clicks: 168 },
      after: { clicks: 28 * 12 },
      changePercent: 100,
    });
    expect(measureRefresh(mergedAt, days.days, RECORDED_FROM, addDays(END, -40), 30)).toMatchObject(
      { outcome: 'waiting_for_data', after: null },
    );
    expect(measureRefresh(mergedAt, days.days, addDays(END, -70), END, 30).outcome).toBe(
      'waiting_for_data',
    );
  });
  test('worse, and unchanged within 10% or under the floor', () => {
    const down = series(200, (i) => [
      { query: 'q', clicks: i < 60 ? 4 : 6, impressions: 200, position: 3 },
    ]);
    expect(measureRefresh(mergedAt, down.days, RECORDED_FROM, END, 30).outcome).toBe('worse');
    expect(measureRefresh(mergedAt, down.days, RECORDED_FROM, END, 200).outcome).toBe('unchanged');
    const level = series(200, () => [{ query: 'q', clicks: 6, impressions: 200, position: 3 }]);
    expect(measureRefresh(mergedAt, level.days, RECORDED_FROM, END, 30).outcome).toBe('unchanged');
  });
});
